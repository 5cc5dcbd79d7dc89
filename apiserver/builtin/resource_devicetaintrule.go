package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// deviceTaintRuleResource is resource.k8s.io/v1 devicetaintrules (GA and
// on by default in 1.37), printed by their taint.
func deviceTaintRuleResource() apiserver.Resource {
	const taint = "io.k8s.api.resource.v1.DeviceTaint"
	taintColumn := func(name, field string) apiserver.PrinterColumn {
		return column(name, "string", propertyDoc(taint, field), 0,
			func(o meta.Object, now time.Time) any { return str(o, "spec", "taint", field) })
	}
	return apiserver.Resource{Group: "resource.k8s.io", Version: "v1", Kind: "DeviceTaintRule", Plural: "devicetaintrules",
		StatusSubresource: true, GenericDelete: true, Strategy: deviceTaintRuleStrategy{},
		PrinterColumns: []apiserver.PrinterColumn{
			taintColumn("Key", "key"),
			taintColumn("Value", "value"),
			taintColumn("Effect", "effect"),
			column("TimeAdded", "string", propertyDoc(taint, "timeAdded"), 0, func(o meta.Object, now time.Time) any {
				added := str(o, "spec", "taint", "timeAdded")
				if added == "" {
					return ""
				}
				t, err := time.Parse(time.RFC3339, added)
				if err != nil {
					return "<unknown>"
				}
				return apiserver.HumanDuration(now.Sub(t))
			}),
			apiserver.AgeColumn(),
		}}
}

// deviceTaintRuleStrategy is what a DeviceTaintRule does differently: its
// taint carries the time it was added, or its effect last changed.
type deviceTaintRuleStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate stamps the taint's timeAdded, unless the client set it
// (SetDefaults_DeviceTaint).
func (deviceTaintRuleStrategy) PrepareForCreate(w *apiserver.Write, o meta.Object) {
	if taint, ok := field(o, "spec", "taint").(map[string]any); ok {
		stampTaint(w, taint)
	}
}

// PrepareForUpdate stamps a taint without timeAdded, as on create, and
// stamps it again when the effect changes but the client kept the old time
// (kube's DeviceTaintRule strategy).
func (s deviceTaintRuleStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	o = s.GenericStrategy.PrepareForUpdate(w, o, old)
	taint, ok := field(o, "spec", "taint").(map[string]any)
	if !ok {
		return o
	}
	if _, ok := taint["timeAdded"]; !ok {
		stampTaint(w, taint)
		return o
	}
	oldTaint := asMap(field(old, "spec", "taint"))
	if taint["effect"] != oldTaint["effect"] && taint["timeAdded"] == oldTaint["timeAdded"] {
		taint["timeAdded"] = w.Now.UTC().Truncate(time.Second).Format(time.RFC3339)
	}
	return o
}

// stampTaint sets a device taint's timeAdded to now when it has none.
func stampTaint(w *apiserver.Write, taint map[string]any) {
	setDefault(taint, "timeAdded", w.Now.UTC().Truncate(time.Second).Format(time.RFC3339))
}
