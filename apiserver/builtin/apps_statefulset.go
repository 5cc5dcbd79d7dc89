package builtin

import (
	"fmt"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// statefulSetResource is apps/v1 statefulsets.
func statefulSetResource() apiserver.Resource {
	return apiserver.Resource{Group: "apps", Version: "v1", Kind: "StatefulSet", Plural: "statefulsets", Namespaced: true,
		ShortNames: []string{"sts"}, Categories: []string{"all"}, StatusSubresource: true,
		PrinterColumns: statefulSetColumns, GenericDelete: true, Strategy: statefulSetStrategy{}, Scale: workloadScale}
}

// statefulSetStrategy is what a StatefulSet does differently; release is
// the kube release served.
type statefulSetStrategy struct {
	apiserver.GenericStrategy
	release apiserver.Release
}

// Default mirrors SetDefaults_StatefulSet: ordered pod management, rolling
// updates from partition 0, claims retained, one replica, ten revisions
// kept; pod template and claim template defaults (each claim template a
// PersistentVolumeClaim of a Pending phase). From 1.37 a rolling update
// also defaults maxUnavailable to 1 (MaxUnavailableStatefulSet on by
// default; recorded from kube-apiserver 1.37.2).
func (s statefulSetStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "podManagementPolicy", "OrderedReady")
	us := obj(spec, "updateStrategy")
	if _, ok := us["type"]; !ok {
		us["type"] = "RollingUpdate"
		setDefault(us, "rollingUpdate", map[string]any{})
	}
	if ru, ok := us["rollingUpdate"].(map[string]any); ok && us["type"] == "RollingUpdate" {
		setDefault(ru, "partition", int64(0))
		if s.release.AtLeast(37) {
			setDefault(ru, "maxUnavailable", int64(1))
		}
	}
	retention := obj(spec, "persistentVolumeClaimRetentionPolicy")
	setDefault(retention, "whenDeleted", "Retain")
	setDefault(retention, "whenScaled", "Retain")
	setDefault(spec, "replicas", int64(1))
	setDefault(spec, "revisionHistoryLimit", int64(10))
	defaultPodSpec(obj(obj(spec, "template"), "spec"))
	for _, t := range meta.AsList(spec["volumeClaimTemplates"]) {
		claim, _ := t.(map[string]any)
		if claim == nil {
			continue
		}
		defaultClaimSpec(obj(claim, "spec"))
		setDefault(obj(claim, "status"), "phase", "Pending")
	}
}

// PrepareForCreate starts a stateful set with no replicas observed, and
// each claim template a PersistentVolumeClaim, as kube stores them.
func (statefulSetStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"replicas": int64(0), "availableReplicas": int64(0)}
	typeClaimTemplates(o)
}

// PrepareForUpdate is the generic split, with the claim templates typed.
func (statefulSetStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = apiserver.PrepareStatusUpdate(w, o, old)
	typeClaimTemplates(o)
	return o
}

// typeClaimTemplates gives each claim template the apiVersion and kind
// kube's apps/v1 encoding writes into them (after field tracking: nobody
// owns them).
func typeClaimTemplates(o meta.Object) {
	for _, t := range meta.AsList(field(o, "spec", "volumeClaimTemplates")) {
		if claim, ok := t.(map[string]any); ok {
			claim["apiVersion"], claim["kind"] = "v1", "PersistentVolumeClaim"
		}
	}
}

var statefulSetColumns = []apiserver.PrinterColumn{
	column("Ready", "string", "Number of the pod with ready state", 0, func(o meta.Object, _ time.Time) any {
		return fmt.Sprintf("%d/%d", integer(o, "status", "readyReplicas"), integer(o, "spec", "replicas"))
	}),
	apiserver.AgeColumn(),
	containersColumn(1, "spec", "template", "spec"),
	imagesColumn(1, "spec", "template", "spec"),
}
