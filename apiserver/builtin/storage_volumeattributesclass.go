package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// volumeAttributesClassResource is storage.k8s.io/v1
// volumeattributesclasses (GA and on by default since 1.34).
func volumeAttributesClassResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "storage.k8s.io", Version: "v1", Kind: "VolumeAttributesClass",
		Plural: "volumeattributesclasses", ShortNames: []string{"vac"}, WithoutGeneration: true,
		PrinterColumns: []apiserver.PrinterColumn{
			column("DriverName", "string", propertyDoc("io.k8s.api.storage.v1.VolumeAttributesClass", "driverName"), 0,
				func(o meta.Object, now time.Time) any { return str(o, "driverName") }),
			apiserver.AgeColumn(),
		}}
}
