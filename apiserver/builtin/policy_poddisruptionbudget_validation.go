package builtin

import (
	"encoding/json"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidatePodDisruptionBudget.
func (podDisruptionBudgetStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validatePodDisruptionBudget(o)
}

// ValidateUpdate validates the spec again, or on /status kube's
// ValidatePodDisruptionBudgetStatusUpdate (policy/v1's checks).
func (podDisruptionBudgetStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if w.Subresource == "status" {
		e := fieldErrs{release: w.Release()}
		status := asMap(o["status"])
		e.conditions("status.conditions", status["conditions"])
		for _, f := range []string{"disruptionsAllowed", "currentHealthy", "desiredHealthy", "expectedPods"} {
			n, _ := meta.AsInt64(status[f])
			e.nonNegative("status."+f, n)
		}
		return e.list
	}
	return validatePodDisruptionBudget(o)
}

// validatePodDisruptionBudget is kube's ValidatePodDisruptionBudgetSpec:
// one of minAvailable and maxUnavailable, each a count or a percentage up
// to 100%, a valid selector, a known unhealthy pod eviction policy.
func validatePodDisruptionBudget(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	minAvailable, maxUnavailable := spec["minAvailable"], spec["maxUnavailable"]
	if minAvailable != nil && maxUnavailable != nil {
		_, hasSelector := spec["selector"].(map[string]any)
		_, hasPolicy := spec["unhealthyPodEvictionPolicy"].(string)
		selector := json.RawMessage("null")
		if hasSelector {
			selector = json.RawMessage(labelSelectorValue(spec["selector"]).json)
		}
		e.invalid("spec", kubeValue{"policy.PodDisruptionBudgetSpec{MinAvailable:" + goPointer("*intstr.IntOrString", true) +
			", Selector:" + goPointer("*v1.LabelSelector", hasSelector) + ", MaxUnavailable:" + goPointer("*intstr.IntOrString", true) +
			", UnhealthyPodEvictionPolicy:" + goPointer("*policy.UnhealthyPodEvictionPolicyType", hasPolicy) + "}",
			jsonStruct("MinAvailable", intOrStringValue(minAvailable), "Selector", selector,
				"MaxUnavailable", intOrStringValue(maxUnavailable), "UnhealthyPodEvictionPolicy", spec["unhealthyPodEvictionPolicy"])},
			"minAvailable and maxUnavailable cannot be both set")
	}
	if minAvailable != nil {
		e.positiveIntOrPercent("spec.minAvailable", minAvailable)
	}
	if maxUnavailable != nil {
		e.positiveIntOrPercent("spec.maxUnavailable", maxUnavailable)
	}
	if sel, ok := spec["selector"].(map[string]any); ok {
		e.labelSelector("spec.selector", sel)
	}
	if p, ok := spec["unhealthyPodEvictionPolicy"].(string); ok && p != "IfHealthyBudget" && p != "AlwaysAllow" {
		e.notSupported("spec.unhealthyPodEvictionPolicy", p, "AlwaysAllow", "IfHealthyBudget")
	}
	return e.list
}
