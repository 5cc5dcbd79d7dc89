package storetest

import (
	"context"
	"sync"
	"testing"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// testBulkDelete holds a store.BulkDeleter to one Delete per object: the
// same revisions, events, state and snapshots.
func testBulkDelete(t *testing.T, newStore Factory) {
	bulk := func(t *testing.T) (store.Store, store.BulkDeleter) {
		s := newStore(t, Options{})
		b, ok := s.(store.BulkDeleter)
		if !ok {
			t.Skip("the store has no bulk delete")
		}
		return s, b
	}
	// fill creates n objects under /a/ and one under /b/, and returns the
	// listed versions under /a/.
	fill := func(t *testing.T, s store.Store, n int) []*store.Object {
		for i := range n {
			mustCreate(t, s, "/a/"+name(i), "i", name(i))
		}
		mustCreate(t, s, "/b/"+name(0))
		return mustList(t, s, "/a/", store.ListOptions{}).Items
	}

	t.Run("DeleteVersions deletes each version in order, one revision each, as Delete does", func(t *testing.T) {
		s, b := bulk(t)
		items := fill(t, s, 5)
		before := s.Revision()
		out, err := b.DeleteVersions(t.Context(), items)
		require.NoError(t, err)
		require.Len(t, out, len(items))
		for i, o := range out {
			require.NotNil(t, o, "item %d", i)
			check.Equal(t, items[i].Key(), o.Key())
			check.Equal(t, before+int64(i)+1, o.Revision())
			check.Equal(t, rv(before+int64(i)+1), o.Data().ResourceVersion())
			check.Equal(t, dataOf(items[i], "i"), dataOf(o, "i"), "the deleted state is the last one")
			check.Equal(t, items[i].Data().UID(), o.Data().UID())
			_, err := s.Get(t.Context(), items[i].Key())
			check.ErrorIs(t, err, store.ErrNotFound)
		}
		check.Equal(t, before+int64(len(items)), s.Revision())
		res := mustList(t, s, "/", store.ListOptions{})
		check.Equal(t, []string{"/b/" + name(0)}, keys(res.Items))
		check.Equal(t, int64(1), res.Total)
		check.Equal(t, int64(0), mustList(t, s, "/a/", store.ListOptions{}).Total)
	})

	t.Run("DeleteVersions leaves a version written or deleted since it was read, and says so", func(t *testing.T) {
		s, b := bulk(t)
		items := fill(t, s, 4)
		updated := mustSet(t, s, items[1].Key(), "k", "changed")
		mustDelete(t, s, items[2].Key())
		before := s.Revision()
		out, err := b.DeleteVersions(t.Context(), items)
		require.NoError(t, err)
		require.Len(t, out, 4)
		check.NotNil(t, out[0])
		check.Nil(t, out[1], "written since read")
		check.Nil(t, out[2], "deleted since read")
		check.NotNil(t, out[3])
		check.Equal(t, before+1, out[0].Revision())
		check.Equal(t, before+2, out[3].Revision(), "skipped objects take no revision")
		got, err := s.Get(t.Context(), items[1].Key())
		require.NoError(t, err)
		check.Equal(t, versionOf(updated), versionOf(got))
	})

	t.Run("watchers see one Deleted event per object, in order, with the version deleted", func(t *testing.T) {
		s, b := bulk(t)
		items := fill(t, s, 300) // more than one chunk of a batching store
		w, err := s.Watch(t.Context(), "/a/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		out, err := b.DeleteVersions(t.Context(), items)
		require.NoError(t, err)
		evs := collect(t, w, s.Revision())
		require.Len(t, evs, len(items))
		for i, ev := range evs {
			check.Equal(t, store.Deleted, ev.Type)
			check.Equal(t, out[i].Revision(), ev.Revision)
			check.Equal(t, versionOf(out[i]), versionOf(ev.Object))
			check.Equal(t, versionOf(items[i]), versionOf(ev.Prev))
		}
	})

	t.Run("an Exact List at each revision of a bulk delete sees the deletes up to it", func(t *testing.T) {
		s, b := bulk(t)
		items := fill(t, s, 6)
		out, err := b.DeleteVersions(t.Context(), items)
		require.NoError(t, err)
		for i, o := range out {
			res := listAll(t, s, "/a/", o.Revision())
			check.Equal(t, keys(items[i+1:]), keys(res.Items), "at revision %d", o.Revision())
			check.Equal(t, int64(len(items)-i-1), res.Total)
		}
	})

	t.Run("Exact Lists inside a bulk delete, through an index and at once, see the deletes up to their revision", func(t *testing.T) {
		s, b := bulk(t)
		ix, indexed := s.(store.Indexer)
		if indexed {
			require.NoError(t, ix.AddIndex("node", byNode))
		}
		for i := range 300 {
			mustCreate(t, s, "/a/"+name(i), "node", []string{"n1", "n2"}[i%2])
		}
		items := mustList(t, s, "/a/", store.ListOptions{}).Items
		out, err := b.DeleteVersions(t.Context(), items)
		require.NoError(t, err)
		var wg sync.WaitGroup
		for i := 0; i < len(out); i += 7 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				opts := store.ListOptions{Revision: out[i].Revision(), Match: store.Exact, Filter: func(o *store.Object) bool {
					return dataOf(o, "node") == "n2"
				}, Index: "node", IndexValue: "n2"}
				res, err := s.List(context.Background(), "/a/", opts)
				if !check.NoError(t, err) {
					return
				}
				var want []string
				for _, o := range items[i+1:] {
					if dataOf(o, "node") == "n2" {
						want = append(want, o.Key())
					}
				}
				check.Equal(t, want, nonNil(keys(res.Items)), "at revision %d", out[i].Revision())
				check.Equal(t, int64(len(items)-i-1), res.Total)
			}()
		}
		wg.Wait()
	})

	t.Run("the bulk delete and one Delete each leave the same history", func(t *testing.T) {
		s1, b := bulk(t)
		s2 := newStore(t, Options{})
		var items []*store.Object
		for _, s := range []store.Store{s1, s2} {
			items = fill(t, s, 20)
			mustSet(t, s, items[3].Key(), "k", "v") // skipped by the bulk delete, kept by both
		}
		start := s1.Revision()
		require.Equal(t, start, s2.Revision())
		w1, err := s1.Watch(t.Context(), "/", store.WatchOptions{Revision: start})
		require.NoError(t, err)
		defer w1.Stop()
		w2, err := s2.Watch(t.Context(), "/", store.WatchOptions{Revision: start})
		require.NoError(t, err)
		defer w2.Stop()
		_, err = b.DeleteVersions(t.Context(), mustList(t, s1, "/a/", store.ListOptions{Revision: start - 1, Match: store.Exact}).Items)
		require.NoError(t, err)
		for i, o := range mustList(t, s2, "/a/", store.ListOptions{Revision: start - 1, Match: store.Exact}).Items {
			if i != 3 {
				mustDelete(t, s2, o.Key())
			}
		}
		require.Equal(t, s2.Revision(), s1.Revision())
		check.Equal(t, events(collect(t, w2, s2.Revision())), events(collect(t, w1, s1.Revision())))
		check.Equal(t, versions(listAll(t, s2, "/", 0).Items), versions(listAll(t, s1, "/", 0).Items))
	})

	t.Run("a done context deletes nothing", func(t *testing.T) {
		s, b := bulk(t)
		items := fill(t, s, 3)
		before := s.Revision()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := b.DeleteVersions(ctx, items)
		check.ErrorIs(t, err, context.Canceled)
		check.Equal(t, before, s.Revision())
	})

	t.Run("concurrent updates are never lost: each object is either deleted or keeps its update", func(t *testing.T) {
		s, b := bulk(t)
		items := fill(t, s, 200)
		var wg sync.WaitGroup
		updated := make([]bool, len(items))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := len(items) - 1; i >= 0; i -= 3 {
				_, err := s.Update(context.Background(), items[i].Key(), store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					return withData(cur, "k", "updated"), nil
				})
				updated[i] = err == nil
			}
		}()
		out, err := b.DeleteVersions(t.Context(), items)
		wg.Wait()
		require.NoError(t, err)
		for i, o := range out {
			cur, getErr := s.Get(t.Context(), items[i].Key())
			if o != nil {
				check.ErrorIs(t, getErr, store.ErrNotFound, "deleted: %s", items[i].Key())
				continue
			}
			require.NoError(t, getErr, "kept: %s", items[i].Key())
			check.True(t, updated[i])
			check.Equal(t, "updated", dataOf(cur, "k"))
		}
	})
}

// eventView is what the suite compares of an event.
type eventView struct {
	Type     store.EventType
	Revision int64
	Object   version
	Prev     version
}

func events(evs []store.Event) []eventView {
	out := make([]eventView, len(evs))
	for i, ev := range evs {
		out[i] = eventView{ev.Type, ev.Revision, versionOf(ev.Object), versionOf(ev.Prev)}
	}
	return out
}

// nonNil is nil for an empty list, as the expectations build them.
func nonNil(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	return l
}
