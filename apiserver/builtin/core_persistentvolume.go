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
	column("Capacity", "string", "capacity is the description of the persistent volume's resources and capacity. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#capacity", 0,
		func(o meta.Object, _ time.Time) any { return quantityString(field(o, "spec", "capacity", "storage")) }),
	column("Access Modes", "string", "accessModes contains all ways the volume can be mounted. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes", 0,
		func(o meta.Object, _ time.Time) any { return accessModes(field(o, "spec", "accessModes")) }),
	column("Reclaim Policy", "string", "persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim. Valid options are Retain (default for manually created PersistentVolumes), Delete (default for dynamically provisioned PersistentVolumes), and Recycle (deprecated). Recycle must be supported by the volume plugin underlying this PersistentVolume. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#reclaiming", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "persistentVolumeReclaimPolicy") }),
	column("Status", "string", "phase indicates if a volume is available, bound to a claim, or released by a claim. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#phase", 0,
		func(o meta.Object, _ time.Time) any { return phaseOrTerminating(o) }),
	column("Claim", "string", "claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim. Expected to be non-nil when bound. claim.VolumeName is the authoritative bind between PV and PVC. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#binding", 0,
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
	column("Reason", "string", "reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "status", "reason") }),
	apiserver.AgeColumn(),
	column("VolumeMode", "string", "volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state. Value of Filesystem is implied when not included in spec.", 1,
		func(o meta.Object, _ time.Time) any { return stringOr(field(o, "spec", "volumeMode"), "<unset>") }),
}
