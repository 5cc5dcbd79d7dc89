package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// The validation of Roles and ClusterRoles (roleStrategy serves both). RBAC
// objects are named by path segments, as kube's ValidateRBACName:
// "clusterRole-10", "Role:A_1" and "system:controller:x" are names, "a/b"
// is not (docs/kube-behaviour/10-validation.md).

func (s roleStrategy) Validate(w *apiserver.Write, obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	// kube 1.37 requires verbs by a declarative rule, reported after the
	// others.
	declarative := w.Release().AtLeast(37)
	var declared meta.FieldErrors
	for i, r := range meta.AsList(obj["rules"]) {
		rule, _ := r.(map[string]any)
		path := fmt.Sprintf("rules[%d]", i)
		strs := func(k string) []string {
			var out []string
			for _, v := range meta.AsList(rule[k]) {
				if s, ok := v.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
		if _, present := rule["verbs"]; present && len(strs("verbs")) == 0 { // absent: the schema's "Required value"
			if declarative {
				declared = append(declared, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".verbs"})
			} else {
				errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".verbs", Detail: "verbs must contain at least one value"})
			}
		}
		if urls := strs("nonResourceURLs"); len(urls) > 0 {
			if s.namespaced {
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path + ".nonResourceURLs", Value: goStrings(urls),
					Detail: "namespaced rules cannot apply to non-resource URLs"})
			}
			if len(strs("apiGroups")) > 0 || len(strs("resources")) > 0 || len(strs("resourceNames")) > 0 {
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: path + ".nonResourceURLs", Value: goStrings(urls),
					Detail: "rules cannot apply to both regular resources and non-resource URLs"})
			}
			continue
		}
		if len(strs("apiGroups")) == 0 {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".apiGroups", Detail: "resource rules must supply at least one api group"})
		}
		if len(strs("resources")) == 0 {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".resources", Detail: "resource rules must supply at least one resource"})
		}
	}
	if rule, ok := obj["aggregationRule"].(map[string]any); ok && !s.namespaced {
		errs = append(errs, aggregationRuleErrors(rule)...)
	}
	return append(errs, declared...)
}

// aggregationRuleErrors is kube's check of a ClusterRole's aggregation
// rule: at least one selector, each a valid label selector (and, when it
// is not, one more error: kube could not make a selector of it).
func aggregationRuleErrors(rule map[string]any) meta.FieldErrors {
	var e fieldErrs
	selectors := meta.AsList(rule["clusterRoleSelectors"])
	if len(selectors) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "aggregationRule.clusterRoleSelectors",
			Detail: "at least one clusterRoleSelector required if aggregationRule is non-nil"})
	}
	for i, sel := range selectors {
		path := fmt.Sprintf("aggregationRule.clusterRoleSelectors[%d]", i)
		before := len(e.list)
		e.labelSelector(path, sel)
		if len(e.list) > before {
			e.invalid(path, kubeValue{`"null"`, "null"}, "invalid label selector.")
		}
	}
	return e.list
}

// ValidateUpdate reports each error twice, as kube does: its update
// validation runs the create validation and then the update one, which
// starts with the create validation again (the message names each once).
func (s roleStrategy) ValidateUpdate(w *apiserver.Write, obj, _ meta.Object) meta.FieldErrors {
	errs := s.Validate(w, obj)
	return append(errs, errs...)
}

// NameErrors is kube's IsValidPathSegmentName.
func (roleStrategy) NameErrors(name string) []string { return schema.PathSegmentName(name, false) }
