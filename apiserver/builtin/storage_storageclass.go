package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// storageClassResource is storage.k8s.io/v1 storageclasses.
func storageClassResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "storage.k8s.io", Version: "v1", Kind: "StorageClass", Plural: "storageclasses",
		ShortNames: []string{"sc"}, WithoutGeneration: true, GenericDelete: true, Strategy: storageClassStrategy{},
		PrinterColumns: append([]apiserver.PrinterColumn{storageClassName}, storageClassColumns...)}
}

// storageClassStrategy is what a StorageClass does differently.
type storageClassStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_StorageClass: volumes are deleted with their
// claims and bound at once.
func (storageClassStrategy) Default(o meta.Object) {
	setDefault(o, "reclaimPolicy", "Delete")
	setDefault(o, "volumeBindingMode", "Immediate")
}

// storageClassName is the Name column, marking the default class.
var storageClassName = func() apiserver.PrinterColumn {
	c := apiserver.NameColumn()
	c.Cell = func(o meta.Object, _ time.Time) any {
		ann := o.Annotations()
		if ann["storageclass.kubernetes.io/is-default-class"] == "true" || ann["storageclass.beta.kubernetes.io/is-default-class"] == "true" {
			return o.Name() + " (default)"
		}
		return o.Name()
	}
	return c
}()

var storageClassColumns = []apiserver.PrinterColumn{
	column("Provisioner", "string", propertyDoc("io.k8s.api.storage.v1.StorageClass", "provisioner"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "provisioner") }),
	column("ReclaimPolicy", "string", propertyDoc("io.k8s.api.storage.v1.StorageClass", "reclaimPolicy"), 0,
		func(o meta.Object, now time.Time) any { return stringOr(o["reclaimPolicy"], "Delete") }),
	column("VolumeBindingMode", "string", propertyDoc("io.k8s.api.storage.v1.StorageClass", "volumeBindingMode"), 0,
		func(o meta.Object, now time.Time) any { return stringOr(o["volumeBindingMode"], "Immediate") }),
	column("AllowVolumeExpansion", "string", propertyDoc("io.k8s.api.storage.v1.StorageClass", "allowVolumeExpansion"), 0,
		func(o meta.Object, now time.Time) any { return flag(o["allowVolumeExpansion"], false) }),
	apiserver.AgeColumn(),
}
