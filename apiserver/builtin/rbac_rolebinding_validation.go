package builtin

import (
	"fmt"
	"slices"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// The validation of RoleBindings and ClusterRoleBindings (bindingStrategy
// serves both): their roleRef and subjects, and their names.

func (s bindingStrategy) Validate(_ *apiserver.Write, obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	kinds := []string{"ClusterRole"}
	if s.namespaced {
		kinds = []string{"Role", "ClusterRole"}
	}
	if g := str(obj, "roleRef", "apiGroup"); g != rbacGroup && g != "" { // absent: the schema's "Required value"
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "roleRef.apiGroup", Value: g, Detail: supported(rbacGroup)})
	}
	if k := str(obj, "roleRef", "kind"); !slices.Contains(kinds, k) && k != "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: "roleRef.kind", Value: k, Detail: supported(kinds...)})
	}
	for i, sub := range meta.AsList(obj["subjects"]) {
		m, _ := sub.(map[string]any)
		kind, _ := m["kind"].(string)
		if !slices.Contains([]string{"ServiceAccount", "User", "Group"}, kind) && kind != "" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorNotSupported, Field: fmt.Sprintf("subjects[%d].kind", i), Value: kind,
				Detail: supported("ServiceAccount", "User", "Group")})
		}
	}
	return errs
}

func (s bindingStrategy) ValidateUpdate(w *apiserver.Write, obj, old meta.Object) meta.FieldErrors {
	errs := s.Validate(w, obj)
	ref := func(o meta.Object) [3]string {
		return [3]string{str(o, "roleRef", "apiGroup"), str(o, "roleRef", "kind"), str(o, "roleRef", "name")}
	}
	if n := ref(obj); n != ref(old) {
		detail := "cannot change roleRef"
		if w.Release().AtLeast(37) { // kube 1.37's ValidateImmutableField
			detail = "field is immutable"
		}
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "roleRef",
			Value: kubeValue{fmt.Sprintf("rbac.RoleRef{APIGroup:%q, Kind:%q, Name:%q}", n[0], n[1], n[2]),
				jsonStruct("APIGroup", n[0], "Kind", n[1], "Name", n[2])},
			Detail: detail})
	}
	return errs
}

// NameErrors is kube's IsValidPathSegmentName.
func (bindingStrategy) NameErrors(name string) []string { return schema.PathSegmentName(name, false) }
