package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// roleBindingResource is rbac.authorization.k8s.io/v1 rolebindings.
func roleBindingResource() apiserver.Resource {
	return apiserver.Resource{Group: rbacGroup, Version: "v1", Kind: "RoleBinding", Plural: "rolebindings",
		Namespaced: true, WithoutGeneration: true, GenericDelete: true, Strategy: bindingStrategy{namespaced: true},
		PrinterColumns: bindingColumns("roleBinding", roleRefDescription("can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."))}
}

// roleRefDescription describes a binding's Role column as kube's printers
// do, by rbac/v1beta1's documentation of roleRef (a version kapi does not
// publish): "RoleRef " and then what the binding's kind can reference,
// its first word lower-cased since kube 1.37.
func roleRefDescription(canReference string) string {
	return sinceRelease(37, "RoleRef "+canReference, "roleRef "+canReference)
}

// bindingColumns are kube's columns of RoleBindings and
// ClusterRoleBindings: the role, the age, and with -o wide the subjects by
// kind (ServiceAccounts as namespace/name).
func bindingColumns(kind, roleDescription string) []apiserver.PrinterColumn {
	subjects := func(want string) func(meta.Object, time.Time) any {
		return func(o meta.Object, _ time.Time) any {
			var out []string
			for _, s := range meta.AsList(field(o, "subjects")) {
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
	for _, s := range meta.AsList(o["subjects"]) {
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
