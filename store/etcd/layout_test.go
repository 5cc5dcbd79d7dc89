package etcd

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLayoutStoresKeysWhereKubeApiserverDoes(t *testing.T) {
	tests := []struct {
		key, etcdKey string
	}{
		{"/configmaps/ns/cm", "/registry/configmaps/ns/cm"},
		{"/namespaces/ns", "/registry/namespaces/ns"},
		{"/pods/ns/p", "/registry/pods/ns/p"},
		{"/services/ns/svc", "/registry/services/specs/ns/svc"},
		{"/endpoints/ns/svc", "/registry/services/endpoints/ns/svc"},
		{"/nodes/n1", "/registry/minions/n1"},
		{"/replicationcontrollers/ns/rc", "/registry/controllers/ns/rc"},
		{"/deployments.apps/ns/d", "/registry/deployments/ns/d"},
		{"/cronjobs.batch/ns/c", "/registry/cronjobs/ns/c"},
		{"/ingresses.networking.k8s.io/ns/i", "/registry/ingress/ns/i"},
		{"/clusterroles.rbac.authorization.k8s.io/admin", "/registry/clusterroles/admin"},
		{"/leases.coordination.k8s.io/ns/l", "/registry/leases/ns/l"},
		{"/customresourcedefinitions.apiextensions.k8s.io/widgets.example.com", "/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com"},
		{"/apiservices.apiregistration.k8s.io/v1.apps", "/registry/apiregistration.k8s.io/apiservices/v1.apps"},
		{"/widgets.example.com/ns/w", "/registry/example.com/widgets/ns/w"},
		{"/volumesnapshots.snapshot.storage.k8s.io/ns/s", "/registry/snapshot.storage.k8s.io/volumesnapshots/ns/s"},
		{"/events.events.k8s.io/ns/e", "/registry/events.k8s.io/events/ns/e"},
		{"/ranges/servicenodeports", "/registry/ranges/servicenodeports"},
		{"/a/x", "/registry/a/x"},
		{"/apps/deployments/ns1/k", "/registry/apps/deployments/ns1/k"},
	}
	l := newLayout("/registry")
	for _, tt := range tests {
		assert.Equal(t, tt.etcdKey, l.etcdKey(tt.key), "etcd key of %s", tt.key)
		back, ok := l.key(tt.etcdKey)
		assert.True(t, ok, tt.etcdKey)
		assert.Equal(t, tt.key, back, "kapi key of %s", tt.etcdKey)
	}
}

func TestLayoutMapsCollectionPrefixesToKubesPrefixes(t *testing.T) {
	l := newLayout("/registry/")
	assert.Equal(t, "/registry/", l.etcdKey(""))
	assert.Equal(t, "/registry/", l.etcdKey("/"))
	assert.Equal(t, "/registry/deployments/", l.etcdKey("/deployments.apps/"))
	assert.Equal(t, "/registry/deployments/ns/", l.etcdKey("/deployments.apps/ns/"))
	assert.Equal(t, "/registry/example.com/widgets/", l.etcdKey("/widgets.example.com/"))
	assert.Equal(t, "/other/configmaps/ns/x", newLayout("/other").etcdKey("/configmaps/ns/x"))
}

func TestLayoutLeavesOutKeysOutsideThePrefix(t *testing.T) {
	l := newLayout("/registry")
	for _, k := range []string{"compact_rev_key", "/registryx/a", "/other/configmaps/x", "/registry/example.com",
		"/registry/services/x"} {
		_, ok := l.key(k)
		assert.False(t, ok, k)
	}
}

// FuzzLayoutKey: any etcd key maps to at most one kapi key, and back.
func FuzzLayoutKey(f *testing.F) {
	for _, k := range []string{"/registry/configmaps/ns/x", "/registry/services/specs/ns/s", "/registry/deployments/ns/d",
		"/registry/example.com/widgets/ns/w", "/registry/services/x", "/registry/a.b", "/registry//x", "/registry/"} {
		f.Add(k)
	}
	l := newLayout("/registry")
	f.Fuzz(func(t *testing.T, etcdKey string) {
		k, ok := l.key(etcdKey)
		if ok {
			assert.Equal(t, etcdKey, l.etcdKey(k))
		}
	})
}
