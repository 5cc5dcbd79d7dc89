package flowcontrol

import (
	"net/http"
	"sync"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/selectors"
)

// watchTracker counts the open watches by what they watch (group,
// resource, namespace, name), so that a write's cost can include the
// watchers it will notify, as kube's work estimator does. Watches of pods
// selecting one spec.nodeName are left out, as kube's watch cache indexes
// them by node.
type watchTracker struct {
	mu     sync.Mutex
	counts map[watchKey]int
}

type watchKey struct {
	group, resource, namespace, name string
}

func (t *watchTracker) init() { t.counts = map[watchKey]int{} }

// register counts a watch until the returned func is called.
func (t *watchTracker) register(r *http.Request, info *requestinfo.Info) func() {
	if info.Resource == "pods" {
		if fs := r.URL.Query().Get("fieldSelector"); fs != "" {
			if sel, err := selectors.ParseFieldSelector(fs); err == nil {
				if v, ok := sel.RequiresExactMatch("spec.nodeName"); ok && v != "" {
					return func() {}
				}
			}
		}
	}
	k := watchKey{info.Group, info.Resource, info.Namespace, info.Name}
	t.mu.Lock()
	t.counts[k]++
	t.mu.Unlock()
	return func() {
		t.mu.Lock()
		if t.counts[k]--; t.counts[k] <= 0 {
			delete(t.counts, k)
		}
		t.mu.Unlock()
	}
}

// interested counts the watches a write of info may notify: those of the
// whole resource, of its namespace and of the object itself.
func (t *watchTracker) interested(info *requestinfo.Info) int {
	k := watchKey{group: info.Group, resource: info.Resource}
	t.mu.Lock()
	defer t.mu.Unlock()
	n := t.counts[k]
	if info.Namespace != "" {
		k.namespace = info.Namespace
		n += t.counts[k]
	}
	if info.Name != "" {
		k.name = info.Name
		n += t.counts[k]
	}
	return n
}
