package flowcontrol

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash/maphash"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
)

// Canonical forms of the response headers, set without allocating.
var (
	headerFlowSchemaUID    = http.CanonicalHeaderKey(ResponseHeaderMatchedFlowSchemaUID)
	headerPriorityLevelUID = http.CanonicalHeaderKey(ResponseHeaderMatchedPriorityLevelUID)
)

// anonymous is who a request without an authenticated user is.
var anonymous = &authn.User{Name: authn.Anonymous, Groups: []string{authn.AllUnauthenticated}}

// DebugPathPrefix is where the flow control dumps are served.
const DebugPathPrefix = "/debug/api_priority_and_fairness/"

// Filter returns next behind API Priority and Fairness: each request is
// classified by the flow schemas, then executes at once, waits in its
// priority level's queues, or is rejected with kube's 429. It also serves
// the debug dumps under DebugPathPrefix (classified like any request).
// Put it in front of everything that reads a request body.
func (c *Controller) Filter(next http.Handler) http.Handler {
	return &filter{c: c, next: next}
}

type filter struct {
	c    *Controller
	next http.Handler
}

func (f *filter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := f.c
	info := requestinfo.From(r)
	watch := info.IsResource && info.Verb == "watch"
	if !watch && longRunning(&info) {
		f.next.ServeHTTP(w, r) // kube does not hold seats for exec, attach, proxy…
		return
	}
	user, ok := authn.UserFrom(r.Context())
	if !ok {
		user = anonymous
	}
	d := newDigest(&info, user, r.Method, r.URL.Path)
	var sb *schemaBinding
	for {
		cfg := c.cfg.Load()
		sb = cfg.classify(&d)
		sb.level.pending.Add(1)
		if c.cfg.Load() == cfg {
			break
		}
		sb.level.pending.Add(-1) // the configuration changed under us
	}
	lvl := sb.level
	h := w.Header()
	h[headerPriorityLevelUID] = lvl.uid
	h[headerFlowSchemaUID] = sb.uid

	s := sb.series
	we := c.estimate(r, &info, lvl, s)
	s.workSeats.observe(float64(we.MaxSeats()))
	var hash uint64
	var dist string
	if lvl.queues > 1 {
		dist = distinguisher(&d, sb.fs.Spec.DistinguisherMethod)
		hash = sb.hashes.get(sb.fs.Name, dist)
	}
	req, executing := lvl.qs.StartRequest(we, hash, fairqueue.Descr{
		// The request itself: dumps read its details only when asked,
		// while it waits or executes (handlers never change a request).
		FlowSchema: sb.fs.Name, Distinguisher: dist, Tag: s, Details: r,
	})
	lvl.pending.Add(-1)
	if req == nil {
		c.rejected(w, lvl, s, time.Time{})
		return
	}
	if !executing {
		arrival := req.Arrival()
		ctx, cancel := c.waitContext(r.Context(), arrival)
		ok := req.Wait(ctx)
		cancel()
		if !ok {
			c.rejected(w, lvl, s, arrival)
			return
		}
	}
	if !lvl.exempt {
		var waited time.Duration
		if !executing {
			arrival, start, _ := req.Times()
			waited = start.Sub(arrival)
		}
		s.observeWait(true, waited)
	}
	s.dispatched.Add(1)

	next := f.next
	if strings.HasPrefix(r.URL.Path, DebugPathPrefix) {
		next = http.HandlerFunc(c.serveDebug)
	}
	if watch {
		// A watch holds its seat until its initial events are out
		// (WatchInitialized), or until it ends if nothing says so.
		forget := c.watches.register(r, &info)
		sig := &initSignal{fn: func() {
			idle := req.Finish()
			_, _, served := req.Times()
			s.observeExecution(true, served)
			if idle {
				c.maybeReap(lvl.level)
			}
		}}
		defer forget()
		defer sig.signal()
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), initSignalKey{}, sig)))
		return
	}
	defer func() {
		idle := req.Finish()
		_, _, served := req.Times()
		s.observeExecution(false, served)
		if idle {
			c.maybeReap(lvl.level)
		}
	}()
	next.ServeHTTP(w, r)
}

// rejected answers a request its level did not admit; arrival is when it
// joined a queue (zero when it was refused at once). As kube, the wait is
// observed with execute="true" for a request that was queued (even if it
// then timed out) and "false" for one refused at once.
func (c *Controller) rejected(w http.ResponseWriter, lvl *levelBinding, s *series, arrival time.Time) {
	if !lvl.exempt {
		if arrival.IsZero() {
			s.observeWait(false, 0)
		} else {
			s.observeWait(true, c.clock.Now().Sub(arrival))
		}
	}
	c.maybeReap(lvl.level)
	c.reject(w, lvl.name)
}

// waitContext bounds how long a request may wait in its queue: a quarter
// of the time its context leaves it, else Options.RequestWaitLimit, never
// more than a minute.
func (c *Controller) waitContext(ctx context.Context, arrived time.Time) (context.Context, context.CancelFunc) {
	limit := c.opts.RequestWaitLimit
	if deadline, ok := ctx.Deadline(); ok {
		limit = deadline.Sub(arrived) / 4
	}
	limit = min(limit, time.Minute)
	return context.WithDeadline(ctx, arrived.Add(limit))
}

// tooManyRequestsBody is kube's plain-text body of a flow control 429.
const tooManyRequestsBody = "Too many requests, please try again later.\n"

// reject answers 429 exactly as kube's flow control filter does: a plain
// text body (not a Status) and a Retry-After that grows while the level
// keeps rejecting.
func (c *Controller) reject(w http.ResponseWriter, level string) {
	c.dropped.record(level)
	h := w.Header()
	h["Cache-Control"] = cacheControl
	h["Retry-After"] = []string{strconv.FormatInt(c.dropped.retryAfter(level), 10)}
	h["Content-Type"] = plainText
	h["X-Content-Type-Options"] = noSniff
	h.Del("Content-Length")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte(tooManyRequestsBody))
}

var (
	cacheControl = []string{"no-cache, private"}
	plainText    = []string{"text/plain; charset=utf-8"}
	noSniff      = []string{"nosniff"}
)

// longRunning reports the requests kube never holds a seat for (besides
// watches, which hold one while they start): proxy, and the attach, exec,
// log, portforward and proxy subresources.
func longRunning(info *requestinfo.Info) bool {
	if !info.IsResource {
		return false
	}
	if info.Verb == "proxy" {
		return true
	}
	switch info.Subresource {
	case "attach", "exec", "proxy", "log", "portforward":
		return true
	}
	return false
}

// hashFlow is a flow's shuffle sharding hash, as kube computes it: the
// first 8 bytes (little-endian) of SHA-256 of the schema name, a zero byte
// and the distinguisher. Kube's hands, hence its queue indexes, are the
// same for the same flows.
func hashFlow(schema, dist string) uint64 {
	h := sha256.New()
	h.Write([]byte(schema))
	h.Write([]byte{0})
	h.Write([]byte(dist))
	var sum [sha256.Size]byte
	return binary.LittleEndian.Uint64(h.Sum(sum[:0])[:8])
}

// flowHashes caches a schema's recent flow hashes (SHA-256 costs more than
// the rest of admitting a request): a small direct-mapped table indexed by
// a cheap hash of the distinguisher.
type flowHashes struct {
	slots [64]atomic.Pointer[flowHash]
}

type flowHash struct {
	dist string
	hash uint64
}

var flowHashSeed = maphash.MakeSeed()

func (fh *flowHashes) get(schema, dist string) uint64 {
	slot := &fh.slots[maphash.String(flowHashSeed, dist)%uint64(len(fh.slots))]
	if e := slot.Load(); e != nil && e.dist == dist {
		return e.hash
	}
	h := hashFlow(schema, dist)
	slot.Store(&flowHash{dist: dist, hash: h})
	return h
}

type initSignalKey struct{}

// initSignal ends a watch's occupation of its seat, once.
type initSignal struct {
	once sync.Once
	fn   func()
}

func (s *initSignal) signal() { s.once.Do(s.fn) }

// WatchInitialized tells flow control that the watch being served with
// ctx has sent its initial events: its seat is released for other
// requests while the watch goes on. A watch handler calls it once the
// initial state is written (kube's watch cache does the same); until then,
// or without it, the watch holds its seat until it ends. It does nothing
// for a request flow control did not admit.
func WatchInitialized(ctx context.Context) {
	if s, ok := ctx.Value(initSignalKey{}).(*initSignal); ok {
		s.signal()
	}
}
