package rbac

import (
	"context"
	"errors"
	"math"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/store"
)

// cache holds the Roles, ClusterRoles, RoleBindings and ClusterRoleBindings
// of a store as immutable snapshots, each indexed for the questions
// authorization asks. It follows the store through four watchers (no
// goroutine, no polling): a reader that finds the store's revision ahead of
// the snapshot drains the watchers of what is already there and publishes
// a new snapshot before deciding, so a request always sees every RBAC
// write that finished before it started (read-your-writes, unlike kube's
// informers). A watcher overtaken by the store's history relists.
type cache struct {
	st   store.Store
	snap atomic.Pointer[snapshot]

	mu       sync.Mutex // serialises syncs; guards what follows
	closed   bool
	watchers [4]store.Watcher
	src      source
}

// The four RBAC resources, in the order of cache.watchers.
var resources = [4]string{ResourceRoles, ResourceClusterRoles, ResourceRoleBindings, ResourceClusterRoleBindings}

// source is the mutable state syncs apply events to.
type source struct {
	roles        map[string]map[string]*role // namespace → name
	clusterRoles map[string]*role
	rbs          map[string]map[string]*binding
	crbs         map[string]*binding
}

// snapshot is one immutable state; maps and indexes are never changed once
// published, and unchanged parts are shared with the previous snapshot.
type snapshot struct {
	rev          int64
	roles        map[string]map[string]*role
	clusterRoles map[string]*role
	rbs          map[string]*bindingIndex
	crbs         *bindingIndex
	// decisions made on this state, shared with the next snapshot while
	// the RBAC objects stay the same (writes of other kinds move the
	// store's revision, and so the snapshot's, without changing them).
	decisions *decisions
}

// bindingIndex files bindings under each subject they name, so a request
// looks at the bindings of its user, its groups and its ServiceAccount
// only, whatever the number of bindings.
type bindingIndex struct {
	all     []*binding // by name
	byUser  map[string][]*binding
	byGroup map[string][]*binding
	bySA    map[saKey][]*binding
}

type saKey struct{ namespace, name string }

func newBindingIndex(bs map[string]*binding) *bindingIndex {
	ix := &bindingIndex{byUser: map[string][]*binding{}, byGroup: map[string][]*binding{}, bySA: map[saKey][]*binding{}}
	for _, b := range bs {
		ix.all = append(ix.all, b)
	}
	slices.SortFunc(ix.all, func(a, b *binding) int { return compareStrings(a.name, b.name) })
	for _, b := range ix.all {
		for _, s := range b.subjects {
			switch s.Kind {
			case "User":
				ix.byUser[s.Name] = appendOnce(ix.byUser[s.Name], b)
			case "Group":
				ix.byGroup[s.Name] = appendOnce(ix.byGroup[s.Name], b)
			case "ServiceAccount":
				ns := s.Namespace
				if ns == "" {
					ns = b.namespace
				}
				if ns != "" {
					k := saKey{ns, s.Name}
					ix.bySA[k] = appendOnce(ix.bySA[k], b)
				}
			}
		}
	}
	return ix
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func appendOnce(l []*binding, b *binding) []*binding {
	if len(l) > 0 && l[len(l)-1] == b {
		return l
	}
	return append(l, b)
}

// visit calls fn with each binding of ix that may apply to u (a binding
// may come more than once when several of its subjects do), until fn
// returns false; it reports whether fn never did.
func (ix *bindingIndex) visit(u *authn.User, fn func(*binding) bool) bool {
	if ix == nil {
		return true
	}
	for _, b := range ix.byUser[u.Name] {
		if !fn(b) {
			return false
		}
	}
	for _, g := range u.Groups {
		for _, b := range ix.byGroup[g] {
			if !fn(b) {
				return false
			}
		}
	}
	if ns, name, ok := authn.SplitServiceAccountUsername(u.Name); ok {
		for _, b := range ix.bySA[saKey{ns, name}] {
			if !fn(b) {
				return false
			}
		}
	}
	return true
}

func newCache(st store.Store) (*cache, error) {
	c := &cache{st: st}
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.relistLocked(context.Background()); err != nil {
		return nil, err
	}
	return c, nil
}

// current returns a snapshot at least as new as the store's revision when
// it was called.
func (c *cache) current() *snapshot {
	s := c.snap.Load()
	if s.rev >= c.st.Revision() {
		return s
	}
	return c.sync()
}

var doneCtx = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// sync drains the watchers and publishes the resulting snapshot.
func (c *cache) sync() *snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.snap.Load()
	if s.rev >= c.st.Revision() || c.closed {
		return s
	}
	var d dirty
	for i, w := range c.watchers {
		for {
			events, err := w.Next(doneCtx)
			if err != nil {
				if errors.Is(err, context.Canceled) {
					break // nothing more for now
				}
				// Overtaken by the history window (or stopped): start again.
				if err := c.relistLocked(context.Background()); err != nil {
					return s // keep serving the last state
				}
				return c.snap.Load()
			}
			for _, ev := range events {
				c.src.apply(i, ev, &d)
			}
		}
	}
	rev := int64(math.MaxInt64)
	for _, w := range c.watchers {
		rev = min(rev, w.Revision())
	}
	next := c.src.build(s, &d, rev)
	c.snap.Store(next)
	return next
}

// dirty records what changed since the last snapshot.
type dirty struct {
	roleNS, bindingNS  map[string]bool
	clusterRoles, crbs bool
}

func mark(m *map[string]bool, ns string) {
	if *m == nil {
		*m = map[string]bool{}
	}
	(*m)[ns] = true
}

// apply applies one event of watcher i.
func (s *source) apply(i int, ev store.Event, d *dirty) {
	data := ev.Object.Data()
	ns, name := data.Namespace(), data.Name()
	deleted := ev.Type == store.Deleted
	switch resources[i] {
	case ResourceRoles:
		setEntry(namespaceMap(s.roles, ns), name, deleted, func() *role { return parseRole(data) })
		mark(&d.roleNS, ns)
	case ResourceClusterRoles:
		setEntry(s.clusterRoles, name, deleted, func() *role { return parseRole(data) })
		d.clusterRoles = true
	case ResourceRoleBindings:
		setEntry(namespaceMap(s.rbs, ns), name, deleted, func() *binding { return parseBinding(data) })
		mark(&d.bindingNS, ns)
	case ResourceClusterRoleBindings:
		setEntry(s.crbs, name, deleted, func() *binding { return parseBinding(data) })
		d.crbs = true
	}
}

// setEntry stores the parsed object at name, or removes name for a deletion.
func setEntry[T any](m map[string]T, name string, deleted bool, parse func() T) {
	if deleted {
		delete(m, name)
		return
	}
	m[name] = parse()
}

// namespaceMap is the map of namespace ns in m, made on first use.
func namespaceMap[T any](m map[string]map[string]T, ns string) map[string]T {
	inner := m[ns]
	if inner == nil {
		inner = map[string]T{}
		m[ns] = inner
	}
	return inner
}

// build makes the next snapshot from prev, copying only what d says
// changed.
func (s *source) build(prev *snapshot, d *dirty, rev int64) *snapshot {
	next := *prev
	next.rev = rev
	if next.decisions == nil || len(d.roleNS) > 0 || d.clusterRoles || len(d.bindingNS) > 0 || d.crbs {
		next.decisions = newDecisions()
	}
	if len(d.roleNS) > 0 {
		next.roles = make(map[string]map[string]*role, len(prev.roles)+len(d.roleNS))
		for ns, m := range prev.roles {
			next.roles[ns] = m
		}
		for ns := range d.roleNS {
			if len(s.roles[ns]) == 0 {
				delete(next.roles, ns)
				delete(s.roles, ns)
				continue
			}
			next.roles[ns] = cloneMap(s.roles[ns])
		}
	}
	if d.clusterRoles {
		next.clusterRoles = cloneMap(s.clusterRoles)
	}
	if len(d.bindingNS) > 0 {
		next.rbs = make(map[string]*bindingIndex, len(prev.rbs)+len(d.bindingNS))
		for ns, ix := range prev.rbs {
			next.rbs[ns] = ix
		}
		for ns := range d.bindingNS {
			if len(s.rbs[ns]) == 0 {
				delete(next.rbs, ns)
				delete(s.rbs, ns)
				continue
			}
			next.rbs[ns] = newBindingIndex(s.rbs[ns])
		}
	}
	if d.crbs {
		next.crbs = newBindingIndex(s.crbs)
	}
	return &next
}

func cloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// relistLocked reads everything again and restarts the watchers.
func (c *cache) relistLocked(ctx context.Context) error {
	for _, w := range c.watchers {
		if w != nil {
			w.Stop()
		}
	}
	c.src = source{roles: map[string]map[string]*role{}, clusterRoles: map[string]*role{},
		rbs: map[string]map[string]*binding{}, crbs: map[string]*binding{}}
	rev := int64(math.MaxInt64)
	for i, res := range resources {
		list, err := c.st.List(ctx, KeyPrefix(res), store.ListOptions{})
		if err != nil {
			return err
		}
		var d dirty
		for _, obj := range list.Items {
			c.src.apply(i, store.Event{Type: store.Added, Object: obj}, &d)
		}
		w, err := c.st.Watch(ctx, KeyPrefix(res), store.WatchOptions{Revision: list.Revision})
		if err != nil {
			return err
		}
		c.watchers[i] = w
		rev = min(rev, list.Revision)
	}
	all := &dirty{clusterRoles: true, crbs: true, roleNS: map[string]bool{}, bindingNS: map[string]bool{}}
	for ns := range c.src.roles {
		all.roleNS[ns] = true
	}
	for ns := range c.src.rbs {
		all.bindingNS[ns] = true
	}
	c.snap.Store(c.src.build(&snapshot{}, all, rev))
	return nil
}

// close stops the watchers.
func (c *cache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, w := range c.watchers {
		if w != nil {
			w.Stop()
		}
	}
}
