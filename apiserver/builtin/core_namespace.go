package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// namespaceResource is core/v1 namespaces. The server keeps its own strategy for
// them (apiserver.NamespaceStrategy: finalizers, Terminating, protected
// namespaces); this registration adds kube's columns and schema.
func namespaceResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Namespace", Plural: "namespaces", ShortNames: []string{"ns"},
		Verbs:             []string{"create", "delete", "get", "list", "patch", "update", "watch"},
		StatusSubresource: true, ReturnDeletedObject: true, WithoutGeneration: true, PrinterColumns: namespaceColumns,
		SelectableFields: []string{"status.phase"}, Strategy: namespaceStrategy{}}
}

var namespaceColumns = []apiserver.PrinterColumn{
	column("Status", "string", "The status of the namespace", 0, func(o meta.Object, _ time.Time) any {
		return str(o, "status", "phase")
	}),
	apiserver.AgeColumn(),
}
