package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// replicaSetResource is apps/v1 replicasets.
func replicaSetResource() apiserver.Resource {
	return apiserver.Resource{Group: "apps", Version: "v1", Kind: "ReplicaSet", Plural: "replicasets", Namespaced: true,
		ShortNames: []string{"rs"}, Categories: []string{"all"}, StatusSubresource: true,
		PrinterColumns: replicaSetColumns, GenericDelete: true, Strategy: replicaSetStrategy{},
		SelectableFields: []string{"status.replicas"}, FieldValues: replicasFieldValues, Scale: workloadScale}
}

// replicaSetStrategy is what a ReplicaSet does differently.
type replicaSetStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_ReplicaSet: one replica; pod template
// defaults.
func (replicaSetStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "replicas", int64(1))
	defaultPodSpec(obj(obj(spec, "template"), "spec"))
}

// PrepareForCreate starts a replica set with no replicas observed.
func (replicaSetStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"replicas": int64(0)}
}

// PrepareForUpdate: a write to /status keeps the stored spec and labels
// (kube's replica set status strategy), the rest as generic.
func (replicaSetStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "status" {
		keepMetadata(o, old, "labels")
	}
	return o
}

var replicaSetColumns = []apiserver.PrinterColumn{
	column("Desired", "integer", propertyDoc("io.k8s.api.apps.v1.ReplicaSetSpec", "replicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "spec", "replicas") }),
	column("Current", "integer", propertyDoc("io.k8s.api.apps.v1.ReplicaSetStatus", "replicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "replicas") }),
	column("Ready", "integer", propertyDoc("io.k8s.api.apps.v1.ReplicaSetStatus", "readyReplicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "readyReplicas") }),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "template", "spec"),
	imagesColumn(1, "spec", "template", "spec"),
	column("Selector", "string", sinceRelease(36, "Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
		propertyDoc("io.k8s.api.apps.v1.ReplicaSetSpec", "selector")), 1,
		func(o meta.Object, _ time.Time) any { return formatLabelSelector(field(o, "spec", "selector")) }),
}
