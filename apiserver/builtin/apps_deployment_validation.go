package builtin

import (
	"encoding/json"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateDeploymentSpec (pkg/apis/apps/validation).
func (deploymentStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	e.nonNegative("spec.replicas", spec["replicas"])
	e.workloadSelector("spec", spec, "deployment")
	e.replicaTemplate("spec.template", spec)
	if strategy, ok := spec["strategy"].(map[string]any); ok {
		e.deploymentStrategy("spec.strategy", strategy)
	}
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	e.nonNegative("spec.revisionHistoryLimit", spec["revisionHistoryLimit"])
	if p, ok := meta.AsInt64(spec["progressDeadlineSeconds"]); ok {
		e.nonNegative("spec.progressDeadlineSeconds", p)
		if m, _ := meta.AsInt64(spec["minReadySeconds"]); p <= m {
			e.invalid("spec.progressDeadlineSeconds", p, "must be greater than minReadySeconds")
		}
	}
	return e.list
}

// ValidateUpdate adds to Validate that the selector stays, as kube's
// apps/v1 Deployments keep it.
func (s deploymentStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.immutableSelector("spec.selector", field(o, "spec", "selector"), field(old, "spec", "selector"))
	return append(s.Validate(w, o), e.list...)
}

// deploymentStrategy is kube's ValidateDeploymentStrategy.
func (e *fieldErrs) deploymentStrategy(path string, s map[string]any) {
	typ, _ := s["type"].(string)
	ru, hasRU := s["rollingUpdate"].(map[string]any)
	switch typ {
	case "Recreate":
		if hasRU {
			e.forbidden(path+".rollingUpdate", "may not be specified when strategy `type` is 'Recreate'")
		}
	case "RollingUpdate":
		if hasRU {
			e.rollingUpdate(path+".rollingUpdate", ru)
		}
	default:
		ruText, ruJSON := "(*apps.RollingUpdateDeployment)(nil)", json.RawMessage("null")
		if hasRU {
			ruText = "&apps.RollingUpdateDeployment{...}"
			ruJSON = json.RawMessage(jsonStruct("MaxUnavailable", intOrStringValue(ru["maxUnavailable"]), "MaxSurge", intOrStringValue(ru["maxSurge"])))
		}
		e.notSupported(path, kubeValue{`apps.DeploymentStrategy{Type:"` + typ + `", RollingUpdate:` + ruText + `}`,
			jsonStruct("Type", typ, "RollingUpdate", ruJSON)}, "Recreate", "RollingUpdate")
	}
}

// rollingUpdate is kube's ValidateRollingUpdateDeployment.
func (e *fieldErrs) rollingUpdate(path string, ru map[string]any) {
	unavailable, surge := ru["maxUnavailable"], ru["maxSurge"]
	e.intOrPercent(path+".maxUnavailable", unavailable)
	e.intOrPercent(path+".maxSurge", surge)
	if isZeroIntOrPercent(unavailable) && isZeroIntOrPercent(surge) {
		e.invalid(path+".maxUnavailable", intOrStringValue(unavailable), "may not be 0 when `maxSurge` is 0")
	}
	if s, ok := unavailable.(string); ok && percentOver100(s) {
		e.invalid(path+".maxUnavailable", intOrStringValue(s), "must not be greater than 100%")
	}
}

func (e *fieldErrs) intOrPercent(path string, v any) {
	if n, ok := meta.AsInt64(v); ok {
		e.nonNegative(path, n)
		return
	}
	if s, ok := v.(string); ok {
		if !percentRE.MatchString(s) {
			e.invalid(path, intOrStringValue(s), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")
		}
	}
}

func isZeroIntOrPercent(v any) bool {
	if v == nil {
		return false
	}
	if n, ok := meta.AsInt64(v); ok {
		return n == 0
	}
	s, _ := v.(string)
	return s == "0%"
}
