package etcd

import (
	"strings"

	"github.com/kapi-dev/kapi/store"
)

// DefaultPrefix is kube-apiserver's default -etcd-prefix.
const DefaultPrefix = "/registry"

// layout maps kapi's storage keys to kube-apiserver's etcd keys and back.
//
// kapi keys are "/<resource>[.<group>]/<namespace>/<name>" (the first
// segment is the group-qualified plural, apiserver.Resource.key); kube's
// are "<prefix>/<path>/<namespace>/<name>", where store.KubeStoragePath
// gives the path of a resource. Everything after the first segment is the
// same in both. A first segment kube does not know (as in tests) maps as a
// core resource of that name, unchanged.
//
// The mapping is a bijection on the keys kapi writes: a custom resource's
// group always contains a dot (kube requires it), a built-in's path never
// does, and kube keeps each built-in resource under a path of its own.
type layout struct {
	prefix string // the etcd prefix, without a trailing slash
}

func newLayout(prefix string) layout {
	return layout{prefix: strings.TrimSuffix(prefix, "/")}
}

// root is the etcd prefix every key of this layout lies under.
func (l layout) root() string { return l.prefix + "/" }

// etcdKey returns the etcd key of a kapi key (or of a key prefix made of
// whole segments).
func (l layout) etcdKey(key string) string {
	if !strings.HasPrefix(key, "/") {
		return l.prefix + "/" + key
	}
	first, rest := key[1:], ""
	if i := strings.IndexByte(first, '/'); i >= 0 {
		first, rest = first[:i], first[i:]
	}
	return l.prefix + "/" + pathOf(first) + rest
}

// pathOf is kube's path under the prefix for kapi's first key segment. A
// resource kube keeps with another's objects (events.k8s.io's events, the
// core ones) is kept apart, as a custom resource's, when it is written
// under its own key.
func pathOf(first string) string {
	resource, group, dotted := strings.Cut(first, ".")
	if !dotted {
		return store.KubeStoragePath("", first)
	}
	p := store.KubeStoragePath(group, resource)
	if gr, _, _ := store.KubeStoredResource(p); gr.String() == first {
		return p
	}
	return group + "/" + resource
}

// key returns the kapi key of an etcd key, or false when the key is not
// one kapi would write there: outside the prefix, or a key whose kapi key
// maps to another etcd key (such as "<prefix>/services/x", which is
// neither a service nor an endpoint), so that no two etcd keys ever map to
// one kapi key.
func (l layout) key(etcdKey string) (string, bool) {
	k, ok := l.mapKey(etcdKey)
	if !ok || l.etcdKey(k) != etcdKey {
		return "", false
	}
	return k, true
}

func (l layout) mapKey(etcdKey string) (string, bool) {
	rest, ok := strings.CutPrefix(etcdKey, l.prefix+"/")
	if !ok {
		return "", false
	}
	gr, after, ok := store.KubeStoredResource(rest)
	return "/" + gr.String() + after, ok
}
