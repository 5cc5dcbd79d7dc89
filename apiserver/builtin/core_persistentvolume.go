package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// persistentVolumeResource is core/v1 persistentvolumes.
func persistentVolumeResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Version: "v1", Kind: "PersistentVolume", Plural: "persistentvolumes", ShortNames: []string{"pv"},
		StatusSubresource: true, WithoutGeneration: true, PrinterColumns: persistentVolumeColumns, GenericDelete: true, Strategy: persistentVolumeStrategy{}}
}

// persistentVolumeStrategy is what a PersistentVolume does differently.
type persistentVolumeStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_PersistentVolume: Retain, Filesystem, and a
// Pending phase; a host path's type is "" (unset).
func (persistentVolumeStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	if hp, ok := spec["hostPath"].(map[string]any); ok {
		setDefault(hp, "type", "")
	}
	setDefault(spec, "persistentVolumeReclaimPolicy", "Retain")
	setDefault(spec, "volumeMode", "Filesystem")
	setDefault(obj(o, "status"), "phase", "Pending")
}

// PrepareForCreate starts a volume Pending, with the time it became so,
// protected from deletion while in use (kube's StorageObjectInUseProtection
// admission plugin adds the finalizer).
func (persistentVolumeStrategy) PrepareForCreate(w *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"phase": "Pending", "lastPhaseTransitionTime": meta.FormatTime(w.Now)}
	addFinalizer(o, "kubernetes.io/pv-protection")
}

// accessModes prints access modes as kube abbreviates them, in kube's order.
func accessModes(v any) string {
	have := map[string]bool{}
	for _, m := range meta.AsList(v) {
		if s, ok := m.(string); ok {
			have[s] = true
		}
	}
	var out []string
	for _, m := range [][2]string{{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}} {
		if have[m[0]] {
			out = append(out, m[1])
		}
	}
	return strings.Join(out, ",")
}

// storageClassOf is the class a volume or claim names, the beta
// annotation first.
func storageClassOf(o meta.Object) string {
	if c, ok := o.Annotations()["volume.beta.kubernetes.io/storage-class"]; ok {
		return c
	}
	return str(o, "spec", "storageClassName")
}

func phaseOrTerminating(o meta.Object) string {
	if o.DeletionTimestamp() != "" {
		return "Terminating"
	}
	return str(o, "status", "phase")
}

var persistentVolumeColumns = []apiserver.PrinterColumn{
	column("Capacity", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeSpec", "capacity"), 0,
		func(o meta.Object, _ time.Time) any { return quantityString(field(o, "spec", "capacity", "storage")) }),
	column("Access Modes", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeSpec", "accessModes"), 0,
		func(o meta.Object, _ time.Time) any { return accessModes(field(o, "spec", "accessModes")) }),
	column("Reclaim Policy", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeSpec", "persistentVolumeReclaimPolicy"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "persistentVolumeReclaimPolicy") }),
	column("Status", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeStatus", "phase"), 0,
		func(o meta.Object, _ time.Time) any { return phaseOrTerminating(o) }),
	column("Claim", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeSpec", "claimRef"), 0,
		func(o meta.Object, _ time.Time) any {
			if ref, ok := field(o, "spec", "claimRef").(map[string]any); ok {
				return stringOr(ref["namespace"], "") + "/" + stringOr(ref["name"], "")
			}
			return ""
		}),
	column("StorageClass", "string", "StorageClass of the pv", 0, func(o meta.Object, _ time.Time) any { return storageClassOf(o) }),
	column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pv", 0,
		func(o meta.Object, _ time.Time) any {
			return stringOr(field(o, "spec", "volumeAttributesClassName"), "<unset>")
		}),
	column("Reason", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeStatus", "reason"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "status", "reason") }),
	apiserver.AgeColumn(),
	column("VolumeMode", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeSpec", "volumeMode"), 1,
		func(o meta.Object, _ time.Time) any { return stringOr(field(o, "spec", "volumeMode"), "<unset>") }),
}
