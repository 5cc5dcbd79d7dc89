package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// eventsEventResource is events.k8s.io/v1 events: the core v1 Events,
// stored once, seen through the newer API (renamed fields, the deprecated
// ones under deprecated*), as kube-apiserver serves both from one storage.
func eventsEventResource() apiserver.Resource {
	return apiserver.Resource{Group: "events.k8s.io", Version: "v1", Kind: "Event", Plural: "events", Namespaced: true,
		ShortNames: []string{"ev"}, WithoutGeneration: true, AllowCreateOnUpdate: true, PrinterColumns: eventsEventColumns,
		GenericDelete: true, Strategy: eventsEventStrategy{},
		SelectableFields: []string{"regarding.kind", "regarding.namespace", "regarding.name", "regarding.uid",
			"regarding.apiVersion", "regarding.resourceVersion", "regarding.fieldPath", "reason", "reportingController", "type"},
		Storage: &apiserver.Storage{Resource: meta.GroupResource{Resource: "events"},
			Kind: meta.GroupVersionKind{Version: "v1", Kind: "Event"}, ToStorage: eventToCore, FromStorage: eventFromCore}}
}

// eventFieldsRenamed pairs the core v1 Event fields with their
// events.k8s.io/v1 names.
var eventFieldsRenamed = [][2]string{
	{"involvedObject", "regarding"}, {"message", "note"}, {"reportingComponent", "reportingController"},
	{"source", "deprecatedSource"}, {"firstTimestamp", "deprecatedFirstTimestamp"},
	{"lastTimestamp", "deprecatedLastTimestamp"}, {"count", "deprecatedCount"},
}

// eventFromCore converts a core v1 Event to events.k8s.io/v1, as kube's
// conversion through the internal Event does: the fields kube always
// encodes are always there (eventTime, regarding, deprecatedSource and the
// deprecated timestamps, null when unset).
func eventFromCore(core meta.Object) meta.Object {
	out := meta.Object{"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": core["metadata"]}
	for _, f := range []string{"eventTime", "series", "reportingInstance", "action", "reason", "related", "type"} {
		if v, ok := core[f]; ok {
			out[f] = v
		}
	}
	for _, r := range eventFieldsRenamed {
		if v, ok := core[r[0]]; ok {
			out[r[1]] = v
		}
	}
	dropEmpty(out, "reportingController", "reportingInstance", "action", "reason", "note", "type")
	if n, _ := meta.AsInt64(out["deprecatedCount"]); n == 0 {
		delete(out, "deprecatedCount")
	}
	setDefault(out, "eventTime", nil)
	setDefault(out, "regarding", map[string]any{})
	setDefault(out, "deprecatedSource", map[string]any{})
	setDefault(out, "deprecatedFirstTimestamp", nil)
	setDefault(out, "deprecatedLastTimestamp", nil)
	return out
}

// eventToCore converts an events.k8s.io/v1 Event to core v1, with the
// fields kube always encodes for a core Event.
func eventToCore(ev meta.Object) meta.Object {
	out := meta.Object{"apiVersion": "v1", "kind": "Event", "metadata": ev["metadata"]}
	for _, f := range []string{"eventTime", "series", "reportingInstance", "action", "reason", "related", "type"} {
		if v, ok := ev[f]; ok {
			out[f] = v
		}
	}
	for _, r := range eventFieldsRenamed {
		if v, ok := ev[r[1]]; ok {
			out[r[0]] = v
		}
	}
	dropEmpty(out, "reason", "message", "type", "action")
	if n, _ := meta.AsInt64(out["count"]); n == 0 {
		delete(out, "count")
	}
	setDefault(out, "involvedObject", map[string]any{})
	setDefault(out, "source", map[string]any{})
	setDefault(out, "firstTimestamp", nil)
	setDefault(out, "lastTimestamp", nil)
	setDefault(out, "eventTime", nil)
	setDefault(out, "reportingComponent", "")
	setDefault(out, "reportingInstance", "")
	return out
}

// dropEmpty removes the named fields holding "", as omitempty drops them.
func dropEmpty(o meta.Object, fields ...string) {
	for _, f := range fields {
		if o[f] == "" {
			delete(o, f)
		}
	}
}

// eventsEventColumns are the core Event printer's columns over the
// events.k8s.io view (kube prints both versions from the internal Event).
var eventsEventColumns = func() []apiserver.PrinterColumn {
	cols := make([]apiserver.PrinterColumn, len(eventColumns))
	for i, c := range eventColumns {
		cell := c.Cell
		c.Cell = func(o meta.Object, now time.Time) any { return cell(eventToCore(o), now) }
		cols[i] = c
	}
	return cols
}()
