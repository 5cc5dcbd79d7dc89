package builtin

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// The rbac.authorization.k8s.io/v1 kinds (rbac_role.go, rbac_clusterrole.go,
// rbac_rolebinding.go, rbac_clusterrolebinding.go) share their strategies
// and columns here. Their objects are what the RBAC authorizer
// (apiserver/authz/rbac) reads; its escalation check is an admission plugin
// (rbac.Escalation.Admission).

// bindingColumns are kube's columns of RoleBindings and
// ClusterRoleBindings: the role, the age, and with -o wide the subjects by
// kind (ServiceAccounts as namespace/name).
func bindingColumns(kind, roleDescription string) []apiserver.PrinterColumn {
	subjects := func(want string) func(meta.Object, time.Time) any {
		return func(o meta.Object, _ time.Time) any {
			var out []string
			for _, s := range asList(field(o, "subjects")) {
				m, _ := s.(map[string]any)
				if k, _ := m["kind"].(string); k != want {
					continue
				}
				name, _ := m["name"].(string)
				if want == "ServiceAccount" {
					ns, _ := m["namespace"].(string)
					name = ns + "/" + name
				}
				out = append(out, name)
			}
			return strings.Join(out, ", ")
		}
	}
	return []apiserver.PrinterColumn{
		column("Role", "string", roleDescription, 0, func(o meta.Object, _ time.Time) any {
			return str(o, "roleRef", "kind") + "/" + str(o, "roleRef", "name")
		}),
		apiserver.AgeColumn(),
		column("Users", "string", "Users in the "+kind, 1, subjects("User")),
		column("Groups", "string", "Groups in the "+kind, 1, subjects("Group")),
		column("ServiceAccounts", "string", "ServiceAccounts in the "+kind, 1, subjects("ServiceAccount")),
	}
}

// roleStrategy validates Roles and ClusterRoles as kube does: every rule
// has verbs; a resource rule has API groups and resources; a non-resource
// rule has nothing else, and only in a ClusterRole.
type roleStrategy struct {
	apiserver.GenericStrategy
	namespaced bool
}

func (s roleStrategy) Validate(_ *apiserver.Write, obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	for i, r := range asList(obj["rules"]) {
		rule, _ := r.(map[string]any)
		path := fmt.Sprintf("rules[%d]", i)
		strs := func(k string) []string {
			var out []string
			for _, v := range asList(rule[k]) {
				if s, ok := v.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
		if _, present := rule["verbs"]; present && len(strs("verbs")) == 0 { // absent: the schema's "Required value"
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".verbs", Detail: "verbs must contain at least one value"})
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
	return errs
}

// aggregationRuleErrors is kube's check of a ClusterRole's aggregation
// rule: at least one selector, each a valid label selector (and, when it
// is not, one more error: kube could not make a selector of it).
func aggregationRuleErrors(rule map[string]any) meta.FieldErrors {
	var e fieldErrs
	selectors := asList(rule["clusterRoleSelectors"])
	if len(selectors) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "aggregationRule.clusterRoleSelectors",
			Detail: "at least one clusterRoleSelector required if aggregationRule is non-nil"})
	}
	for i, sel := range selectors {
		path := fmt.Sprintf("aggregationRule.clusterRoleSelectors[%d]", i)
		before := len(e.list)
		e.labelSelector(path, sel)
		if len(e.list) > before {
			e.invalid(path, goValue(`"null"`), "invalid label selector.")
		}
	}
	return e.list
}

func (s roleStrategy) ValidateUpdate(w *apiserver.Write, obj, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, obj)
}

// bindingStrategy defaults and validates RoleBindings and
// ClusterRoleBindings as kube does: a roleRef to a Role (RoleBindings only)
// or a ClusterRole of the RBAC group, which never changes; subjects that
// are users, groups or ServiceAccounts.
type bindingStrategy struct {
	apiserver.GenericStrategy
	namespaced bool
}

// Default mirrors SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding
// and SetDefaults_Subject: the role and the users and groups bound are
// RBAC's, service accounts core's.
func (bindingStrategy) Default(o meta.Object) {
	ref := obj(o, "roleRef")
	if g, _ := ref["apiGroup"].(string); g == "" {
		ref["apiGroup"] = rbacGroup
	}
	for _, s := range asList(o["subjects"]) {
		subject, _ := s.(map[string]any)
		if subject == nil {
			continue
		}
		if g, _ := subject["apiGroup"].(string); g != "" {
			continue
		}
		switch subject["kind"] {
		case "ServiceAccount":
			subject["apiGroup"] = ""
		case "User", "Group":
			subject["apiGroup"] = rbacGroup
		}
	}
}

const rbacGroup = "rbac.authorization.k8s.io"

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
	for i, sub := range asList(obj["subjects"]) {
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
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "roleRef",
			Value:  goValue(fmt.Sprintf("rbac.RoleRef{APIGroup:%q, Kind:%q, Name:%q}", n[0], n[1], n[2])),
			Detail: "cannot change roleRef"})
	}
	return errs
}

// goValue prints as kube prints a Go value in a field error.
type goValue string

func (v goValue) String() string { return string(v) }

// goStrings is a []string as Go's %#v prints it.
func goStrings(s []string) goValue { return goValue(fmt.Sprintf("%#v", s)) }

func supported(values ...string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "supported values: " + strings.Join(q, ", ")
}
