package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
)

// roleResource is rbac.authorization.k8s.io/v1 roles (kube prints them
// with the default "Created At" column).
func roleResource() apiserver.Resource {
	return apiserver.Resource{Group: rbacGroup, Version: "v1", Kind: "Role", Plural: "roles",
		Namespaced: true, WithoutGeneration: true, Strategy: roleStrategy{namespaced: true}}
}
