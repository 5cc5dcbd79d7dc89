package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
)

// roleBindingResource is rbac.authorization.k8s.io/v1 rolebindings.
func roleBindingResource() apiserver.Resource {
	return apiserver.Resource{Group: rbacGroup, Version: "v1", Kind: "RoleBinding", Plural: "rolebindings",
		Namespaced: true, WithoutGeneration: true, Strategy: bindingStrategy{namespaced: true},
		PrinterColumns: bindingColumns("roleBinding", "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.")}
}
