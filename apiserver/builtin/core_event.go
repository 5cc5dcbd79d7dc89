package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// eventResource is core/v1 events.
func eventResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Event", Plural: "events", Namespaced: true, ShortNames: []string{"ev"},
		PrinterColumns: eventColumns, WithoutGeneration: true, AllowCreateOnUpdate: true,
		SelectableFields: []string{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
			"involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
			"involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"}}
}

var eventColumns = []apiserver.PrinterColumn{
	column("Type", "string", "Type of this event (Normal, Warning), new types could be added in the future.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "type") }),
	column("Reason", "string", "The reason this event is generated, if available.", 0,
		func(o meta.Object, _ time.Time) any { return str(o, "reason") }),
	column("Object", "string", "The object that this event is about.", 0, func(o meta.Object, _ time.Time) any {
		return strings.ToLower(str(o, "involvedObject", "kind")) + "/" + str(o, "involvedObject", "name")
	}),
	column("Message", "string", "A human-readable description of the status of this operation.", 0,
		func(o meta.Object, _ time.Time) any { return strings.TrimSpace(str(o, "message")) }),
	apiserver.AgeColumn(),
}
