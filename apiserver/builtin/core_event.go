package builtin

import (
	"fmt"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// eventResource is core/v1 events: the storage events.k8s.io/v1 Events
// share (eventsEventResource).
func eventResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Event", Plural: "events", Namespaced: true, ShortNames: []string{"ev"},
		PrinterColumns: eventColumns, WithoutGeneration: true, AllowCreateOnUpdate: true, GenericDelete: true, Strategy: eventStrategy{},
		SelectableFields: []string{"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
			"involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
			"involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"},
		FieldValues: eventFieldValues}
}

// eventFieldValues are kube's field labels of a core Event: source is the
// reporting component when the event names no source component.
func eventFieldValues(o meta.Object) map[string]string {
	f := map[string]string{"reason": str(o, "reason"), "reportingComponent": str(o, "reportingComponent"), "type": str(o, "type")}
	for _, k := range []string{"kind", "namespace", "name", "uid", "apiVersion", "resourceVersion", "fieldPath"} {
		f["involvedObject."+k] = str(o, "involvedObject", k)
	}
	f["source"] = str(o, "source", "component")
	if f["source"] == "" {
		f["source"] = f["reportingComponent"]
	}
	return f
}

// eventColumns are kube's Event printer's, for core v1 Events (and, once
// converted, events.k8s.io/v1 ones): Last Seen first, the name last.
var eventColumns = []apiserver.PrinterColumn{
	column("Last Seen", "string", propertyDoc("io.k8s.api.core.v1.Event", "lastTimestamp"), 0,
		func(o meta.Object, now time.Time) any { last, _, _ := eventTimes(o, now); return last }),
	column("Type", "string", propertyDoc("io.k8s.api.core.v1.Event", "type"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "type") }),
	column("Reason", "string", propertyDoc("io.k8s.api.core.v1.Event", "reason"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "reason") }),
	column("Object", "string", propertyDoc("io.k8s.api.core.v1.Event", "involvedObject"), 0, func(o meta.Object, _ time.Time) any {
		kind := strings.ToLower(str(o, "involvedObject", "kind"))
		if name := str(o, "involvedObject", "name"); name != "" {
			return kind + "/" + name
		}
		return kind
	}),
	column("Subobject", "string", propertyDoc("io.k8s.api.core.v1.ObjectReference", "fieldPath"), 1,
		func(o meta.Object, _ time.Time) any { return str(o, "involvedObject", "fieldPath") }),
	column("Source", "string", propertyDoc("io.k8s.api.core.v1.Event", "source"), 1, func(o meta.Object, _ time.Time) any {
		component, host := str(o, "source", "component"), str(o, "source", "host")
		if component == "" {
			component = str(o, "reportingComponent")
		}
		if host == "" {
			host = str(o, "reportingInstance")
		}
		if host == "" {
			return component
		}
		return component + ", " + host
	}),
	column("Message", "string", propertyDoc("io.k8s.api.core.v1.Event", "message"), 0,
		func(o meta.Object, _ time.Time) any { return strings.TrimSpace(str(o, "message")) }),
	column("First Seen", "string", propertyDoc("io.k8s.api.core.v1.Event", "firstTimestamp"), 1,
		func(o meta.Object, now time.Time) any { _, first, _ := eventTimes(o, now); return first }),
	column("Count", "string", propertyDoc("io.k8s.api.core.v1.Event", "count"), 1,
		func(o meta.Object, now time.Time) any { _, _, n := eventTimes(o, now); return n }),
	func() apiserver.PrinterColumn { c := apiserver.NameColumn(); c.Priority = 1; return c }(),
}

// eventTimes are an Event's last and first seen ages and its count, as
// kube prints them: the event time stands in for a missing first
// timestamp, a series gives the last time and count, a singleton counts 1.
func eventTimes(o meta.Object, now time.Time) (last, first string, count int64) {
	first = since(str(o, "firstTimestamp"), now)
	if str(o, "firstTimestamp") == "" {
		first = since(str(o, "eventTime"), now)
	}
	last = since(str(o, "lastTimestamp"), now)
	if str(o, "lastTimestamp") == "" {
		last = first
	}
	count = integer(o, "count")
	if series, ok := field(o, "series").(map[string]any); ok {
		last = since(fmt.Sprint(series["lastObservedTime"]), now)
		count, _ = meta.AsInt64(series["count"])
	} else if count == 0 {
		count = 1
	}
	return last, first, count
}
