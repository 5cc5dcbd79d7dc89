package builtin

import (
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
// legacy checks, a changed series valid, and the fields an event is
// identified by kept (those kube shows as strings).
func (eventsEventStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	core, oldCore := eventToCore(o), eventToCore(old)
	e.legacyEvent(core, "reportingController")
	if !equalJSON(core["series"], oldCore["series"]) {
		e.eventSeries(core)
	}
	for _, f := range [][2]string{{"reason", "reason"}, {"message", "message"}, {"type", "type"}, {"action", "action"},
		{"reportingComponent", "reportingController"}, {"reportingInstance", "reportingInstance"}} {
		v, _ := core[f[0]].(string)
		ov, _ := oldCore[f[0]].(string)
		if v != ov {
			e.invalid(f[1], v, "field is immutable")
		}
	}
	return e.list
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
