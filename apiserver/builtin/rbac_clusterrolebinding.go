package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
)

// clusterRoleBindingResource is rbac.authorization.k8s.io/v1
// clusterrolebindings.
func clusterRoleBindingResource() apiserver.Resource {
	return apiserver.Resource{Group: rbacGroup, Version: "v1", Kind: "ClusterRoleBinding",
		Plural: "clusterrolebindings", WithoutGeneration: true, GenericDelete: true, Strategy: bindingStrategy{},
		PrinterColumns: bindingColumns("clusterRoleBinding", roleRefDescription("can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."))}
}
