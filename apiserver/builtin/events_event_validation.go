package builtin

import (
	"fmt"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// eventsEventStrategy is what an events.k8s.io/v1 Event does differently:
// kube's stricter validation of events created through the newer API.
// kube validates the core Event the object converts to, and names the
// fields by their core names.
type eventsEventStrategy struct{ apiserver.GenericStrategy }

// Validate is kube's ValidateEventCreate for events.k8s.io/v1: the legacy
// checks, the series, eventTime, a Normal or Warning type, none of the
// deprecated fields.
func (eventsEventStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	core := eventToCore(o)
	e.legacyEvent(core, "reportingController")
	e.eventSeries(core)
	if t, _ := core["eventTime"].(string); t == "" {
		e.required("eventTime")
	}
	if typ, _ := core["type"].(string); typ != "Normal" && typ != "Warning" {
		e.invalid("type", "", "has invalid value: "+typ)
	}
	for _, f := range []string{"firstTimestamp", "lastTimestamp"} {
		if t, _ := core[f].(string); t != "" {
			e.invalid(f, "", "needs to be unset")
		}
	}
	if n, _ := meta.AsInt64(core["count"]); n != 0 {
		e.invalid("count", "", "needs to be unset")
	}
	if src := asMap(core["source"]); src["component"] != nil && src["component"] != "" || src["host"] != nil && src["host"] != "" {
		e.invalid("source", "", "needs to be unset")
	}
	return e.list
}

// ValidateUpdate is kube's ValidateEventUpdate for events.k8s.io/v1: the
// legacy checks, a changed series valid, and every field an event is
// identified by kept, in kube's order (reason twice, as kube checks it),
// under their core names but reportingController's.
func (eventsEventStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	core, oldCore := eventToCore(o), eventToCore(old)
	e.legacyEvent(core, "reportingController")
	if !equalJSON(core["series"], oldCore["series"]) {
		e.eventSeries(core)
	}
	keep := func(f, path string, shown func(any) any) {
		if !equalJSON(core[f], oldCore[f]) {
			e.invalid(path, shown(core[f]), "field is immutable")
		}
	}
	text := func(v any) any { s, _ := v.(string); return s }
	keep("involvedObject", "involvedObject", func(v any) any { return goObjectReference(v) })
	keep("reason", "reason", text)
	keep("message", "message", text)
	keep("source", "source", func(v any) any {
		src := asMap(v)
		c, _ := src["component"].(string)
		h, _ := src["host"].(string)
		return kubeValue{fmt.Sprintf("core.EventSource{Component:%q, Host:%q}", c, h), jsonStruct("Component", c, "Host", h)}
	})
	keep("firstTimestamp", "firstTimestamp", goTime)
	keep("lastTimestamp", "lastTimestamp", goTime)
	keep("count", "count", func(v any) any { n, _ := meta.AsInt64(v); return n })
	keep("reason", "reason", text)
	keep("type", "type", text)
	keep("eventTime", "eventTime", goMicroTime)
	keep("action", "action", text)
	keep("related", "related", func(v any) any {
		if v == nil {
			return nil
		}
		return goObjectReference(v)
	})
	keep("reportingComponent", "reportingController", text)
	keep("reportingInstance", "reportingInstance", text)
	return e.list
}

// goObjectReference renders an object reference as Go's %#v of kube's
// internal type.
func goObjectReference(v any) kubeValue {
	ref := asMap(v)
	s := func(k string) string { x, _ := ref[k].(string); return x }
	return kubeValue{fmt.Sprintf("core.ObjectReference{Kind:%q, Namespace:%q, Name:%q, UID:%q, APIVersion:%q, ResourceVersion:%q, FieldPath:%q}",
		s("kind"), s("namespace"), s("name"), s("uid"), s("apiVersion"), s("resourceVersion"), s("fieldPath")),
		jsonStruct("Kind", s("kind"), "Namespace", s("namespace"), "Name", s("name"), "UID", s("uid"),
			"APIVersion", s("apiVersion"), "ResourceVersion", s("resourceVersion"), "FieldPath", s("fieldPath"))}
}

// goTime is a metav1.Time: Go prints it as time.Time does (the zero time
// when unset), JSON as RFC 3339 in UTC (null when unset).
func goTime(v any) any { return timeValue(v, time.RFC3339) }

// goMicroTime is a metav1.MicroTime: its JSON has microseconds.
func goMicroTime(v any) any { return timeValue(v, "2006-01-02T15:04:05.000000Z07:00") }

func timeValue(v any, layout string) kubeValue {
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return kubeValue{time.Time{}.String(), "null"}
	}
	return kubeValue{t.UTC().String(), jsonText(t.UTC().Format(layout))}
}

// eventSeries is kube's validateV1EventSeries.
func (e *fieldErrs) eventSeries(core meta.Object) {
	series, ok := core["series"].(map[string]any)
	if !ok {
		return
	}
	if n, _ := meta.AsInt64(series["count"]); n < 2 {
		e.invalid("series.count", "", "should be at least 2")
	}
	if t, _ := series["lastObservedTime"].(string); t == "" {
		e.required("series.lastObservedTime")
	}
}
