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
		StatusSubresource: true,
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
