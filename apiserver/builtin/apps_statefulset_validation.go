package builtin

import (
	"encoding/json"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateStatefulSet.
func (statefulSetStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateStatefulSet(o)
}

// ValidateUpdate is kube's ValidateStatefulSetUpdate.
func (statefulSetStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateStatefulSetUpdateAt(w.Release(), o, old)
}

// validateStatefulSet is kube's ValidateStatefulSetSpec.
func validateStatefulSet(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	if p, ok := spec["podManagementPolicy"].(string); ok && p != "OrderedReady" && p != "Parallel" {
		e.invalid("spec.podManagementPolicy", p, "must be 'OrderedReady' or 'Parallel'")
	}
	if s, ok := spec["updateStrategy"].(map[string]any); ok {
		typ, _ := s["type"].(string)
		if typ != "RollingUpdate" && typ != "OnDelete" {
			ru, ruJSON := "(*apps.RollingUpdateStatefulSetStrategy)(nil)", json.RawMessage("null")
			if r, ok := s["rollingUpdate"].(map[string]any); ok {
				ru = "&apps.RollingUpdateStatefulSetStrategy{...}"
				partition, _ := meta.AsInt64(r["partition"])
				unavailable := json.RawMessage("null")
				if r["maxUnavailable"] != nil {
					unavailable = json.RawMessage(intOrStringValue(r["maxUnavailable"]).json)
				}
				ruJSON = json.RawMessage(jsonStruct("Partition", partition, "MaxUnavailable", unavailable))
			}
			e.invalid("spec.updateStrategy", kubeValue{`apps.StatefulSetUpdateStrategy{Type:"` + typ + `", RollingUpdate:` + ru + `}`,
				jsonStruct("Type", typ, "RollingUpdate", ruJSON)}, "must be 'RollingUpdate' or 'OnDelete'")
		}
	}
	e.nonNegative("spec.replicas", spec["replicas"])
	if n, ok := meta.AsInt64(field(spec, "ordinals", "start")); ok {
		e.nonNegative("spec.ordinals.start", n)
	}
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	e.workloadSelector("spec", spec, "statefulset")
	e.replicaTemplate("spec.template", spec)
	return e.list
}

// validateStatefulSetUpdate: a StatefulSet's spec is immutable but for
// replicas, ordinals, template, updateStrategy, revisionHistoryLimit, the
// claim retention policy and minReadySeconds (as kube 1.33 says it).
func validateStatefulSetUpdate(o, old meta.Object) meta.FieldErrors {
	return validateStatefulSetUpdateAt("", o, old)
}

// validateStatefulSetUpdateAt is validateStatefulSetUpdate at release r:
// kube 1.37 reports each of the fields that stay (selector, claim
// templates, service name, pod management policy) as immutable instead.
func validateStatefulSetUpdateAt(r apiserver.Release, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: r}
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	if r.AtLeast(37) {
		e.immutable("spec.selector", spec["selector"], oldSpec["selector"], labelSelectorValue(spec["selector"]))
		// kapi shows the claim templates as they were sent, not as
		// kube's internal types print.
		templates := spec["volumeClaimTemplates"]
		e.immutable("spec.volumeClaimTemplates", templates, oldSpec["volumeClaimTemplates"], kubeValue{fmt.Sprintf("%#v", templates), jsonText(templates)})
		e.immutable("spec.serviceName", spec["serviceName"], oldSpec["serviceName"], stringOr(spec["serviceName"], ""))
		e.immutable("spec.podManagementPolicy", spec["podManagementPolicy"], oldSpec["podManagementPolicy"], stringOr(spec["podManagementPolicy"], ""))
		return append(validateStatefulSet(o), e.list...)
	}
	masked := meta.DeepCopyValue(spec).(map[string]any)
	for _, k := range []string{"replicas", "ordinals", "template", "updateStrategy", "revisionHistoryLimit",
		"persistentVolumeClaimRetentionPolicy", "minReadySeconds"} {
		setOrDelete(masked, k, oldSpec[k])
	}
	if !equalJSON(masked, oldSpec) {
		e.forbidden("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "+
			"'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")
	}
	return append(validateStatefulSet(o), e.list...)
}
