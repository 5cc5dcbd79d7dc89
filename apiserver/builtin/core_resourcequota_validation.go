package builtin

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateResourceQuota: its hard resources (standard
// or qualified names, quantities not negative, whole counts), its scopes
// and scope selector.
func (resourceQuotaStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.resourceQuotaSpec(asMap(o["spec"]))
	return e.list
}

// ValidateUpdate is kube's ValidateResourceQuotaUpdate (the spec as on
// create, its scopes kept) and, on /status, ValidateResourceQuotaStatusUpdate.
func (resourceQuotaStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	if w.Subresource == "status" {
		e.quotaResourceList("status.hard", field(o, "status", "hard"))
		e.quotaResourceList("status.used", field(o, "status", "used"))
		return e.list
	}
	spec := asMap(o["spec"])
	e.resourceQuotaSpec(spec)
	scopes, oldScopes := map[string]bool{}, map[string]bool{}
	for _, s := range meta.AsList(spec["scopes"]) {
		scopes[fmt.Sprint(s)] = true
	}
	for _, s := range meta.AsList(field(old, "spec", "scopes")) {
		oldScopes[fmt.Sprint(s)] = true
	}
	if !equalJSON(toAny(scopes), toAny(oldScopes)) {
		e.invalid("spec.scopes", typedStrings("core.ResourceQuotaScope", spec["scopes"]), "field is immutable")
	}
	return e.list
}

func toAny(m map[string]bool) map[string]any {
	out := make(map[string]any, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

var quotaScopes = setOf("Terminating", "NotTerminating", "BestEffort", "NotBestEffort", "PriorityClass",
	"CrossNamespacePodAffinity", "VolumeAttributesClass")

// podComputeQuotaResources are what the pod scopes but BestEffort limit
// besides pods.
var podComputeQuotaResources = setOf("cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory")

// scopeLimits is kube's IsResourceQuotaScopeValidForResource.
func scopeLimits(scope, resource string) bool {
	switch scope {
	case "Terminating", "NotTerminating", "NotBestEffort", "PriorityClass", "CrossNamespacePodAffinity":
		return resource == "pods" || podComputeQuotaResources[resource]
	case "BestEffort":
		return resource == "pods"
	case "VolumeAttributesClass":
		return resource == "persistentvolumeclaims" || resource == "requests.storage"
	}
	return true
}

// conflictingScopes reports whether scopes hold both of a pair kube
// refuses together.
func conflictingScopes(scopes map[string]bool) int {
	n := 0
	for _, pair := range [][2]string{{"BestEffort", "NotBestEffort"}, {"Terminating", "NotTerminating"}} {
		if scopes[pair[0]] && scopes[pair[1]] {
			n++
		}
	}
	return n
}

func (e *fieldErrs) resourceQuotaSpec(spec map[string]any) {
	hard := asMap(spec["hard"])
	e.quotaResourceList("spec.hard", hard)
	hardNames := sortedMapKeys(hard)

	if scopes := meta.AsList(spec["scopes"]); len(scopes) > 0 {
		value := typedStrings("core.ResourceQuotaScope", spec["scopes"])
		set := map[string]bool{}
		for _, s := range scopes {
			scope, _ := s.(string)
			if !quotaScopes[scope] {
				e.invalid("spec.scopes", value, "unsupported scope")
			}
			for _, k := range hardNames {
				if standardQuotaResourceNames[k] || isQuotaHugePages(k) {
					if !scopeLimits(scope, k) {
						e.invalid("spec.scopes", value, "unsupported scope applied to resource")
					}
				}
			}
			set[scope] = true
		}
		for range conflictingScopes(set) {
			e.invalid("spec.scopes", value, "conflicting scopes")
		}
	}

	sel, ok := spec["scopeSelector"].(map[string]any)
	if !ok {
		return
	}
	const path = "spec.scopeSelector.matchExpressions"
	set := map[string]bool{}
	for _, r := range meta.AsList(sel["matchExpressions"]) {
		req := asMap(r)
		scope, _ := req["scopeName"].(string)
		op, _ := req["operator"].(string)
		if !quotaScopes[scope] {
			e.invalid(path+".scopeName", scope, "unsupported scope")
		}
		for _, k := range hardNames {
			if (standardQuotaResourceNames[k] || isQuotaHugePages(k)) && !scopeLimits(scope, k) {
				e.invalid(path, goScopeSelector(sel), "unsupported scope applied to resource")
			}
		}
		switch scope {
		case "BestEffort", "NotBestEffort", "Terminating", "NotTerminating", "CrossNamespacePodAffinity":
			if op != "Exists" {
				e.invalid(path+".operator", op, "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity")
			}
		}
		values := meta.AsList(req["values"])
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".values",
					Detail: "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"})
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				e.invalid(path+".values", typedStrings("string", req["values"]),
					"must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector")
			}
		default:
			e.invalid(path+".operator", op, "not a valid selector operator")
		}
		set[scope] = true
	}
	// kube shows the quota's scopes here, not the selector's
	for range conflictingScopes(set) {
		e.invalid(path, typedStrings("core.ResourceQuotaScope", spec["scopes"]), "conflicting scopes")
	}
}

// goScopeSelector renders a core.ScopeSelector as Go's %#v does.
func goScopeSelector(sel map[string]any) kubeValue {
	exprs, exprsJSON := "[]core.ScopedResourceSelectorRequirement(nil)", "null"
	if list := meta.AsList(sel["matchExpressions"]); list != nil {
		parts := make([]string, len(list))
		jsonParts := make([]string, len(list))
		for i, r := range list {
			req := asMap(r)
			scope, _ := req["scopeName"].(string)
			op, _ := req["operator"].(string)
			values := typedStrings("string", req["values"])
			parts[i] = fmt.Sprintf("core.ScopedResourceSelectorRequirement{ScopeName:%s, Operator:%s, Values:%s}",
				strconv.Quote(scope), strconv.Quote(op), values.goSyntax)
			jsonParts[i] = jsonStruct("ScopeName", scope, "Operator", op, "Values", values)
		}
		exprs = "[]core.ScopedResourceSelectorRequirement{" + strings.Join(parts, ", ") + "}"
		exprsJSON = "[" + strings.Join(jsonParts, ",") + "]"
	}
	return kubeValue{"core.ScopeSelector{MatchExpressions:" + exprs + "}", jsonStruct("MatchExpressions", json.RawMessage(exprsJSON))}
}
