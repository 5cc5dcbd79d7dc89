package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// resourceSliceResource is resource.k8s.io/v1 resourceslices (since
// 1.34), selectable by node, driver and pool as in kube.
func resourceSliceResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "resource.k8s.io", Version: "v1", Kind: "ResourceSlice", Plural: "resourceslices",
		PrinterColumns:   resourceSliceColumns,
		SelectableFields: []string{"spec.nodeName", "spec.driver", "spec.pool.name"},
		GenericDelete:    true, Strategy: resourceSliceStrategy{}}
}

// resourceSliceStrategy is what a ResourceSlice does differently: its
// devices' taints carry the time they were added (SetDefaults_DeviceTaint).
type resourceSliceStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate stamps the devices' taints.
func (resourceSliceStrategy) PrepareForCreate(w *apiserver.Write, o meta.Object) {
	stampDeviceTaints(w, o)
}

// PrepareForUpdate stamps the devices' taints that have no time.
func (s resourceSliceStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = s.GenericStrategy.PrepareForUpdate(w, o, old)
	stampDeviceTaints(w, o)
	return o
}

func stampDeviceTaints(w *apiserver.Write, o meta.Object) {
	for _, d := range meta.AsList(field(o, "spec", "devices")) {
		for _, t := range meta.AsList(asMap(d)["taints"]) {
			if t, ok := t.(map[string]any); ok {
				stampTaint(w, t)
			}
		}
	}
}

var resourceSliceColumns = []apiserver.PrinterColumn{
	column("Node", "string", propertyDoc("io.k8s.api.resource.v1.ResourceSliceSpec", "nodeName"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "nodeName") }),
	column("Driver", "string", propertyDoc("io.k8s.api.resource.v1.ResourceSliceSpec", "driver"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "driver") }),
	column("Pool", "string", propertyDoc("io.k8s.api.resource.v1.ResourcePool", "name"), 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "pool", "name") }),
	apiserver.AgeColumn(),
}
