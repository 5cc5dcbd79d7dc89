package apiserver

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
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
			assert.Equal(t, c.path, KubeStoragePath(c.group, c.plural))
		})
	}
}

// TestAConflictNamesKubesStorageKey holds the uid precondition's conflict
// to kube's message, which names the object's etcd key.
func TestAConflictNamesKubesStorageKey(t *testing.T) {
	ts := newTestServer(t)
	const wrong = "00000000-0000-0000-0000-000000000000"
	r := ts.do("POST", "/apis/example.com/v1/widgets", `{"metadata":{"name":"w"}}`)
	assert.Equal(t, 201, r.code, string(r.raw))
	r = ts.do("PUT", "/apis/example.com/v1/widgets/w", `{"metadata":{"name":"w","uid":"`+wrong+`"}}`)
	assert.Equal(t, 409, r.code, string(r.raw))
	uid := ts.do("GET", "/apis/example.com/v1/widgets/w", "").body["metadata"].(map[string]any)["uid"]
	assert.Equal(t, `Operation cannot be fulfilled on widgets.example.com "w": StorageError: invalid object, Code: 4, `+
		`Key: /registry/example.com/widgets/w, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: `+
		wrong+`, UID in object meta: `+fmt.Sprint(uid), r.body["message"])
}
