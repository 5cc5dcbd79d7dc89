package memory_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
	"github.com/kapi-dev/kapi/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, opts storetest.Options) store.Store {
		cfg := memory.Config{}
		if opts.HistoryLimit > 0 {
			cfg = memory.Config{HistoryLimit: opts.HistoryLimit, MaxHistory: opts.HistoryLimit, MinHistoryAge: -1}
		}
		return memory.New(cfg)
	})
}

// clock is a manual Config.Now.
type clock struct{ ns atomic.Int64 }

func newClock() *clock {
	c := &clock{}
	c.ns.Store(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	return c
}
func (c *clock) Now() time.Time          { return time.Unix(0, c.ns.Load()) }
func (c *clock) Advance(d time.Duration) { c.ns.Add(int64(d)) }

func obj(name string) meta.Object {
	return meta.Object{"metadata": map[string]any{"name": name, "uid": "uid-" + name}}
}

func create(t testing.TB, s *memory.Store, key string) *store.Object {
	t.Helper()
	o, err := s.Create(context.Background(), key, obj(key))
	require.NoError(t, err)
	return o
}

func createN(t testing.TB, s *memory.Store, prefix string, n int) {
	t.Helper()
	for i := range n {
		create(t, s, fmt.Sprintf("%s%06d", prefix, i))
	}
}

func listAt(s *memory.Store, rev int64) error {
	_, err := s.List(context.Background(), "/", store.ListOptions{Revision: rev, Match: store.Exact})
	return err
}

func requireExpired(t *testing.T, err error, requested, oldest int64) {
	t.Helper()
	var ee *store.ExpiredError
	require.ErrorAs(t, err, &ee)
	assert.Equal(t, store.ExpiredError{Requested: requested, Oldest: oldest}, *ee)
}

func TestHistoryAgesOutWithTheClock(t *testing.T) {
	clk := newClock()
	s := memory.New(memory.Config{Now: clk.Now, MaxHistoryAge: time.Minute, MinHistoryAge: -1})
	createN(t, s, "/a/", 5) // revisions 2..6 at t0
	clk.Advance(30 * time.Second)
	createN(t, s, "/b/", 2) // revisions 7..8 at t0+30s
	assert.Equal(t, int64(1), s.Oldest())

	// At t0+61s revisions 1..6 are older than a minute: the next read drops
	// them without any write (lazy eviction).
	clk.Advance(31 * time.Second)
	assert.Equal(t, int64(7), s.Oldest())
	requireExpired(t, listAt(s, 6), 6, 7)
	require.NoError(t, listAt(s, 7))
	_, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 5})
	requireExpired(t, err, 5, 7)
	w, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 6})
	require.NoError(t, err, "events after oldest-1 are all kept")
	w.Stop()

	// Long after, only the current revision is left, and it stays readable.
	clk.Advance(time.Hour)
	assert.Equal(t, int64(8), s.Oldest())
	require.NoError(t, listAt(s, 8))
	requireExpired(t, listAt(s, 7), 7, 8)

	// A write evicts by age too, keeping only itself.
	create(t, s, "/c/x")
	assert.Equal(t, int64(9), s.Oldest())
}

func TestMinHistoryAgeKeepsRevisionsPastHistoryLimit(t *testing.T) {
	clk := newClock()
	s := memory.New(memory.Config{Now: clk.Now, HistoryLimit: 3, MaxHistory: 100, MinHistoryAge: 10 * time.Second})
	createN(t, s, "/a/", 20) // revisions 2..21, all young
	assert.Equal(t, int64(1), s.Oldest(), "young revisions are kept past HistoryLimit")
	require.NoError(t, listAt(s, 1))

	clk.Advance(11 * time.Second)
	assert.Equal(t, int64(19), s.Oldest(), "once old, only HistoryLimit revisions are kept")
	requireExpired(t, listAt(s, 18), 18, 19)
}

func TestMaxHistoryCapsRevisionsWhateverTheirAge(t *testing.T) {
	clk := newClock()
	s := memory.New(memory.Config{Now: clk.Now, HistoryLimit: 3, MaxHistory: 10})
	createN(t, s, "/a/", 30) // revisions 2..31
	assert.Equal(t, int64(22), s.Oldest())
	requireExpired(t, listAt(s, 21), 21, 22)
	require.NoError(t, listAt(s, 22))
}

func TestCompactDropsHistoryBeforeARevision(t *testing.T) {
	s := memory.New(memory.Config{})
	createN(t, s, "/a/", 9) // revisions 2..10
	assert.Equal(t, int64(1), s.Oldest())

	s.Compact(5)
	assert.Equal(t, int64(5), s.Oldest())
	requireExpired(t, listAt(s, 4), 4, 5)
	res, err := s.List(t.Context(), "/a/", store.ListOptions{Revision: 5, Match: store.Exact})
	require.NoError(t, err)
	assert.Len(t, res.Items, 4)
	_, err = s.Watch(t.Context(), "/", store.WatchOptions{Revision: 3})
	requireExpired(t, err, 3, 5)
	w, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 4})
	require.NoError(t, err)
	evs, err := w.Next(t.Context())
	require.NoError(t, err)
	assert.Equal(t, int64(5), evs[0].Revision)

	// Compacting past the current revision keeps the current one.
	s.Compact(100)
	assert.Equal(t, int64(10), s.Oldest())
	require.NoError(t, listAt(s, 10))
	s.Compact(3) // never brings history back
	assert.Equal(t, int64(10), s.Oldest())
}

func TestCompactExpiresALaggingWatcherOnce(t *testing.T) {
	s := memory.New(memory.Config{})
	w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
	require.NoError(t, err)
	createN(t, s, "/a/", 5) // revisions 2..6
	s.Compact(4)
	_, err = w.Next(t.Context())
	requireExpired(t, err, 1, 4)
	_, err = w.Next(t.Context())
	requireExpired(t, err, 1, 4) // sticky: the watcher is finished
	assert.Equal(t, int64(1), w.Revision())
	w.Stop()
	_, err = w.Next(t.Context())
	assert.ErrorIs(t, err, store.ErrWatcherStopped)
}

func TestTotalCountsPrefixesAtEachRevision(t *testing.T) {
	s := memory.New(memory.Config{})
	keys := []string{
		"/apps/deployments/ns1/web", "/apps/deployments/ns1/db", "/apps/deployments/ns2/web",
		"/apps/replicasets/ns1/web-1", "/core/pods/ns1/a", "/core/pods/ns1/", "/core/x", "nohead/y",
	}
	for _, k := range keys {
		create(t, s, k)
	}
	afterCreates := s.Revision()
	_, err := s.Delete(t.Context(), "/apps/deployments/ns1/web", store.Preconditions{}, nil)
	require.NoError(t, err)
	_, err = s.Delete(t.Context(), "/core/pods/ns1/", store.Preconditions{}, nil)
	require.NoError(t, err)

	total := func(prefix string, rev int64) int64 {
		res, err := s.List(t.Context(), prefix, store.ListOptions{Revision: rev, Match: store.Exact, Limit: 1})
		require.NoError(t, err)
		return res.Total
	}
	tests := []struct {
		prefix        string
		before, after int64
	}{
		{"", 8, 6},
		{"/", 7, 5},
		{"/apps/", 4, 3},
		{"/apps/deployments/", 3, 2},
		{"/apps/deployments/ns1/", 2, 1},
		{"/apps/deployments/ns1/w", 1, 0},
		{"/apps/deployments/ns", 3, 2},
		{"/core/pods/ns1/", 2, 1},
		{"/core/", 3, 2},
		{"nohead/", 1, 1},
		{"/missing/", 0, 0},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.before, total(tt.prefix, afterCreates), "%q before the deletes", tt.prefix)
		assert.Equal(t, tt.after, total(tt.prefix, s.Revision()), "%q after the deletes", tt.prefix)
	}
}

// TestEncodingsAreSharedAcrossReads checks that every read of one version
// (Get, a List of the current or an older snapshot, a watch event) returns
// the same *store.Object, so its encoding is computed once.
func TestEncodingsAreSharedAcrossReads(t *testing.T) {
	s := memory.New(memory.Config{})
	w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
	require.NoError(t, err)
	defer w.Stop()
	o := create(t, s, "/a/x")
	createN(t, s, "/b/", 3)
	var encodes atomic.Int32
	encode := func(m meta.Object) ([]byte, error) {
		encodes.Add(1)
		return fmt.Appendf(nil, "%s@%s", m.Name(), m.ResourceVersion()), nil
	}
	type jsonKey struct{}

	var reads []*store.Object
	got, err := s.Get(t.Context(), "/a/x")
	require.NoError(t, err)
	reads = append(reads, got)
	res, err := s.List(t.Context(), "/a/", store.ListOptions{})
	require.NoError(t, err)
	reads = append(reads, res.Items...)
	res, err = s.List(t.Context(), "/a/", store.ListOptions{Revision: o.Revision(), Match: store.Exact})
	require.NoError(t, err)
	reads = append(reads, res.Items...)
	evs, err := w.Next(t.Context())
	require.NoError(t, err)
	reads = append(reads, evs[0].Object)

	var wg sync.WaitGroup
	for _, r := range reads {
		require.Same(t, o, r)
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := r.Encoded(jsonKey{}, encode)
			assert.NoError(t, err)
			assert.Equal(t, "/a/x@2", string(b))
		}()
	}
	wg.Wait()
	assert.Equal(t, int32(1), encodes.Load())
}

func TestUpdateStampsOnlyTheNewVersion(t *testing.T) {
	s := memory.New(memory.Config{})
	v1 := create(t, s, "/a/x")
	v2, err := s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		next := cur.Data().DeepCopy()
		next.SetMetadataField("labels", map[string]any{"a": "b"})
		return next, nil
	})
	require.NoError(t, err)
	assert.Equal(t, "2", v1.Data().ResourceVersion())
	assert.Nil(t, v1.Data().Labels())
	assert.Equal(t, "3", v2.Data().ResourceVersion())
	assert.Equal(t, map[string]string{"a": "b"}, v2.Data().Labels())
}

func TestInvalidRequestsAreErrors(t *testing.T) {
	s := memory.New(memory.Config{})
	create(t, s, "/a/x")
	_, err := s.Create(t.Context(), "/a/y", nil)
	assert.Error(t, err)
	_, err = s.Update(t.Context(), "/a/x", store.UpdateOptions{}, func(*store.Object) (meta.Object, error) { return nil, nil })
	assert.Error(t, err)
	_, err = s.List(t.Context(), "/a/", store.ListOptions{Limit: -1})
	assert.Error(t, err)
	_, err = s.List(t.Context(), "/a/", store.ListOptions{Revision: -1})
	assert.Error(t, err)
	_, err = s.List(t.Context(), "/a/", store.ListOptions{Match: 7, Revision: 1})
	assert.Error(t, err)
	_, err = s.Watch(t.Context(), "/a/", store.WatchOptions{Revision: -1})
	assert.Error(t, err)
	assert.Equal(t, int64(2), s.Revision())

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = s.Create(ctx, "/a/z", obj("z"))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, int64(2), s.Revision(), "a cancelled write writes nothing")
}

func TestFutureWaitBoundsTheWaitForARevision(t *testing.T) {
	s := memory.New(memory.Config{FutureWait: 20 * time.Millisecond})
	began := time.Now()
	_, err := s.List(t.Context(), "/", store.ListOptions{Revision: 5})
	var fe *store.FutureRevisionError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, store.FutureRevisionError{Requested: 5, Current: 1}, *fe)
	assert.GreaterOrEqual(t, time.Since(began), 20*time.Millisecond)

	s = memory.New(memory.Config{FutureWait: -1})
	_, err = s.Watch(t.Context(), "/", store.WatchOptions{Revision: 5})
	require.ErrorAs(t, err, &fe)
}

func TestWatcherReadsLongHistoriesInBatches(t *testing.T) {
	s := memory.New(memory.Config{})
	createN(t, s, "/a/", 250)
	createN(t, s, "/b/", 250)
	w, err := s.Watch(t.Context(), "/b/", store.WatchOptions{Revision: 1})
	require.NoError(t, err)
	defer w.Stop()
	var got []store.Event
	for len(got) < 250 {
		evs, err := w.Next(t.Context())
		require.NoError(t, err)
		assert.LessOrEqual(t, len(evs), 100)
		got = append(got, evs...)
	}
	assert.Equal(t, int64(252), got[0].Revision, "the first 250 revisions were skipped")
	assert.Equal(t, s.Revision(), w.Revision())
}

// FuzzListPaging drives the store with creates and deletes of keys built
// from the input, then checks every prefix of every key: the pages of any
// Limit, with and without a Filter, add up to a brute-force List, and
// Total matches a brute-force count (which exercises the per-prefix count
// tree on odd keys: empty segments, trailing slashes, no leading slash).
func FuzzListPaging(f *testing.F) {
	f.Add([]byte("/a/b/c\x00/a/b\x00/a/bc/\x00/a/b/c\x00//x\x00/a/"), uint8(2))
	f.Add([]byte("/apps/deployments/ns1/web\x00/apps/deployments/ns1/db\x00/apps/x\x00no/slash"), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		s := memory.New(memory.Config{})
		live := map[string]bool{}
		for _, k := range strings.Split(string(data), "\x00") {
			if k == "" {
				continue
			}
			if live[k] {
				_, err := s.Delete(t.Context(), k, store.Preconditions{}, nil)
				require.NoError(t, err)
				delete(live, k)
			} else {
				_, err := s.Create(t.Context(), k, obj(k))
				require.NoError(t, err)
				live[k] = true
			}
		}
		sorted := slices.Sorted(maps.Keys(live))
		prefixes := map[string]bool{"": true}
		for _, k := range sorted {
			for i := 0; i <= len(k); i++ {
				prefixes[k[:i]] = true
			}
		}
		odd := func(o *store.Object) bool { return len(o.Key())%2 == 1 }
		for p := range prefixes {
			var want, wantOdd []string
			for _, k := range sorted {
				if strings.HasPrefix(k, p) {
					want = append(want, k)
					if len(k)%2 == 1 {
						wantOdd = append(wantOdd, k)
					}
				}
			}
			for _, filter := range []func(*store.Object) bool{nil, odd} {
				var got []string
				opts := store.ListOptions{Limit: int(limit % 8), Filter: filter}
				for pages := 0; ; pages++ {
					require.LessOrEqual(t, pages, len(want)+1, "paging %q does not end", p)
					res, err := s.List(t.Context(), p, opts)
					require.NoError(t, err)
					require.Equal(t, int64(len(want)), res.Total, "total under %q", p)
					if opts.Limit > 0 {
						require.LessOrEqual(t, len(res.Items), opts.Limit)
					}
					for _, o := range res.Items {
						got = append(got, o.Key())
					}
					if res.Next == "" {
						break
					}
					opts.Start, opts.Revision, opts.Match = res.Next, res.Revision, store.Exact
				}
				expected := want
				if filter != nil {
					expected = wantOdd
				}
				require.Equal(t, len(expected), len(got), "prefix %q", p)
				if len(expected) > 0 {
					require.Equal(t, expected, got, "prefix %q", p)
				}
			}
		}
	})
}
