package store_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/store"
)

// TestKubeStoragePathIsKubesEtcdLayout holds KubeStoragePath to where
// kube-apiserver 1.33 keeps each kind (its registries' storage prefixes,
// as store/etcd lays them out): the plural for the core and built-in
// groups, a path of its own for a few, "<group>/<plural>" for
// apiextensions', apiregistration's and custom resources.
func TestKubeStoragePathIsKubesEtcdLayout(t *testing.T) {
	cases := []struct{ group, plural, path string }{
		{"", "configmaps", "configmaps"},
		{"", "services", "services/specs"},
		{"", "endpoints", "services/endpoints"},
		{"", "nodes", "minions"},
		{"", "replicationcontrollers", "controllers"},
		{"apps", "deployments", "deployments"},
		{"networking.k8s.io", "ingresses", "ingress"},
		{"networking.k8s.io", "ingressclasses", "ingressclasses"},
		{"rbac.authorization.k8s.io", "clusterroles", "clusterroles"},
		{"events.k8s.io", "events", "events"},
		{"autoscaling", "horizontalpodautoscalers", "horizontalpodautoscalers"},
		{"flowcontrol.apiserver.k8s.io", "flowschemas", "flowschemas"},
		{"apiextensions.k8s.io", "customresourcedefinitions", "apiextensions.k8s.io/customresourcedefinitions"},
		{"apiregistration.k8s.io", "apiservices", "apiregistration.k8s.io/apiservices"},
		{"example.com", "widgets", "example.com/widgets"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s.%s", c.plural, c.group), func(t *testing.T) {
			assert.Equal(t, c.path, store.KubeStoragePath(c.group, c.plural))
		})
	}
}

// TestKubeStoredResourceIsKubeStoragePathTheOtherWay: every path
// KubeStoragePath gives leads back to its resource, with what follows it.
func TestKubeStoredResourceIsKubeStoragePathTheOtherWay(t *testing.T) {
	for _, gr := range []struct{ group, plural string }{
		{"", "configmaps"}, {"", "services"}, {"", "endpoints"}, {"", "nodes"}, {"apps", "deployments"},
		{"networking.k8s.io", "ingresses"}, {"networking.k8s.io", "ingressclasses"},
		{"certificates.k8s.io", "podcertificaterequests"}, {"apiextensions.k8s.io", "customresourcedefinitions"},
		{"example.com", "widgets"},
	} {
		got, rest, ok := store.KubeStoredResource(store.KubeStoragePath(gr.group, gr.plural) + "/ns/x")
		assert.True(t, ok, gr.plural)
		assert.Equal(t, gr.group, got.Group)
		assert.Equal(t, gr.plural, got.Resource)
		assert.Equal(t, "/ns/x", rest)
	}
	_, _, ok := store.KubeStoredResource("example.com")
	assert.False(t, ok, "a group without its plural")
}

func TestKubeKeyIsWhereKubeKeepsAnObject(t *testing.T) {
	cases := []struct {
		name                              string
		group, plural, namespace, objName string
		key                               string
	}{
		{"a namespaced core object is under its plural and namespace", "", "pods", "default", "web", "/registry/pods/default/web"},
		{"a cluster-scoped object has no namespace segment", "", "namespaces", "", "team-a", "/registry/namespaces/team-a"},
		{"a resource with a path of its own keeps it", "", "services", "default", "web", "/registry/services/specs/default/web"},
		{"a custom resource is under its group", "example.com", "widgets", "default", "w", "/registry/example.com/widgets/default/w"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.key, store.KubeKey(c.group, c.plural, c.namespace, c.objName))
		})
	}
}
