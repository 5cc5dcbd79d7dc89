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
	column("Status", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeClaimStatus", "phase"), 0,
		func(o meta.Object, _ time.Time) any { return phaseOrTerminating(o) }),
	column("Volume", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeClaimSpec", "volumeName"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "volumeName") }),
	column("Capacity", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeClaimStatus", "capacity"), 0, func(o meta.Object, _ time.Time) any {
		if str(o, "spec", "volumeName") == "" {
			return ""
		}
		return quantityString(field(o, "status", "capacity", "storage"))
	}),
	column("Access Modes", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeClaimStatus", "accessModes"), 0,
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
	column("VolumeMode", "string", propertyDoc("io.k8s.api.core.v1.PersistentVolumeClaimSpec", "volumeMode"), 1,
		func(o meta.Object, _ time.Time) any { return stringOr(field(o, "spec", "volumeMode"), "<unset>") }),
}
