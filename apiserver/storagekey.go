package apiserver

// kube-apiserver names an object's etcd key in some errors (a failed uid
// precondition's StorageError). Its keys are "/registry/<path>/[ns/]name",
// where the path is the plural alone for the resources of the core and of
// the built-in groups whatever their group (deployments under
// /registry/deployments), a path of its own for a few (services under
// /registry/services/specs, nodes under /registry/minions), and
// "<group>/<plural>" for apiextensions' and apiregistration's own kinds and
// every custom resource. store/etcd keeps its objects at the same keys (its
// layout is held to kubeStoragePath by a test there).

// kubeStoragePaths are the built-in resources kube keeps under a path
// other than their plural, by plural and group.
var kubeStoragePaths = map[[2]string]string{
	{"services", ""}:                   "services/specs",
	{"endpoints", ""}:                  "services/endpoints",
	{"nodes", ""}:                      "minions",
	{"replicationcontrollers", ""}:     "controllers",
	{"ingresses", "networking.k8s.io"}: "ingress",
}

// kubeFlatGroups are the groups whose resources kube keeps under their
// plural alone: the built-in groups but apiextensions.k8s.io and
// apiregistration.k8s.io (events.k8s.io's events are the core ones).
var kubeFlatGroups = map[string]bool{
	"": true, "apps": true, "batch": true, "autoscaling": true, "policy": true, "events.k8s.io": true,
	"networking.k8s.io": true, "rbac.authorization.k8s.io": true, "storage.k8s.io": true,
	"scheduling.k8s.io": true, "coordination.k8s.io": true, "discovery.k8s.io": true,
	"node.k8s.io": true, "certificates.k8s.io": true, "admissionregistration.k8s.io": true,
	"flowcontrol.apiserver.k8s.io": true, "resource.k8s.io": true,
	"storagemigration.k8s.io": true, "internal.apiserver.k8s.io": true,
}

// KubeStoragePath is where kube-apiserver keeps the objects of a resource
// under its etcd prefix: "deployments", "services/specs",
// "apiextensions.k8s.io/customresourcedefinitions", "example.com/widgets".
func KubeStoragePath(group, plural string) string {
	if p, ok := kubeStoragePaths[[2]string{plural, group}]; ok {
		return p
	}
	if kubeFlatGroups[group] {
		return plural
	}
	return group + "/" + plural
}

// kubeStorageKey is kube's etcd key of an object (with the default
// prefix, /registry).
func kubeStorageKey(group, plural, namespace, name string) string {
	key := "/registry/" + KubeStoragePath(group, plural) + "/"
	if namespace != "" {
		key += namespace + "/"
	}
	return key + name
}
