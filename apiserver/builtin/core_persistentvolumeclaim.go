package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// persistentVolumeClaimResource is core/v1 persistentvolumeclaims.
func persistentVolumeClaimResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Version: "v1", Kind: "PersistentVolumeClaim", Plural: "persistentvolumeclaims", Namespaced: true,
		ShortNames: []string{"pvc"}, StatusSubresource: true, WithoutGeneration: true,
		PrinterColumns: persistentVolumeClaimColumns, GenericDelete: true, Strategy: persistentVolumeClaimStrategy{}}
}

// persistentVolumeClaimStrategy is what a PersistentVolumeClaim does
// differently.
type persistentVolumeClaimStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_PersistentVolumeClaim(Spec): Filesystem and
// a Pending phase.
func (persistentVolumeClaimStrategy) Default(o meta.Object) {
	defaultClaimSpec(obj(o, "spec"))
	setDefault(obj(o, "status"), "phase", "Pending")
}

// PrepareForCreate starts a claim Pending, protected from deletion while
// in use (the finalizer of kube's StorageObjectInUseProtection admission
// plugin), with its data source named both ways (NormalizeDataSources).
func (persistentVolumeClaimStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"phase": "Pending"}
	addFinalizer(o, "kubernetes.io/pvc-protection")
	spec := obj(o, "spec")
	src, hasSrc := spec["dataSource"].(map[string]any)
	ref, hasRef := spec["dataSourceRef"].(map[string]any)
	switch {
	case hasSrc && !hasRef:
		spec["dataSourceRef"] = meta.DeepCopyValue(src)
	case hasRef && !hasSrc && ref["namespace"] == nil:
		spec["dataSource"] = meta.DeepCopyValue(ref)
	}
}

// defaultClaimSpec mirrors SetDefaults_PersistentVolumeClaimSpec, for
// claims and a StatefulSet's claim templates.
func defaultClaimSpec(spec map[string]any) { setDefault(spec, "volumeMode", "Filesystem") }

var persistentVolumeClaimColumns = []apiserver.PrinterColumn{
	column("Status", "string", "phase represents the current phase of PersistentVolumeClaim.", 0,
		func(o meta.Object, _ time.Time) any { return phaseOrTerminating(o) }),
	column("Volume", "string", "volumeName is the binding reference to the PersistentVolume backing this claim.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "volumeName") }),
	column("Capacity", "string", "capacity represents the actual resources of the underlying volume.", 0, func(o meta.Object, _ time.Time) any {
		if str(o, "spec", "volumeName") == "" {
			return ""
		}
		return quantityString(field(o, "status", "capacity", "storage"))
	}),
	column("Access Modes", "string", "accessModes contains the actual access modes the volume backing the PVC has. More info: https://kubernetes.io/docs/concepts/storage/persistent-volumes#access-modes-1", 0,
		func(o meta.Object, _ time.Time) any {
			if str(o, "spec", "volumeName") == "" {
				return ""
			}
			return accessModes(field(o, "status", "accessModes"))
		}),
	column("StorageClass", "string", "StorageClass of the pvc", 0, func(o meta.Object, _ time.Time) any { return storageClassOf(o) }),
	column("VolumeAttributesClass", "string", "VolumeAttributesClass of the pvc", 0,
		func(o meta.Object, _ time.Time) any {
			return stringOr(field(o, "spec", "volumeAttributesClassName"), "<unset>")
		}),
	apiserver.AgeColumn(),
	column("VolumeMode", "string", "volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.", 1,
		func(o meta.Object, _ time.Time) any { return stringOr(field(o, "spec", "volumeMode"), "<unset>") }),
}
