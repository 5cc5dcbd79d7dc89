package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
)

// clusterRoleResource is rbac.authorization.k8s.io/v1 clusterroles (kube
// prints them with the default "Created At" column).
func clusterRoleResource() apiserver.Resource {
	return apiserver.Resource{Group: rbacGroup, Version: "v1", Kind: "ClusterRole", Plural: "clusterroles",
		WithoutGeneration: true, GenericDelete: true, Strategy: roleStrategy{}}
}
