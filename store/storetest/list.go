package storetest

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

func testList(t *testing.T, newStore Factory) {
	t.Run("List returns exactly the keys under the prefix, in key order", func(t *testing.T) {
		s := newStore(t, Options{})
		all := []string{"/a/b/y", "/a/bc/z", "/a/b/x", "/a/b", "/a/b/x/deeper", "/a/ba", "/b/b/x", "/a/b/"}
		for _, k := range all {
			mustCreate(t, s, k)
		}
		tests := []struct {
			prefix string
			want   []string
		}{
			{"/a/b/", []string{"/a/b/", "/a/b/x", "/a/b/x/deeper", "/a/b/y"}},
			{"/a/bc/", []string{"/a/bc/z"}},
			{"/a/b", []string{"/a/b", "/a/b/", "/a/b/x", "/a/b/x/deeper", "/a/b/y", "/a/ba", "/a/bc/z"}},
			{"/a/b/x", []string{"/a/b/x", "/a/b/x/deeper"}},
			{"/a/c/", nil},
			{"/", []string{"/a/b", "/a/b/", "/a/b/x", "/a/b/x/deeper", "/a/b/y", "/a/ba", "/a/bc/z", "/b/b/x"}},
			{"", []string{"/a/b", "/a/b/", "/a/b/x", "/a/b/x/deeper", "/a/b/y", "/a/ba", "/a/bc/z", "/b/b/x"}},
		}
		for _, tt := range tests {
			res := mustList(t, s, tt.prefix, store.ListOptions{})
			check.Equal(t, tt.want, nilIfEmpty(keys(res.Items)), "prefix %q", tt.prefix)
			check.Equal(t, int64(len(tt.want)), res.Total, "total under %q", tt.prefix)
			check.Empty(t, res.Next, "prefix %q", tt.prefix)
			check.Equal(t, s.Revision(), res.Revision)
		}
	})

	t.Run("List returns each object's newest version", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x", "k", "1")
		mustCreate(t, s, "/a/y", "k", "1")
		x := mustSet(t, s, "/a/x", "k", "2")
		y, err := s.Get(t.Context(), "/a/y")
		require.NoError(t, err)
		res := mustList(t, s, "/a/", store.ListOptions{})
		check.Equal(t, []version{versionOf(x), versionOf(y)}, versions(res.Items))
	})

	t.Run("Limit and Next page through one revision while writes continue", func(t *testing.T) {
		s := newStore(t, Options{})
		for i := range 40 {
			mustCreate(t, s, "/p/"+name(2*i), "i", "0")
		}
		want := mustList(t, s, "/p/", store.ListOptions{})

		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(1, 2))
			for i := range 400 { // bounded, to stay inside any backend's history
				select {
				case <-stop:
					return
				default:
				}
				k := "/p/" + name(rng.IntN(80))
				switch rng.IntN(3) {
				case 0:
					_, _ = s.Create(t.Context(), k, object(keyName(k)))
				case 1:
					_, _ = s.Delete(t.Context(), k, store.Preconditions{}, nil)
				default:
					_, _ = s.Update(t.Context(), k, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
						return withData(cur, "i", "changed"), nil
					})
				}
				if i%8 == 0 {
					time.Sleep(time.Millisecond) // let the pages interleave with writes
				}
			}
		}()

		var got []*store.Object
		opts := store.ListOptions{Limit: 7}
		pages := 0
		for {
			res := mustList(t, s, "/p/", opts)
			if pages == 0 {
				check.GreaterOrEqual(t, res.Revision, want.Revision)
				opts.Revision, opts.Match = res.Revision, store.Exact
				// The first page may already see concurrent writes: read the
				// reference state at its revision after the fact.
				want = mustList(t, s, "/p/", store.ListOptions{Revision: res.Revision, Match: store.Exact})
			}
			pages++
			require.Equal(t, opts.Revision, res.Revision, "every page comes from the first page's revision")
			require.LessOrEqual(t, len(res.Items), 7)
			check.Equal(t, want.Total, res.Total)
			got = append(got, res.Items...)
			if res.Next == "" {
				break
			}
			require.Len(t, res.Items, 7, "only the last page may be short")
			opts.Start = res.Next
			time.Sleep(time.Millisecond)
		}
		close(stop)
		wg.Wait()
		check.Equal(t, versions(want.Items), versions(got))
		check.Equal(t, (len(want.Items)+6)/7, pages)
	})

	t.Run("a page ending on the last object has no Next", func(t *testing.T) {
		s := newStore(t, Options{})
		for i := range 6 {
			mustCreate(t, s, "/p/"+name(i))
		}
		mustCreate(t, s, "/q/after")
		res := mustList(t, s, "/p/", store.ListOptions{Limit: 6})
		check.Len(t, res.Items, 6)
		check.Empty(t, res.Next)
		res = mustList(t, s, "/p/", store.ListOptions{Limit: 3})
		check.Equal(t, []string{"/p/k000", "/p/k001", "/p/k002"}, keys(res.Items))
		check.Equal(t, "/p/k003", res.Next)
	})

	t.Run("Start resumes at the given key, inclusive, and must lie under the prefix", func(t *testing.T) {
		s := newStore(t, Options{})
		for i := range 5 {
			mustCreate(t, s, "/p/"+name(i))
		}
		res := mustList(t, s, "/p/", store.ListOptions{Start: "/p/k002"})
		check.Equal(t, []string{"/p/k002", "/p/k003", "/p/k004"}, keys(res.Items))
		check.Equal(t, int64(5), res.Total, "Total ignores Start")
		res = mustList(t, s, "/p/", store.ListOptions{Start: "/p/k0025"})
		check.Equal(t, []string{"/p/k003", "/p/k004"}, keys(res.Items))
		_, err := s.List(t.Context(), "/p/", store.ListOptions{Start: "/q/k000"})
		check.Error(t, err)
		_, err = s.List(t.Context(), "/p/", store.ListOptions{Start: "/a/"})
		check.Error(t, err)
	})

	t.Run("Filter keeps only accepted objects and Limit counts only them", func(t *testing.T) {
		s := newStore(t, Options{})
		var want []string
		for i := range 30 {
			k := "/p/" + name(i)
			mustCreate(t, s, k)
			if i%3 == 0 {
				want = append(want, k)
			}
		}
		var got []string
		opts := store.ListOptions{Limit: 4, Filter: func(o *store.Object) bool {
			i, err := strconv.Atoi(keyName(o.Key())[1:])
			return err == nil && i%3 == 0
		}}
		for pages := 0; ; pages++ {
			require.Less(t, pages, 30, "paging does not end")
			res := mustList(t, s, "/p/", opts)
			require.LessOrEqual(t, len(res.Items), 4)
			check.Equal(t, int64(30), res.Total, "Total ignores Filter and Limit")
			got = append(got, keys(res.Items)...)
			if res.Next == "" {
				break
			}
			require.Len(t, res.Items, 4, "a page with a Next holds Limit matches")
			check.Greater(t, res.Next, keys(res.Items)[3], "Next must be after the page")
			opts.Revision, opts.Match, opts.Start = res.Revision, store.Exact, res.Next
		}
		check.Equal(t, want, got)
	})

	t.Run("Exact reads the snapshot at an old revision", func(t *testing.T) {
		s := newStore(t, Options{})
		a2 := mustCreate(t, s, "/a/a", "k", "1")
		b3 := mustCreate(t, s, "/a/b", "k", "1")
		a4 := mustSet(t, s, "/a/a", "k", "2")
		mustDelete(t, s, "/a/b")
		c6 := mustCreate(t, s, "/a/c")
		tests := []struct {
			rev  int64
			want []*store.Object
		}{
			{1, nil},
			{2, []*store.Object{a2}},
			{3, []*store.Object{a2, b3}},
			{4, []*store.Object{a4, b3}},
			{5, []*store.Object{a4}},
			{6, []*store.Object{a4, c6}},
		}
		for _, tt := range tests {
			res := mustList(t, s, "/a/", store.ListOptions{Revision: tt.rev, Match: store.Exact})
			check.Equal(t, tt.rev, res.Revision)
			check.Equal(t, versions(tt.want), versions(res.Items), "revision %d", tt.rev)
			check.Equal(t, int64(len(tt.want)), res.Total, "total at revision %d", tt.rev)
		}
	})

	t.Run("NotOlderThan a past revision reads the current snapshot", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/a")
		mustCreate(t, s, "/a/b")
		res := mustList(t, s, "/a/", store.ListOptions{Revision: 2, Match: store.NotOlderThan})
		check.Equal(t, int64(3), res.Revision)
		check.Len(t, res.Items, 2)
	})

	t.Run("Exact below the history kept is ExpiredError", func(t *testing.T) {
		s := newStore(t, Options{HistoryLimit: 3})
		for i := range 10 {
			mustCreate(t, s, "/a/"+name(i))
		}
		_, err := s.List(t.Context(), "/a/", store.ListOptions{Revision: 2, Match: store.Exact})
		var ee *store.ExpiredError
		require.ErrorAs(t, err, &ee)
		check.Equal(t, int64(2), ee.Requested)
		check.Greater(t, ee.Oldest, int64(2))
		check.LessOrEqual(t, ee.Oldest, s.Revision())
		// The current revision stays readable by Exact, and so does the
		// oldest the error reports.
		res := mustList(t, s, "/a/", store.ListOptions{Revision: s.Revision(), Match: store.Exact})
		check.Len(t, res.Items, 10)
		res = mustList(t, s, "/a/", store.ListOptions{Revision: ee.Oldest, Match: store.Exact})
		check.Len(t, res.Items, int(ee.Oldest-1))
	})

	t.Run("a future revision fails with FutureRevisionError once ctx is done", func(t *testing.T) {
		for _, match := range []store.RevisionMatch{store.NotOlderThan, store.Exact} {
			s := newStore(t, Options{})
			mustCreate(t, s, "/a/x")
			ctx, cancel := context.WithTimeout(t.Context(), waitShort)
			began := time.Now()
			_, err := s.List(ctx, "/a/", store.ListOptions{Revision: 7, Match: match})
			cancel()
			var fe *store.FutureRevisionError
			require.ErrorAs(t, err, &fe, "match %d", match)
			check.Equal(t, int64(7), fe.Requested)
			check.Equal(t, int64(2), fe.Current)
			check.Less(t, time.Since(began), waitLong/2, "the wait must end with ctx")
		}
	})

	t.Run("a future revision reached while waiting is served", func(t *testing.T) {
		for _, match := range []store.RevisionMatch{store.NotOlderThan, store.Exact} {
			s := newStore(t, Options{})
			mustCreate(t, s, "/a/x")
			go func() {
				time.Sleep(10 * time.Millisecond)
				_, _ = s.Create(t.Context(), "/a/y", object("y"))
				_, _ = s.Create(t.Context(), "/a/z", object("z"))
				_, _ = s.Create(t.Context(), "/a/zz", object("zz"))
			}()
			ctx, cancel := context.WithTimeout(t.Context(), waitLong)
			res, err := s.List(ctx, "/a/", store.ListOptions{Revision: 4, Match: match})
			cancel()
			require.NoError(t, err, "match %d", match)
			if match == store.Exact {
				check.Equal(t, int64(4), res.Revision)
				check.Equal(t, []string{"/a/x", "/a/y", "/a/z"}, keys(res.Items))
			} else {
				check.GreaterOrEqual(t, res.Revision, int64(4))
			}
		}
	})

	t.Run("Total counts every object under the prefix, ignoring Start, Limit and Filter", func(t *testing.T) {
		s := newStore(t, Options{})
		rng := rand.New(rand.NewPCG(3, 4))
		live := map[string]bool{}
		groups := []string{"/apps/deployments/ns1/", "/apps/deployments/ns2/", "/apps/replicasets/ns1/", "/core/pods/ns1/", "/core/pods/ns10/"}
		for range 300 {
			k := groups[rng.IntN(len(groups))] + name(rng.IntN(20))
			if live[k] {
				mustDelete(t, s, k)
				delete(live, k)
			} else {
				mustCreate(t, s, k)
				live[k] = true
			}
		}
		prefixes := []string{"", "/", "/apps/", "/apps/deployments/", "/apps/deployments/ns1/", "/core/pods/ns1",
			"/core/pods/ns1/", "/core/pods/ns1/k01", "/apps/deployments/ns1/k005", "/nothing/", "/apps"}
		for _, p := range prefixes {
			var want int64
			for k := range live {
				if strings.HasPrefix(k, p) {
					want++
				}
			}
			res := mustList(t, s, p, store.ListOptions{Limit: 1, Filter: func(*store.Object) bool { return false }})
			check.Equal(t, want, res.Total, "prefix %q", p)
			check.Empty(t, res.Items)
		}
	})
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

func testSnapshots(t *testing.T, newStore Factory) {
	// Modelled on google/btree's TestCloneConcurrentOperationsG: writers keep
	// changing the store while readers read old and new revisions; every
	// revision read once must read the same later, and old snapshots never
	// see later writes.
	t.Run("readers of an old revision never see later writes", func(t *testing.T) {
		s := newStore(t, Options{})
		for i := range 100 {
			mustCreate(t, s, "/s/"+name(i), "gen", "0")
		}
		base := listAll(t, s, "/s/", 0)
		require.Len(t, base.Items, 100)

		const writers, writes, readers = 3, 150, 3
		var wg sync.WaitGroup
		var writersDone sync.WaitGroup
		for w := range writers {
			wg.Add(1)
			writersDone.Add(1)
			go func() {
				defer wg.Done()
				defer writersDone.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 5))
				for range writes {
					k := "/s/" + name(rng.IntN(120))
					switch rng.IntN(4) {
					case 0:
						_, _ = s.Delete(t.Context(), k, store.Preconditions{}, nil)
					case 1:
						_, _ = s.Create(t.Context(), k, object(keyName(k), "gen", "new"))
					default:
						_, _ = s.Update(t.Context(), k, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
							return withData(cur, "gen", "next"), nil
						})
					}
				}
			}()
		}
		done := make(chan struct{})
		go func() { writersDone.Wait(); close(done) }()

		type seen struct {
			rev   int64
			items []version
		}
		results := make([][]seen, readers)
		for r := range readers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Every reader reads at least once, however soon the
				// writers finish.
				for first := true; ; first = false {
					if !first {
						select {
						case <-done:
							return
						default:
						}
					}
					old, err := s.List(t.Context(), "/s/", store.ListOptions{Revision: base.Revision, Match: store.Exact})
					if !check.NoError(t, err) || !check.Equal(t, versions(base.Items), versions(old.Items)) {
						return
					}
					now, err := s.List(t.Context(), "/s/", store.ListOptions{})
					if !check.NoError(t, err) {
						return
					}
					for _, o := range now.Items {
						check.LessOrEqual(t, o.Revision(), now.Revision, "an object newer than its list")
					}
					check.Equal(t, now.Total, int64(len(now.Items)))
					results[r] = append(results[r], seen{now.Revision, versions(now.Items)})
				}
			}()
		}
		wg.Wait()
		require.False(t, t.Failed())

		checked := 0
		for _, rs := range results {
			for _, r := range rs {
				again := mustList(t, s, "/s/", store.ListOptions{Revision: r.rev, Match: store.Exact})
				require.Equal(t, r.items, versions(again.Items), "revision %d read differently later", r.rev)
				checked++
			}
		}
		check.Positive(t, checked)
		old := mustList(t, s, "/s/", store.ListOptions{Revision: base.Revision, Match: store.Exact})
		check.Equal(t, versions(base.Items), versions(old.Items))
		check.Equal(t, int64(100), old.Total)
	})

	t.Run("objects returned earlier never change", func(t *testing.T) {
		s := newStore(t, Options{})
		v1 := mustCreate(t, s, "/a/x", "k", "1")
		snap := versionOf(v1)
		got, err := s.Get(t.Context(), "/a/x")
		require.NoError(t, err)
		mustSet(t, s, "/a/x", "k", "2")
		mustDelete(t, s, "/a/x")
		check.Equal(t, snap, versionOf(v1))
		check.Equal(t, snap, versionOf(got))
		check.Equal(t, "1", dataOf(got, "k"))
		check.Equal(t, "2", got.Data().ResourceVersion())
	})
}
