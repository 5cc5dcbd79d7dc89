package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
)

// The rbac.authorization.k8s.io/v1 kinds: Role and ClusterRole share
// roleStrategy (here), RoleBinding and ClusterRoleBinding bindingStrategy
// (rbac_rolebinding.go). Their objects are what the RBAC authorizer
// (apiserver/authz/rbac) reads; its escalation check is an admission plugin
// (rbac.Escalation.Admission).

// roleResource is rbac.authorization.k8s.io/v1 roles (kube prints them
// with the default "Created At" column).
func roleResource() apiserver.Resource {
	return apiserver.Resource{Group: rbacGroup, Version: "v1", Kind: "Role", Plural: "roles",
		Namespaced: true, WithoutGeneration: true, GenericDelete: true, Strategy: roleStrategy{namespaced: true}}
}

// roleStrategy validates Roles and ClusterRoles as kube does: every rule
// has verbs; a resource rule has API groups and resources; a non-resource
// rule has nothing else, and only in a ClusterRole.
type roleStrategy struct {
	apiserver.GenericStrategy
	namespaced bool
}
