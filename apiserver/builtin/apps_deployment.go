package builtin

import (
	"fmt"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// deploymentResource is apps/v1 deployments.
func deploymentResource() apiserver.Resource {
	return apiserver.Resource{Group: "apps", Version: "v1", Kind: "Deployment", Plural: "deployments", Namespaced: true,
		ShortNames: []string{"deploy"}, Categories: []string{"all"}, StatusSubresource: true,
		AnnotationsBumpGeneration: true, PrinterColumns: deploymentColumns, GenericDelete: true, Strategy: deploymentStrategy{},
		Scale:       workloadScale,
		ResetFields: map[string][]string{"": {"status"}, "status": {"metadata.labels", "spec"}}}
}

// deploymentStrategy is what a Deployment does differently.
type deploymentStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Deployment.
func (deploymentStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "replicas", int64(1))
	strategy := obj(spec, "strategy")
	setDefault(strategy, "type", "RollingUpdate")
	if strategy["type"] == "RollingUpdate" {
		ru := obj(strategy, "rollingUpdate")
		setDefault(ru, "maxUnavailable", "25%")
		setDefault(ru, "maxSurge", "25%")
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	setDefault(spec, "progressDeadlineSeconds", int64(600))
	template := obj(spec, "template")
	defaultPodSpec(obj(template, "spec"))
}

// PrepareForUpdate: a write to /status keeps the stored spec and labels
// (kube's deployment status strategy), the rest as generic.
func (deploymentStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	if w.Subresource == "status" {
		keepMetadata(o, old, "labels")
	}
	return o
}

var deploymentColumns = []apiserver.PrinterColumn{
	column("Ready", "string", "Number of the pod with ready state", 0, func(o meta.Object, _ time.Time) any {
		return fmt.Sprintf("%d/%d", integer(o, "status", "readyReplicas"), integer(o, "spec", "replicas"))
	}),
	column("Up-to-date", "string", propertyDoc("io.k8s.api.apps.v1.DeploymentStatus", "updatedReplicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "updatedReplicas") }),
	column("Available", "string", propertyDoc("io.k8s.api.apps.v1.DeploymentStatus", "availableReplicas"), 0,
		func(o meta.Object, _ time.Time) any { return integer(o, "status", "availableReplicas") }),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "template", "spec"),
	imagesColumn(1, "spec", "template", "spec"),
	column("Selector", "string", sinceRelease(36, "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.",
		propertyDoc("io.k8s.api.apps.v1.DeploymentSpec", "selector")), 1,
		func(o meta.Object, _ time.Time) any { return labelSelectorString(field(o, "spec", "selector")) }),
}
