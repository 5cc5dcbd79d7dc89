//go:build go1.25

package flowcontrol

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jailEnv has the bootstrap configuration and a level "jail" of one seat
// (Reject or Queue) that alice's requests go to.
func jailEnv(t *testing.T, limitResponse map[string]any) *env {
	t.Helper()
	e := newEnv(t, Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2}, false)
	e.putBootstrap()
	e.put(newPL("jail", map[string]any{"nominalConcurrencyShares": int64(1), "borrowingLimitPercent": int64(0),
		"limitResponse": limitResponse}))
	e.put(newFS("alice", "jail", 50, "alice"))
	e.start()
	return e
}

var rejectResponse = map[string]any{"type": "Reject"}

// blocking is a handler that holds every request until released.
type blocking struct {
	entered chan struct{}
	release chan struct{}
}

func newBlocking() *blocking {
	return &blocking{entered: make(chan struct{}, 100), release: make(chan struct{})}
}

func (b *blocking) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.entered <- struct{}{}
	<-b.release
	w.WriteHeader(http.StatusOK)
}

func TestARejectedRequestGetsKubes429(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := jailEnv(t, rejectResponse)
		b := newBlocking()
		h := e.c.Filter(b)
		first := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			h.ServeHTTP(first, as(userNamed("alice"), "GET", "/api/v1/namespaces/default/configmaps"))
			close(done)
		}()
		<-b.entered
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, as(userNamed("alice"), "GET", "/api/v1/namespaces/default/configmaps"))
		assert.Equal(t, http.StatusTooManyRequests, rec.Code)
		assert.Equal(t, "Too many requests, please try again later.\n", rec.Body.String())
		assert.Equal(t, http.Header{
			"Cache-Control":                     {"no-cache, private"},
			"Content-Type":                      {"text/plain; charset=utf-8"},
			"Retry-After":                       {"1"},
			"X-Content-Type-Options":            {"nosniff"},
			"X-Kubernetes-Pf-Flowschema-Uid":    {"uid-alice"},
			"X-Kubernetes-Pf-Prioritylevel-Uid": {"uid-jail"},
		}, rec.Header())
		close(b.release)
		<-done
		assert.Equal(t, http.StatusOK, first.Code)
		assert.Equal(t, "uid-alice", first.Header().Get(ResponseHeaderMatchedFlowSchemaUID))
		assert.Equal(t, "uid-jail", first.Header().Get(ResponseHeaderMatchedPriorityLevelUID))
		e.cancel()
	})
}

func TestRetryAfterGrowsWhileALevelKeepsRejecting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var d droppedRequests
		d.now = time.Now
		assert.Equal(t, int64(1), d.retryAfter("l"))
		for range 3 {
			d.record("l")
		}
		time.Sleep(time.Second)
		d.record("l") // a new second: 3 rejected in the last one
		assert.Equal(t, int64(2), d.retryAfter("l"))
		for range 20 {
			d.record("l")
		}
		time.Sleep(2 * time.Second)
		d.record("l")
		assert.Equal(t, int64(4), d.retryAfter("l"))
		time.Sleep(10 * time.Second)
		d.record("l") // calm: it shrinks by a second
		assert.Equal(t, int64(3), d.retryAfter("l"))
		assert.Equal(t, int64(1), d.retryAfter("other"))
	})
}

func TestAQueuedRequestWaitsForASeatThenRuns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := jailEnv(t, map[string]any{"type": "Queue", "queuing": map[string]any{"queues": int64(4), "handSize": int64(2), "queueLengthLimit": int64(5)}})
		b := newBlocking()
		h := e.c.Filter(b)
		var wg sync.WaitGroup
		codes := make([]int, 3)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, as(userNamed("alice"), "GET", "/api/v1/pods"))
				codes[i] = rec.Code
			}()
		}
		<-b.entered
		synctest.Wait()
		assert.Len(t, b.entered, 0, "one seat: the others wait")
		assert.Contains(t, dump(t, e, "dump_priority_levels"), "jail,              2,            false,  false,       2,               1,", "two queues of alice's hand hold a request each")
		b.release <- struct{}{}
		<-b.entered
		b.release <- struct{}{}
		<-b.entered
		b.release <- struct{}{}
		wg.Wait()
		assert.Equal(t, []int{200, 200, 200}, codes)
		e.cancel()
	})
}

func TestARequestWaitingTooLongIsRejected(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := jailEnv(t, map[string]any{"type": "Queue", "queuing": map[string]any{"queues": int64(1), "handSize": int64(1), "queueLengthLimit": int64(5)}})
		b := newBlocking()
		h := e.c.Filter(b)
		go h.ServeHTTP(httptest.NewRecorder(), as(userNamed("alice"), "GET", "/api/v1/pods"))
		<-b.entered
		start := time.Now()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, as(userNamed("alice"), "GET", "/api/v1/pods"))
		assert.Equal(t, http.StatusTooManyRequests, rec.Code)
		assert.Equal(t, 15*time.Second, time.Since(start), "a quarter of kube's 60 s request timeout")

		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
		defer cancel()
		start = time.Now()
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, as(userNamed("alice"), "GET", "/api/v1/pods").WithContext(withUserOf(ctx, "alice")))
		assert.Equal(t, http.StatusTooManyRequests, rec.Code)
		assert.Equal(t, 2*time.Second, time.Since(start), "a quarter of what its deadline leaves")
		assert.Contains(t, dump(t, e, "dump_priority_levels"), "jail,              0,            false,  false,       0,               1,                 1,                  2,                0,                2")
		close(b.release)
		synctest.Wait()
		e.cancel()
	})
}

func TestExemptRequestsNeverWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := jailEnv(t, rejectResponse)
		b := newBlocking()
		h := e.c.Filter(b)
		admin := userNamed("admin", "system:masters")
		for range 50 {
			go h.ServeHTTP(httptest.NewRecorder(), as(admin, "GET", "/api/v1/pods"))
		}
		for range 50 {
			<-b.entered
		}
		close(b.release)
		synctest.Wait()
		e.cancel()
	})
}

func TestAWatchHoldsItsSeatOnlyUntilItsInitialEventsAreOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := jailEnv(t, rejectResponse)
		initialized := make(chan struct{})
		stop := make(chan struct{})
		h := e.c.Filter(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("watch") != "" {
				<-initialized
				WatchInitialized(r.Context())
				<-stop
				return
			}
			w.WriteHeader(http.StatusOK)
		}))
		go h.ServeHTTP(httptest.NewRecorder(), as(userNamed("alice"), "GET", "/api/v1/pods?watch=1"))
		synctest.Wait()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, as(userNamed("alice"), "GET", "/api/v1/pods"))
		assert.Equal(t, http.StatusTooManyRequests, rec.Code, "the starting watch holds the only seat")
		close(initialized)
		synctest.Wait()
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, as(userNamed("alice"), "GET", "/api/v1/pods"))
		assert.Equal(t, http.StatusOK, rec.Code, "the running watch holds no seat")
		close(stop)
		synctest.Wait()
		e.cancel()
	})
}

func TestLongRunningRequestsOtherThanWatchesBypassFlowControl(t *testing.T) {
	e := jailEnv(t, rejectResponse)
	rec := httptest.NewRecorder()
	e.c.Filter(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})).ServeHTTP(rec,
		as(userNamed("alice"), "POST", "/api/v1/namespaces/d/pods/p/exec"))
	assert.Empty(t, rec.Header().Get(ResponseHeaderMatchedFlowSchemaUID))
}

func TestWritesCostMoreWithManyWatchers(t *testing.T) {
	e := newEnv(t, Options{}, false)
	e.putBootstrap()
	e.start()
	lvl := e.c.cfg.Load().levels[0]
	s := e.c.metrics.series("l", "f")
	create := as(nil, "POST", "/api/v1/namespaces/d/configmaps")
	info := requestinfoOf(create)
	assert.Equal(t, workOne, e.c.estimate(create, &info, lvl, s))
	var forgets []func()
	for range 25 {
		w := as(nil, "GET", "/api/v1/configmaps?watch=1")
		wi := requestinfoOf(w)
		forgets = append(forgets, e.c.watches.register(w, &wi))
	}
	we := e.c.estimate(create, &info, lvl, s)
	assert.Equal(t, 1, we.InitialSeats)
	assert.Equal(t, 3, we.FinalSeats, "a seat per 10 watches")
	assert.Equal(t, 5*time.Millisecond, we.AdditionalLatency)
	for _, f := range forgets {
		f()
	}
	assert.Equal(t, workOne, e.c.estimate(create, &info, lvl, s))
}

func TestAListCostsASeatPerHundredObjects(t *testing.T) {
	e := newEnv(t, Options{}, false)
	e.c.deps.ObjectCount = func(group, resource string) (int64, bool) { return 450, resource == "configmaps" }
	e.putBootstrap()
	e.start()
	var lvl *levelBinding
	for _, l := range e.c.cfg.Load().levels {
		if l.name == "global-default" {
			lvl = l
		}
	}
	s := e.c.metrics.series("l", "f")
	for _, tc := range []struct {
		target string
		seats  int
	}{
		{"/api/v1/configmaps", 5},                                              // from the cache: every object
		{"/api/v1/configmaps?limit=100&resourceVersion=10", 2},                 // a page from etcd: 2×limit
		{"/api/v1/configmaps?limit=100&resourceVersion=10&labelSelector=a", 6}, // filtered in etcd: all + limit
		{"/api/v1/configmaps?fieldSelector=metadata.name%3Dx", 1},              // one object
		{"/api/v1/configmaps?limit=x", 8},                                      // refused later: the level's maximum, min(ceil(0.15×49), 49/6)
		{"/api/v1/secrets", 1},                                                 // unknown count
		{"/api/v1/configmaps?watch=1", 1},
	} {
		r := as(nil, "GET", tc.target)
		info := requestinfoOf(r)
		assert.Equal(t, tc.seats, e.c.estimate(r, &info, lvl, s).InitialSeats, tc.target)
	}
}

// dump fetches one of the debug dumps through the filter, as the admin.
func dump(t *testing.T, e *env, name string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	e.c.Filter(http.NotFoundHandler()).ServeHTTP(rec, as(userNamed("admin", "system:masters"), "GET", DebugPathPrefix+name))
	require.Equal(t, http.StatusOK, rec.Code)
	return rec.Body.String()
}

func TestDebugDumpsHaveKubesColumns(t *testing.T) {
	e := jailEnv(t, rejectResponse)
	levels := dump(t, e, "dump_priority_levels")
	lines := strings.Split(levels, "\n")
	assert.Equal(t, "PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests, DispatchedRequests, RejectedRequests, TimedoutRequests, CancelledRequests", lines[0])
	assert.Equal(t, "catch-all,         0,            true,   false,       0,               0,                 0,                  0,                0,                0", lines[1])
	assert.Equal(t, "exempt,            0,            false,  false,       0,               1,                 1,                  0,                0,                0", lines[2],
		"the dumping request itself executes in exempt")
	queues := strings.Split(dump(t, e, "dump_queues"), "\n")
	assert.Equal(t, "PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum", queues[0])
	assert.Equal(t, "global-default,    0,      0,               0,                 0,          0.00000000ss,  0,               0,           0.00000000ss", queues[1])
	assert.Len(t, queues, 1+128+16+64+64+128+128+1, "a row per queue of the Queue levels")
	reqs := dump(t, e, "dump_requests?includeRequestDetails=1")
	lines = strings.Split(reqs, "\n")
	assert.Equal(t, "PriorityLevelName, FlowSchemaName, QueueIndex, RequestIndexInQueue, FlowDistingsher, ArriveTime,", strings.Join(strings.Fields(lines[0])[:6], " "))
	assert.Contains(t, lines[0], "StartTime,")
	assert.Regexp(t, `StartTime, +UserName, +Verb, +APIPath, +Namespace, +Name, +APIVersion, +Resource, +SubResource$`, lines[0])
	assert.Regexp(t, `^exempt, +exempt, +-1, +-1, +, +\d{4}-\d\d-\d\dT[0-9:.]+Z, +1, +0, +0s, +\d{4}-.*Z, +admin, +get, +/debug/api_priority_and_fairness/dump_requests, +, +, +, +, +$`, lines[1])
}
