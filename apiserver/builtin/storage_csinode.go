package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// csiNodeResource is storage.k8s.io/v1 csinodes. kube refuses an update
// without a resourceVersion (ConditionalUpdates).
func csiNodeResource() apiserver.Resource {
	return apiserver.Resource{ReturnDeletedObject: true, Group: "storage.k8s.io", Version: "v1", Kind: "CSINode", Plural: "csinodes",
		WithoutGeneration: true, PrinterColumns: csiNodeColumns, GenericDelete: true, ConditionalUpdates: true, Strategy: csiNodeStrategy{}}
}

var csiNodeColumns = []apiserver.PrinterColumn{
	column("Drivers", "integer", "Drivers indicates the number of CSI drivers registered on the node", 0,
		func(o meta.Object, now time.Time) any { return count(field(o, "spec", "drivers")) }),
	apiserver.AgeColumn(),
}
