package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// podDisruptionBudgetResource is policy/v1 poddisruptionbudgets.
func podDisruptionBudgetResource() apiserver.Resource {
	return apiserver.Resource{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget", Plural: "poddisruptionbudgets",
		Namespaced: true, ShortNames: []string{"pdb"}, StatusSubresource: true, PrinterColumns: podDisruptionBudgetColumns,
		GenericDelete: true, Strategy: podDisruptionBudgetStrategy{}}
}

// podDisruptionBudgetStrategy is what a PodDisruptionBudget does
// differently.
type podDisruptionBudgetStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate starts a budget with kube's zero status.
func (podDisruptionBudgetStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"currentHealthy": int64(0), "desiredHealthy": int64(0), "disruptionsAllowed": int64(0),
		"expectedPods": int64(0)}
}

// budgetValue prints a minAvailable or maxUnavailable, N/A when unset.
func budgetValue(v any) string {
	if v == nil {
		return "N/A"
	}
	return intOrString(v)
}

var podDisruptionBudgetColumns = []apiserver.PrinterColumn{
	column("Min Available", "string", "The minimum number of pods that must be available.", 0,
		func(o meta.Object, now time.Time) any { return budgetValue(field(o, "spec", "minAvailable")) }),
	column("Max Unavailable", "string", "The maximum number of pods that may be unavailable.", 0,
		func(o meta.Object, now time.Time) any { return budgetValue(field(o, "spec", "maxUnavailable")) }),
	column("Allowed Disruptions", "integer", "Calculated number of pods that may be disrupted at this time.", 0,
		func(o meta.Object, now time.Time) any { return integer(o, "status", "disruptionsAllowed") }),
	apiserver.AgeColumn(),
}
