// Package builtin registers common Kubernetes built-in resource types for an
// apiserver.Server, with the names, scopes, short names, categories and
// subresources kube-apiserver 1.33 serves them with.
//
//	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
package builtin

import "github.com/kapi-dev/kapi/apiserver"

// Resources returns the registrations of the built-in kinds kapi's example
// server serves: core/v1 namespaces, configmaps, secrets, serviceaccounts,
// services, pods, events, apps/v1 deployments and coordination.k8s.io/v1
// leases, each with the schema kube-apiserver 1.33 publishes for it (pass
// OpenAPIComponents() as Config.OpenAPIComponents for the OpenAPI
// documents). Each call returns fresh values the caller may change.
func Resources() []apiserver.Resource {
	rs := []apiserver.Resource{
		namespaceResource(),
		configMapResource(),
		secretResource(),
		serviceAccountResource(),
		serviceResource(),
		podResource(),
		eventResource(),
		deploymentResource(),
		leaseResource(),
	}
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		rs[i].Schema = Schema(gvk)
		rs[i].OpenAPIComponent = ComponentName(gvk)
	}
	return rs
}
