package builtin

import (
	"encoding/json"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateDaemonSet.
func (daemonSetStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateDaemonSet(o)
}

// ValidateUpdate is kube's ValidateDaemonSetUpdate.
func (daemonSetStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateDaemonSetUpdate(o, old)
}

// validateDaemonSet is kube's ValidateDaemonSetSpec.
func validateDaemonSet(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	e.workloadSelector("spec", spec, "daemonset")
	e.replicaTemplate("spec.template", spec)
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	if s, ok := spec["updateStrategy"].(map[string]any); ok {
		typ, _ := s["type"].(string)
		if typ != "RollingUpdate" && typ != "OnDelete" {
			ru, ruJSON := "(*apps.RollingUpdateDaemonSet)(nil)", json.RawMessage("null")
			if r, ok := s["rollingUpdate"].(map[string]any); ok {
				ru = "&apps.RollingUpdateDaemonSet{...}"
				ruJSON = json.RawMessage(jsonStruct("MaxUnavailable", intOrStringValue(r["maxUnavailable"]), "MaxSurge", intOrStringValue(r["maxSurge"])))
			}
			e.notSupported("spec.updateStrategy", kubeValue{`apps.DaemonSetUpdateStrategy{Type:"` + typ + `", RollingUpdate:` + ru + `}`,
				jsonStruct("Type", typ, "RollingUpdate", ruJSON)}, "RollingUpdate", "OnDelete")
		}
	}
	e.nonNegative("spec.revisionHistoryLimit", spec["revisionHistoryLimit"])
	return e.list
}

// validateDaemonSetUpdate keeps the selector.
func validateDaemonSetUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.immutableSelector("spec.selector", field(o, "spec", "selector"), field(old, "spec", "selector"))
	return append(e.list, validateDaemonSet(o)...)
}
