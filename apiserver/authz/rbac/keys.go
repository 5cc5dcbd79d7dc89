package rbac

// Group is the API group of the RBAC kinds.
const Group = "rbac.authorization.k8s.io"

// The RBAC resources, and the store key prefix under which the API server
// keeps each ("/" + resource + "." + group + "/", then the namespace for
// namespaced kinds, then the name).
const (
	ResourceRoles               = "roles"
	ResourceClusterRoles        = "clusterroles"
	ResourceRoleBindings        = "rolebindings"
	ResourceClusterRoleBindings = "clusterrolebindings"
)

// KeyPrefix is the store key prefix of an RBAC resource's objects.
func KeyPrefix(resource string) string { return "/" + resource + "." + Group + "/" }

// Key is the store key of one object; namespace is "" for cluster-scoped
// kinds.
func Key(resource, namespace, name string) string {
	if namespace == "" {
		return KeyPrefix(resource) + name
	}
	return KeyPrefix(resource) + namespace + "/" + name
}

const autoupdateAnnotation = "rbac.authorization.kubernetes.io/autoupdate"
