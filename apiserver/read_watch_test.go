package apiserver

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store/memory"
)

type watchEvent struct {
	Type   string         `json:"type"`
	Object map[string]any `json:"object"`
}

// openWatch starts a watch and returns a function reading its next event.
// Extra headers come in pairs.
func (ts *testServer) openWatch(path string, headers ...string) (next func() (watchEvent, bool), closeFn func()) {
	ts.t.Helper()
	req, err := http.NewRequest("GET", ts.url+path, nil)
	require.NoError(ts.t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(ts.t, err)
	require.Equal(ts.t, http.StatusOK, resp.StatusCode)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	events := make(chan watchEvent, 100)
	go func() {
		defer close(events)
		for sc.Scan() {
			var ev watchEvent
			if json.Unmarshal(sc.Bytes(), &ev) == nil {
				events <- ev
			}
		}
	}()
	next = func() (watchEvent, bool) {
		select {
		case ev, ok := <-events:
			return ev, ok
		case <-time.After(time.Minute):
			ts.t.Fatal("no watch event within 5s")
			return watchEvent{}, false
		}
	}
	return next, func() { resp.Body.Close() }
}

func newWatchTestServer(t *testing.T, st *memory.Store) *testServer {
	t.Helper()
	return newWatchTestServerAt(t, st, DefaultRelease)
}

// newWatchTestServerAt is newWatchTestServer answering as release r.
func newWatchTestServerAt(t *testing.T, st *memory.Store, r Release) *testServer {
	t.Helper()
	srv, err := New(Config{Resources: testResources, Store: st, WatchBookmarkInterval: 50 * time.Millisecond, Release: r})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &testServer{t: t, srv: srv, url: hs.URL}
}

func rvOf(t *testing.T, body map[string]any) int64 {
	n, err := strconv.ParseInt(field(body, "metadata.resourceVersion").(string), 10, 64)
	require.NoError(t, err)
	return n
}

func TestWatch(t *testing.T) {
	ts := newWatchTestServer(t, memory.New(memory.Config{}))
	created := ts.do("POST", cmPath, `{"metadata":{"name":"w1","labels":{"app":"a"}}}`)
	require.Equal(t, http.StatusCreated, created.code)
	rv := field(created.body, "metadata.resourceVersion").(string)

	t.Run("a watch from a resourceVersion streams the changes after it", func(t *testing.T) {
		next, closeWatch := ts.openWatch(cmPath + "?watch=true&resourceVersion=" + rv)
		defer closeWatch()
		ts.do("PUT", cmPath+"/w1", `{"metadata":{"name":"w1","labels":{"app":"a"}},"data":{"x":"1"}}`)
		ev, _ := next()
		assert.Equal(t, "MODIFIED", ev.Type)
		assert.Equal(t, "1", field(ev.Object, "data.x"))
		ts.do("DELETE", cmPath+"/w1", "")
		ev, _ = next()
		assert.Equal(t, "DELETED", ev.Type)
		assert.Equal(t, "w1", field(ev.Object, "metadata.name"))
	})
	t.Run("a watch without resourceVersion starts with the current state", func(t *testing.T) {
		ts.do("POST", cmPath, `{"metadata":{"name":"w2"}}`)
		next, closeWatch := ts.openWatch(cmPath + "?watch=1")
		defer closeWatch()
		ev, _ := next()
		assert.Equal(t, "ADDED", ev.Type)
		assert.Equal(t, "w2", field(ev.Object, "metadata.name"))
	})
	t.Run("a streaming list ends its initial events with kube 1.33's annotated bookmark", func(t *testing.T) {
		ts := newWatchTestServerAt(t, memory.New(memory.Config{}), Release133)
		require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"w3"}}`).code)
		next, closeWatch := ts.openWatch(cmPath + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
		defer closeWatch()
		ev, _ := next()
		assert.Equal(t, "ADDED", ev.Type)
		ev, _ = next()
		require.Equal(t, "BOOKMARK", ev.Type)
		annotations, _ := field(ev.Object, "metadata.annotations").(map[string]any)
		assert.Equal(t, "true", annotations["k8s.io/initial-events-end"])
		assert.Equal(t, "eyJraW5kIjoiQ29uZmlnTWFwTGlzdCIsImFwaVZlcnNpb24iOiJ2MSIsIm1ldGFkYXRhIjp7fSwiaXRlbXMiOm51bGx9Cg==",
			annotations["kubernetes.io/initial-events-list-blueprint"], "the blueprint is kube's, byte for byte")
		md := ev.Object["metadata"].(map[string]any)
		assert.Contains(t, md, "creationTimestamp")
		assert.Nil(t, md["creationTimestamp"])
		assert.Equal(t, "ConfigMap", ev.Object["kind"])
	})
	t.Run("an idle watch that asked for bookmarks gets them", func(t *testing.T) {
		next, closeWatch := ts.openWatch(cmPath + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + strconv.FormatInt(ts.srv.store.Revision(), 10))
		defer closeWatch()
		ev, _ := next()
		assert.Equal(t, "BOOKMARK", ev.Type)
		assert.EqualValues(t, strconv.FormatInt(ts.srv.store.Revision(), 10), field(ev.Object, "metadata.resourceVersion"))
	})
	t.Run("timeoutSeconds ends the stream", func(t *testing.T) {
		next, closeWatch := ts.openWatch(cmPath + "?watch=true&timeoutSeconds=1&resourceVersion=" + strconv.FormatInt(ts.srv.store.Revision(), 10))
		defer closeWatch()
		_, ok := next()
		assert.False(t, ok, "the stream ends without events")
	})
}

// TestBookmarksTakeTheFormOfTheStreamsEvents: kube transforms a bookmark
// as every event of the stream (docs/kube-behaviour/): a metadata-only
// watch's bookmarks are PartialObjectMetadata, which metadata informers
// decode, and a streaming list's blueprint is a PartialObjectMetadataList;
// a Table watch's are Tables.
func TestBookmarksTakeTheFormOfTheStreamsEvents(t *testing.T) {
	for _, r := range []Release{Release133, Release137} {
		t.Run("kube "+string(r), func(t *testing.T) { bookmarksTakeTheFormOfTheStreamsEvents(t, r) })
	}
}

// bookmarksTakeTheFormOfTheStreamsEvents holds release r's bookmarks: kube
// 1.33 writes a zero creationTimestamp as null and sends a streaming list's
// blueprint; from 1.34 neither.
func bookmarksTakeTheFormOfTheStreamsEvents(t *testing.T, r Release) {
	ts := newWatchTestServerAt(t, memory.New(memory.Config{}), r)
	before134 := !r.AtLeast(34)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"b"}}`).code)
	const partial = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1"
	now := func() string { return strconv.FormatInt(ts.srv.store.Revision(), 10) }
	blueprint := func(ev watchEvent) map[string]any {
		b64, _ := field(ev.Object, "metadata.annotations").(map[string]any)["kubernetes.io/initial-events-list-blueprint"].(string)
		raw, err := base64.StdEncoding.DecodeString(b64)
		require.NoError(t, err)
		var list map[string]any
		require.NoError(t, json.Unmarshal(raw, &list))
		return list
	}

	t.Run("a metadata-only watch's bookmark is PartialObjectMetadata", func(t *testing.T) {
		rv := now()
		next, closeWatch := ts.openWatch(cmPath+"?watch=true&allowWatchBookmarks=true&resourceVersion="+rv, "Accept", partial)
		defer closeWatch()
		ev, _ := next()
		require.Equal(t, "BOOKMARK", ev.Type)
		md := map[string]any{"resourceVersion": rv}
		if before134 {
			md["creationTimestamp"] = nil
		}
		assert.Equal(t, map[string]any{"kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1", "metadata": md}, ev.Object)
	})
	t.Run("a metadata-only streaming list ends with a PartialObjectMetadata bookmark", func(t *testing.T) {
		next, closeWatch := ts.openWatch(cmPath+"?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true",
			"Accept", partial)
		defer closeWatch()
		ev, _ := next()
		require.Equal(t, "ADDED", ev.Type)
		assert.Equal(t, "PartialObjectMetadata", ev.Object["kind"])
		ev, _ = next()
		require.Equal(t, "BOOKMARK", ev.Type)
		assert.Equal(t, "PartialObjectMetadata", ev.Object["kind"])
		assert.Equal(t, "meta.k8s.io/v1", ev.Object["apiVersion"])
		assert.Equal(t, "true", field(ev.Object, "metadata.annotations").(map[string]any)["k8s.io/initial-events-end"])
		if before134 {
			assert.Equal(t, map[string]any{"kind": "PartialObjectMetadataList", "apiVersion": "meta.k8s.io/v1",
				"metadata": map[string]any{}, "items": nil}, blueprint(ev))
		} else {
			assert.NotContains(t, field(ev.Object, "metadata.annotations"), "kubernetes.io/initial-events-list-blueprint")
		}
	})
	t.Run("a Table watch's bookmark is a Table", func(t *testing.T) {
		next, closeWatch := ts.openWatch(cmPath+"?watch=true&allowWatchBookmarks=true&resourceVersion="+now(),
			"Accept", "application/json;as=Table;g=meta.k8s.io;v=v1")
		defer closeWatch()
		ev, _ := next()
		require.Equal(t, "BOOKMARK", ev.Type)
		assert.Equal(t, "Table", ev.Object["kind"])
	})
	t.Run("a plain watch's bookmark is the watched kind", func(t *testing.T) {
		next, closeWatch := ts.openWatch(cmPath + "?watch=true&allowWatchBookmarks=true&resourceVersion=" + now())
		defer closeWatch()
		ev, _ := next()
		require.Equal(t, "BOOKMARK", ev.Type)
		assert.Equal(t, "ConfigMap", ev.Object["kind"])
	})
}

func TestWatchSelectorTransitions(t *testing.T) {
	ts := newWatchTestServer(t, memory.New(memory.Config{}))
	created := ts.do("POST", cmPath, `{"metadata":{"name":"s","labels":{"tier":"web"}}}`)
	next, closeWatch := ts.openWatch(cmPath + "?watch=true&labelSelector=tier%3Ddb&resourceVersion=" + field(created.body, "metadata.resourceVersion").(string))
	defer closeWatch()

	ts.do("PUT", cmPath+"/s", `{"metadata":{"name":"s","labels":{"tier":"db"}}}`)
	ev, _ := next()
	assert.Equal(t, "ADDED", ev.Type, "an object that starts matching is ADDED")
	ts.do("PUT", cmPath+"/s", `{"metadata":{"name":"s","labels":{"tier":"db"}},"data":{"a":"b"}}`)
	ev, _ = next()
	assert.Equal(t, "MODIFIED", ev.Type)
	ts.do("PUT", cmPath+"/s", `{"metadata":{"name":"s","labels":{"tier":"web"}}}`)
	ev, _ = next()
	assert.Equal(t, "DELETED", ev.Type, "an object that stops matching is DELETED")
	assert.Equal(t, "db", field(ev.Object, "metadata.labels.tier"), "with its last matching state")
}

func TestWatchFromCompactedRevisionIsExpired(t *testing.T) {
	st := memory.New(memory.Config{})
	ts := newWatchTestServer(t, st)
	for i := 0; i < 5; i++ {
		ts.do("POST", cmPath, `{"metadata":{"name":"c`+strconv.Itoa(i)+`"}}`)
	}
	st.Compact(st.Revision())
	next, closeWatch := ts.openWatch(cmPath + "?watch=true&resourceVersion=2")
	defer closeWatch()
	ev, _ := next()
	require.Equal(t, "ERROR", ev.Type)
	assert.EqualValues(t, 410, ev.Object["code"])
	assert.Equal(t, "Expired", ev.Object["reason"])
	assert.True(t, strings.HasPrefix(ev.Object["message"].(string), "too old resource version: 2"), ev.Object["message"])
}

func TestListResourceVersionSemantics(t *testing.T) {
	st := memory.New(memory.Config{})
	ts := newWatchTestServer(t, st)
	first := ts.do("POST", cmPath, `{"metadata":{"name":"a"}}`)
	firstRV := rvOf(t, first.body)
	ts.do("POST", cmPath, `{"metadata":{"name":"b"}}`)

	exact := ts.do("GET", cmPath+"?resourceVersion="+strconv.FormatInt(firstRV, 10)+"&resourceVersionMatch=Exact", "")
	require.Equal(t, http.StatusOK, exact.code, string(exact.raw))
	assert.Len(t, exact.body["items"], 1, "an Exact list reads the snapshot at that revision")
	assert.Equal(t, strconv.FormatInt(firstRV, 10), field(exact.body, "metadata.resourceVersion"))

	paged := ts.do("GET", cmPath+"?limit=10&resourceVersion="+strconv.FormatInt(firstRV, 10), "")
	assert.Len(t, paged.body["items"], 1, "a limited list at a resourceVersion is Exact")
	notOlder := ts.do("GET", cmPath+"?resourceVersion="+strconv.FormatInt(firstRV, 10), "")
	assert.Len(t, notOlder.body["items"], 2, "an unlimited list at a resourceVersion is NotOlderThan")

	st.Compact(st.Revision())
	gone := ts.do("GET", cmPath+"?resourceVersion="+strconv.FormatInt(firstRV, 10)+"&resourceVersionMatch=Exact", "")
	assert.Equal(t, http.StatusGone, gone.code)
	assert.Equal(t, "Expired", gone.body["reason"])

	tests := []struct {
		name, query string
		code        int
		message     string
	}{
		{"resourceVersionMatch without resourceVersion is Invalid", "resourceVersionMatch=Exact", 422,
			`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`},
		{"Exact at 0 is Invalid", "resourceVersionMatch=Exact&resourceVersion=0", 422,
			`ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"`},
		{"sendInitialEvents on a list is Invalid", "sendInitialEvents=true", 422,
			`ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`},
		{"a garbage continue token is BadRequest", "continue=garbage", 400, ""},
		{"a malformed label selector is BadRequest", "labelSelector=a%20in%20(", 400, ""},
		{"an unknown field selector is BadRequest", "fieldSelector=spec.foo%3Dx", 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do("GET", cmPath+"?"+tt.query, "")
			require.Equal(t, tt.code, r.code, string(r.raw))
			if tt.message != "" {
				assert.Equal(t, tt.message, r.body["message"])
			}
		})
	}
}

func TestAFutureResourceVersionTimesOutWith504(t *testing.T) {
	ts := newWatchTestServer(t, memory.New(memory.Config{FutureWait: 50 * time.Millisecond}))
	for _, path := range []string{cmPath + "?resourceVersion=999999", cmPath + "/x?resourceVersion=999999"} {
		r := ts.do("GET", path, "")
		require.Equal(t, http.StatusGatewayTimeout, r.code, string(r.raw))
		assert.Equal(t, "1", r.header.Get("Retry-After"))
		assert.Equal(t, "Timeout", r.body["reason"])
		assert.True(t, strings.HasPrefix(r.body["message"].(string), "Timeout: Too large resource version: 999999, current: "), r.body["message"])
		assert.Equal(t, []any{map[string]any{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}}, field(r.body, "details.causes"))
		assert.EqualValues(t, 1, field(r.body, "details.retryAfterSeconds"))
	}
}

// TestAWatchFromAFutureResourceVersionEnds holds the watch handler to kube's
// behaviour for a revision the store has not reached: the stream opens and
// stays silent, and the handler returns when timeoutSeconds pass or the
// client goes away, leaving nothing running behind it.
func TestAWatchFromAFutureResourceVersionEnds(t *testing.T) {
	newServer := func(t *testing.T) (url string, running *atomic.Int64) {
		srv, err := New(Config{Resources: testResources, Store: memory.New(memory.Config{FutureWait: 20 * time.Millisecond})})
		require.NoError(t, err)
		running = new(atomic.Int64)
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			running.Add(1)
			defer running.Add(-1)
			srv.ServeHTTP(w, r)
		}))
		t.Cleanup(hs.Close)
		return hs.URL, running
	}
	handlerEnds := func(t *testing.T, running *atomic.Int64) {
		require.Eventually(t, func() bool { return running.Load() == 0 }, time.Minute, 5*time.Millisecond,
			"the watch handler is still running after its client left")
	}

	t.Run("the stream stays silent and ends after timeoutSeconds", func(t *testing.T) {
		url, running := newServer(t)
		start := time.Now()
		client := &http.Client{Timeout: 5 * time.Second} // fails, not hangs, if the stream never ends
		resp, err := client.Get(url + cmPath + "?watch=1&resourceVersion=99999&timeoutSeconds=1")
		require.NoError(t, err)
		defer resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Empty(t, body)
		assert.Less(t, time.Since(start), 1900*time.Millisecond)
		handlerEnds(t, running)
	})

	t.Run("the handler returns when the client goes away", func(t *testing.T) {
		url, running := newServer(t)
		ctx, cancel := context.WithCancel(context.Background())
		req, err := http.NewRequestWithContext(ctx, "GET", url+cmPath+"?watch=1&resourceVersion=99999", nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		time.Sleep(50 * time.Millisecond) // past the store's wait, into the retry loop
		cancel()
		resp.Body.Close()
		handlerEnds(t, running)
	})
}

// TestStreamingListEndBookmarkPerRelease: kube 1.33 ends a streaming list
// with a bookmark carrying a null creationTimestamp and the list's
// blueprint; kube 1.34 and later (1.37.2 recorded) send neither
// (docs/kube-behaviour/19-releases.md, "difftest at 1.37").
func TestStreamingListEndBookmarkPerRelease(t *testing.T) {
	cases := []struct {
		name      string
		release   Release
		blueprint bool
	}{
		{"kube 1.33 annotates the blueprint and a null creationTimestamp", Release133, true},
		{"kube 1.37 sends the end annotation alone", Release137, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startReleaseServer(t, tc.release)
			require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"s"}}`).code)
			next, closeWatch := ts.openWatch(cmPath + "?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true")
			defer closeWatch()
			ev, _ := next()
			require.Equal(t, "ADDED", ev.Type)
			ev, _ = next()
			require.Equal(t, "BOOKMARK", ev.Type)
			md := ev.Object["metadata"].(map[string]any)
			annotations, _ := md["annotations"].(map[string]any)
			assert.Equal(t, "true", annotations["k8s.io/initial-events-end"])
			_, hasBlueprint := annotations["kubernetes.io/initial-events-list-blueprint"]
			assert.Equal(t, tc.blueprint, hasBlueprint, "blueprint annotation")
			_, hasCreationTimestamp := md["creationTimestamp"]
			assert.Equal(t, tc.blueprint, hasCreationTimestamp, "creationTimestamp key")
		})
	}
}

// TestWatchFromNowOrAnyIsAStreamingListPerRelease: with the WatchList
// feature on by default (kube 1.34 and later; 1.37.2 recorded), a watch
// with resourceVersion unset or "0" and without sendInitialEvents is
// defaulted to a streaming list, so asking for bookmarks brings the
// initial-events-end bookmark after the initial events; kube 1.33 sends
// the initial events alone.
func TestWatchFromNowOrAnyIsAStreamingListPerRelease(t *testing.T) {
	cases := []struct {
		name    string
		release Release
		query   string
		endMark bool
	}{
		{"kube 1.37 ends the initial events of a watch from now with the bookmark", Release137, "watch=true&allowWatchBookmarks=true", true},
		{"kube 1.37 ends the initial events of a watch from any with the bookmark", Release137, "watch=true&resourceVersion=0&allowWatchBookmarks=true", true},
		{"kube 1.37 sends no bookmark to a watch that did not ask for them", Release137, "watch=true", false},
		{"kube 1.33 sends the initial events of a watch from now alone", Release133, "watch=true&allowWatchBookmarks=true", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startReleaseServer(t, tc.release)
			require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"n"}}`).code)
			next, closeWatch := ts.openWatch(cmPath + "?timeoutSeconds=1&" + tc.query)
			defer closeWatch()
			ev, _ := next()
			require.Equal(t, "ADDED", ev.Type)
			endMarks := 0
			for ev, ok := next(); ok; ev, ok = next() {
				if annotations, _ := field(ev.Object, "metadata.annotations").(map[string]any); ev.Type == "BOOKMARK" && annotations["k8s.io/initial-events-end"] == "true" {
					endMarks++
				}
			}
			if tc.endMark {
				assert.Equal(t, 1, endMarks, "one initial-events-end bookmark")
			} else {
				assert.Zero(t, endMarks, "no initial-events-end bookmark")
			}
		})
	}
}

// TestAnExactListFromAFutureResourceVersionPerRelease: kube 1.33 reads an
// exact list (resourceVersionMatch=Exact, or a limit with a
// resourceVersion) from etcd, which refuses a future revision at once with
// a 500; kube 1.34 and later (1.37.2 recorded) serve it from the watch
// cache, which waits for the revision and answers 504: with Retry-After,
// but not for a limited or Exact list of one pinned name.
func TestAnExactListFromAFutureResourceVersionPerRelease(t *testing.T) {
	cases := []struct {
		name    string
		release Release
		query   string
		code    int
	}{
		{"kube 1.37 waits for a limited list's future revision, then 504", Release137, "limit=1&resourceVersion=999999", http.StatusGatewayTimeout},
		{"kube 1.37 waits for an Exact list's future revision, then 504", Release137, "resourceVersion=999999&resourceVersionMatch=Exact", http.StatusGatewayTimeout},
		{"kube 1.33 answers a limited list's future revision 500 at once", Release133, "limit=1&resourceVersion=999999", http.StatusInternalServerError},
		{"kube 1.37 waits for an Exact list of one pinned name, then 504 without Retry-After", Release137,
			"limit=1&fieldSelector=metadata.name%3Dx&resourceVersion=999999&resourceVersionMatch=Exact", http.StatusGatewayTimeout},
		{"kube 1.37 answers a limited list of one pinned name at a future revision 504 without Retry-After", Release137,
			"limit=500&labelSelector=%21app&fieldSelector=metadata.name%3Dx&resourceVersion=999999", http.StatusGatewayTimeout},
		{"kube 1.37 answers a list of one pinned name at a future revision without a limit 504 with Retry-After", Release137,
			"fieldSelector=metadata.name%3Dx&resourceVersion=999999", http.StatusGatewayTimeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := New(Config{Resources: testResources, Store: memory.New(memory.Config{FutureWait: 50 * time.Millisecond}), Release: tc.release})
			require.NoError(t, err)
			hs := httptest.NewServer(srv)
			t.Cleanup(hs.Close)
			ts := &testServer{t: t, srv: srv, url: hs.URL}
			r := ts.do("GET", cmPath+"?"+tc.query, "")
			assert.Equal(t, tc.code, r.code, string(r.raw))
			if r.code == http.StatusGatewayTimeout {
				exact := strings.Contains(tc.query, "fieldSelector") && strings.Contains(tc.query, "limit=")
				assert.Equal(t, !exact, r.header.Get("Retry-After") == "1", "Retry-After")
			}
		})
	}
}

// TestAStreamingListGetsABookmarkAtTheFirstTickAfterAWrite: kube 1.37.2's
// cacher sends a streaming list that asked for bookmarks one more, plain
// bookmark at its first tick when a write came after the initial events
// (even one the selector filters out); without a write, none.
func TestAStreamingListGetsABookmarkAtTheFirstTickAfterAWrite(t *testing.T) {
	for _, write := range []bool{true, false} {
		name := "after a write the first tick brings a plain bookmark at its revision"
		if !write {
			name = "without a write the first tick brings nothing"
		}
		t.Run(name, func(t *testing.T) {
			srv, err := New(Config{Resources: testResources, Store: memory.New(memory.Config{}), Release: Release137})
			require.NoError(t, err)
			hs := httptest.NewServer(srv)
			t.Cleanup(hs.Close)
			ts := &testServer{t: t, srv: srv, url: hs.URL}
			next, closeWatch := ts.openWatch(cmPath + "?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=app%3Dnone&timeoutSeconds=1")
			defer closeWatch()
			ev, _ := next()
			require.Equal(t, "BOOKMARK", ev.Type, "the end of the initial events")
			var rv any
			if write {
				created := ts.do("POST", cmPath, `{"metadata":{"name":"other"}}`)
				require.Equal(t, http.StatusCreated, created.code)
				rv = field(created.body, "metadata.resourceVersion")
			}
			var bookmarks []any
			for ev, ok := next(); ok; ev, ok = next() {
				require.Equal(t, "BOOKMARK", ev.Type)
				bookmarks = append(bookmarks, field(ev.Object, "metadata.resourceVersion"))
			}
			if write {
				assert.Equal(t, []any{rv}, bookmarks)
			} else {
				assert.Empty(t, bookmarks)
			}
		})
	}
}
