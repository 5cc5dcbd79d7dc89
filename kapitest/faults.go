package kapitest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Faults injects failures into one test server, at its HTTP layer and its
// store, so that every client (client-go, controller-runtime, kubectl
// through Kubeconfig) sees them exactly as a real kube-apiserver would send
// them: the same codes, Status bodies and headers, in the representation
// the client asked for, so apierrors.IsGone, IsConflict, IsTimeout,
// IsTooManyRequests... classify them as they would a real server's. Faults
// are scoped to their server; tests running in parallel do not see each
// other's. All methods are safe for concurrent use.
type Faults struct {
	write func(w http.ResponseWriter, r *http.Request, err error)
	store *faultStore

	armed atomic.Bool // whether rules holds any: most requests skip matching

	mu      sync.Mutex
	rules   []*rule
	writes  int // writes counted for FailNthWrite (only while armed: it counts from now)
	watches map[*openWatch]struct{}
	stall   chan struct{} // closed when watches may flow again; nil when not stalled
}

// Fault answers matching requests with Err, after Delay. Empty match
// fields match anything.
type Fault struct {
	// Verb is kube's verb: get, list, watch, create, update, patch, delete
	// or deletecollection.
	Verb string
	// Group is the API group ("" matches every group, the core group
	// included: Resource alone is usually enough).
	Group string
	// Resource is the plural resource ("configmaps", "deployments"); with
	// Subresource, a subresource of it ("status").
	Resource, Subresource string
	// Namespace and Name select one namespace or one object.
	Namespace, Name string
	// Err is the answer: an error from k8s.io/apimachinery/pkg/api/errors
	// (apierrors.NewServiceUnavailable, NewTimeoutError, NewConflict...) or
	// any apierrors.APIStatus is sent as its Status; any other error as a
	// 500 InternalError carrying its message. Nil with a Delay lets the
	// request through, late.
	Err error
	// Delay holds the request this long before it is answered (or passed
	// on, when Err is nil). A client that gives up first gets nothing.
	Delay time.Duration
	// Times is how many requests the fault answers before it goes away by
	// itself; 0 means until removed.
	Times int
}

type rule struct {
	Fault
	left int // answers left when Times > 0
	nth  int // for FailNthWrite: the write count at which it fires
}

// Remove takes a fault out; requests already delayed by it still finish.
type Remove func()

// Inject adds f and returns the function that removes it. Faults are tried
// in the order they were added; the first that matches answers.
func (f *Faults) Inject(fault Fault) Remove {
	r := &rule{Fault: fault, left: fault.Times}
	f.mu.Lock()
	f.rules = append(f.rules, r)
	f.armed.Store(len(f.rules) > 0)
	f.mu.Unlock()
	return func() { f.remove(r) }
}

func (f *Faults) remove(r *rule) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.rules {
		if x == r {
			f.rules = append(f.rules[:i:i], f.rules[i+1:]...)
			f.armed.Store(len(f.rules) > 0)
			return
		}
	}
}

// FailNthWrite makes the nth write from now (1 is the next one: a create,
// update, patch, delete or deletecollection, whatever its resource) fail
// with err, without writing anything; a nil err is kube's 500 for a
// storage that timed out.
func (f *Faults) FailNthWrite(n int, err error) {
	if err == nil {
		err = meta.Internal(errors.New("etcdserver: request timed out"))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &rule{Fault: Fault{Err: err, Times: 1}, left: 1, nth: f.writes + n})
	f.armed.Store(len(f.rules) > 0)
}

// ConflictNextUpdate makes the next update (PUT) of resource (any, if
// empty) fail with kube's 409 for a stale resourceVersion ("the object has
// been modified; please apply your changes to the latest version and try
// again"), without writing anything, as when another writer got there
// first.
func (f *Faults) ConflictNextUpdate(resource string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &rule{Fault: Fault{Verb: "update", Resource: resource, Times: 1}, left: 1, nth: -1})
	f.armed.Store(len(f.rules) > 0)
}

// TooLargeResourceVersion makes the next n lists that name a
// resourceVersion (other than "0") answer kube's 504 "Too large resource
// version" with Retry-After: 1, as a server whose cache lags behind the
// revision a client has already seen.
func (f *Faults) TooLargeResourceVersion(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rules = append(f.rules, &rule{Fault: Fault{Verb: "list", Times: n}, left: n, nth: -2})
	f.armed.Store(len(f.rules) > 0)
}

// Compact forces a compaction now, as etcd's and the watch cache's
// history running out: every open watch ends with kube's 410 Expired
// ERROR event, and reads of older revisions (a list or watch at an older
// resourceVersion, a continue token from before) answer 410 Gone. Clients
// must relist, as client-go's reflectors do. The store must be kapi's
// memory store or another with a Compact(revision int64) method; with any
// other, only the open watches end.
func (f *Faults) Compact() { f.store.compact() }

// DropWatches ends every open watch stream at once, cleanly, as a server
// restarting or timing a watch out does; clients watch again from the
// last resourceVersion they saw.
func (f *Faults) DropWatches() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for w := range f.watches {
		w.cancel()
	}
}

// OpenWatches returns how many watch streams the server is serving: a
// test waits for an informer's watch to be open before it injects a
// fault into it.
func (f *Faults) OpenWatches() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.watches)
}

// StallWatches holds every watch stream, open and new, so that no event
// reaches a client until resume is called (as a congested connection or a
// stuck server would). Writes and reads go on.
func (f *Faults) StallWatches() (resume func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stall == nil {
		f.stall = make(chan struct{})
	}
	ch := f.stall
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.stall == ch {
			close(ch)
			f.stall = nil
		}
	}
}

// Reset removes every fault and resumes stalled watches.
func (f *Faults) Reset() {
	f.mu.Lock()
	f.rules = nil
	f.armed.Store(false)
	if f.stall != nil {
		close(f.stall)
		f.stall = nil
	}
	f.mu.Unlock()
}

// match finds the fault that answers r, counting writes, and consumes one
// of its answers.
func (f *Faults) match(r *http.Request, info requestinfo.Info) *rule {
	f.mu.Lock()
	defer f.mu.Unlock()
	write := false
	switch info.Verb {
	case "create", "update", "patch", "delete", "deletecollection":
		write = info.IsResource
	}
	if write {
		f.writes++
	}
	for i, x := range f.rules {
		switch {
		case x.nth > 0:
			if !write || f.writes != x.nth {
				continue
			}
		case x.nth == -2:
			if !info.IsResource || info.Verb != "list" {
				continue
			}
			if rv := r.URL.Query().Get("resourceVersion"); rv == "" || rv == "0" {
				continue
			}
		default:
			if !info.IsResource || !matches(x.Fault, info) {
				continue
			}
		}
		if x.Times > 0 {
			x.left--
			if x.left <= 0 {
				f.rules = append(f.rules[:i:i], f.rules[i+1:]...)
				f.armed.Store(len(f.rules) > 0)
			}
		}
		return x
	}
	return nil
}

func matches(f Fault, info requestinfo.Info) bool {
	return (f.Verb == "" || f.Verb == info.Verb) &&
		(f.Group == "" || f.Group == info.Group) &&
		(f.Resource == "" || f.Resource == info.Resource) &&
		(f.Subresource == "" || f.Subresource == info.Subresource) &&
		(f.Namespace == "" || f.Namespace == info.Namespace) &&
		(f.Name == "" || f.Name == info.Name)
}

// wrap puts the faults in front of h.
func (f *Faults) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !f.armed.Load() && !mayWatch(r) {
			h.ServeHTTP(w, r) // nothing to inject, nothing to hold
			return
		}
		info := requestinfo.Parse(r)
		if x := f.match(r, info); x != nil {
			if x.Delay > 0 {
				t := time.NewTimer(x.Delay)
				select {
				case <-t.C:
				case <-r.Context().Done():
					t.Stop()
					return
				}
			}
			switch {
			case x.nth == -1:
				f.write(w, r, meta.ConflictModified(meta.GroupResource{Group: info.Group, Resource: info.Resource}, info.Name))
				return
			case x.nth == -2:
				rv, _ := strconv.ParseInt(r.URL.Query().Get("resourceVersion"), 10, 64)
				f.write(w, r, meta.TooLargeResourceVersion(rv, f.store.Revision(), 1))
				return
			case x.Err != nil:
				f.write(w, r, asStatus(x.Err))
				return
			}
		}
		if info.IsResource && info.Verb == "watch" {
			f.serveWatch(h, w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// mayWatch says whether r may be a watch (requestinfo.Parse has the
// answer), cheaply: a GET whose path or query mentions one.
func mayWatch(r *http.Request) bool {
	return r.Method == http.MethodGet &&
		(strings.Contains(r.URL.Path, "/watch/") || strings.Contains(r.URL.RawQuery, "watch"))
}

// asStatus turns a fault's error into the Status the server sends.
func asStatus(err error) *meta.Status {
	var st *meta.Status
	if errors.As(err, &st) {
		return st
	}
	var api apierrors.APIStatus
	if errors.As(err, &api) {
		b, jerr := json.Marshal(api.Status())
		out := &meta.Status{}
		if jerr == nil && json.Unmarshal(b, out) == nil {
			out.Kind, out.APIVersion = "Status", "v1"
			return out
		}
	}
	return meta.Internal(err)
}

// openWatch is one watch stream being served.
type openWatch struct {
	cancel context.CancelFunc
}

// serveWatch serves a watch that DropWatches can end and StallWatches can
// hold.
func (f *Faults) serveWatch(h http.Handler, w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	ow := &openWatch{cancel: cancel}
	f.mu.Lock()
	if f.watches == nil {
		f.watches = map[*openWatch]struct{}{}
	}
	f.watches[ow] = struct{}{}
	f.mu.Unlock()
	defer func() {
		f.mu.Lock()
		delete(f.watches, ow)
		f.mu.Unlock()
	}()
	h.ServeHTTP(&stallWriter{ResponseWriter: w, f: f, ctx: ctx}, r.WithContext(ctx))
}

// stallWriter holds a watch's writes while its server's watches are
// stalled.
type stallWriter struct {
	http.ResponseWriter
	f   *Faults
	ctx context.Context
}

func (w *stallWriter) wait() error {
	w.f.mu.Lock()
	ch := w.f.stall
	w.f.mu.Unlock()
	if ch == nil {
		return nil
	}
	select {
	case <-ch:
		return nil
	case <-w.ctx.Done():
		return w.ctx.Err()
	}
}

func (w *stallWriter) Write(p []byte) (int, error) {
	if err := w.wait(); err != nil {
		return 0, err
	}
	return w.ResponseWriter.Write(p)
}

func (w *stallWriter) FlushError() error {
	if err := w.wait(); err != nil {
		return err
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *stallWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// faultStore wraps the server's store so that Compact can end the watches
// reading it with the store's own expiry, which the server turns into
// kube's 410 in every representation.
type faultStore struct {
	store.Store

	mu       sync.Mutex
	gen      int64 // compactions so far
	watchers map[*faultWatcher]struct{}
}

func newFaultStore(st store.Store) *faultStore {
	return &faultStore{Store: st, watchers: map[*faultWatcher]struct{}{}}
}

// AddIndex passes indexes on to a store that keeps them.
func (s *faultStore) AddIndex(name string, fn store.IndexFunc) error {
	if ix, ok := s.Store.(store.Indexer); ok {
		return ix.AddIndex(name, fn)
	}
	return errors.ErrUnsupported
}

func (s *faultStore) Watch(ctx context.Context, prefix string, opts store.WatchOptions) (store.Watcher, error) {
	inner, err := s.Store.Watch(ctx, prefix, opts)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	w := &faultWatcher{Watcher: inner, s: s, gen: s.gen}
	s.watchers[w] = struct{}{}
	s.mu.Unlock()
	return w, nil
}

// compactor is a store whose history can be cut (store/memory's).
type compactor interface{ Compact(rev int64) }

func (s *faultStore) compact() {
	rev := s.Store.Revision()
	if c, ok := s.Store.(compactor); ok {
		c.Compact(rev)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	for w := range s.watchers {
		w.mu.Lock()
		if w.cancel != nil {
			w.cancel(errCompacted)
		}
		w.mu.Unlock()
	}
}

var errCompacted = errors.New("kapitest: compacted")

// faultWatcher is a store watcher that a forced compaction expires.
type faultWatcher struct {
	store.Watcher
	s   *faultStore
	gen int64

	mu     sync.Mutex
	cancel context.CancelCauseFunc // of the Next under way
}

func (w *faultWatcher) expired() error {
	return &store.ExpiredError{Requested: w.Watcher.Revision(), Oldest: w.s.Store.Revision()}
}

func (w *faultWatcher) Next(ctx context.Context) ([]store.Event, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	w.s.mu.Lock()
	gen := w.s.gen
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	w.s.mu.Unlock()
	if gen != w.gen {
		return nil, w.expired()
	}
	evs, err := w.Watcher.Next(ctx)
	w.mu.Lock()
	w.cancel = nil
	w.mu.Unlock()
	if errors.Is(context.Cause(ctx), errCompacted) {
		return nil, w.expired()
	}
	return evs, err
}

func (w *faultWatcher) Stop() {
	w.s.mu.Lock()
	delete(w.s.watchers, w)
	w.s.mu.Unlock()
	w.Watcher.Stop()
}
