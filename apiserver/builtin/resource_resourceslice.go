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
	column("Node", "string", "NodeName identifies the node which provides the resources in this pool. A field selector can be used to list only ResourceSlice objects belonging to a certain node.\n\nThis field can be used to limit access from nodes to ResourceSlices with the same node name. It also indicates to autoscalers that adding new nodes of the same type as some old node might also make new resources available.\n\nExactly one of NodeName, NodeSelector, AllNodes, and PerDeviceNodeSelection must be set. This field is immutable.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "nodeName") }),
	column("Driver", "string", "Driver identifies the DRA driver providing the capacity information. A field selector can be used to list only ResourceSlice objects with a certain driver name.\n\nMust be a DNS subdomain and should end with a DNS domain owned by the vendor of the driver. It should use only lower case characters. This field is immutable.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "driver") }),
	column("Pool", "string", "Name is used to identify the pool. For node-local devices, this is often the node name, but this is not required. A field selector can be used to list only ResourceSlice objects belonging to a certain pool.\n\nIt must not be longer than 253 characters and must consist of one or more DNS sub-domains separated by slashes. This field is immutable.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "spec", "pool", "name") }),
	apiserver.AgeColumn(),
}
