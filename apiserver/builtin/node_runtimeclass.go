package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// runtimeClassResource is node.k8s.io/v1 runtimeclasses.
func runtimeClassResource() apiserver.Resource {
	return apiserver.Resource{Group: "node.k8s.io", Version: "v1", Kind: "RuntimeClass", Plural: "runtimeclasses",
		WithoutGeneration: true, PrinterColumns: runtimeClassColumns, GenericDelete: true, Strategy: runtimeClassStrategy{}}
}

var runtimeClassColumns = []apiserver.PrinterColumn{
	column("Handler", "string", "", 0,
		func(o meta.Object, now time.Time) any { return str(o, "handler") }),
	apiserver.AgeColumn(),
}
