package memory_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

func version(key string, rev int64) *store.Object {
	return store.NewObject(key, rev, meta.Object{"metadata": map[string]any{"name": key}}.WithResourceVersion(rev))
}

func TestReplicaStartsAtTheRevisionItIsGiven(t *testing.T) {
	s, err := memory.NewReplica(memory.Config{}, 10, []*store.Object{version("/a/x", 3), version("/a/y", 7)})
	require.NoError(t, err)
	assert.Equal(t, int64(10), s.Revision())
	res, err := s.List(t.Context(), "/a/", store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(10), res.Revision)
	assert.Equal(t, int64(2), res.Total)
	assert.Equal(t, []string{"/a/x", "/a/y"}, []string{res.Items[0].Key(), res.Items[1].Key()})

	_, err = memory.NewReplica(memory.Config{}, 5, []*store.Object{version("/a/x", 6)})
	assert.Error(t, err, "an object newer than the replica")
	_, err = memory.NewReplica(memory.Config{}, 5, []*store.Object{version("/a/x", 2), version("/a/x", 3)})
	assert.Error(t, err, "a key given twice")
}

func TestReplicaApplyRecordsSkippedRevisionsAsEmpty(t *testing.T) {
	s, err := memory.NewReplica(memory.Config{}, 1, nil)
	require.NoError(t, err)
	w, err := s.Watch(t.Context(), "/a/", store.WatchOptions{Revision: 1})
	require.NoError(t, err)
	defer w.Stop()

	ev, err := s.Apply("/a/x", 4, version("/a/x", 4))
	require.NoError(t, err)
	assert.Equal(t, store.Added, ev.Type)
	ev, err = s.Apply("/a/x", 6, version("/a/x", 6))
	require.NoError(t, err)
	assert.Equal(t, store.Modified, ev.Type)
	assert.Equal(t, int64(4), ev.Prev.Revision())
	ev, err = s.Apply("/a/x", 9, nil)
	require.NoError(t, err)
	assert.Equal(t, store.Deleted, ev.Type)
	assert.Equal(t, "9", ev.Object.Data().ResourceVersion())
	ev, err = s.Apply("/a/absent", 10, nil)
	require.NoError(t, err)
	assert.Nil(t, ev.Object, "deleting an absent key publishes nothing")
	s.Advance(12)
	assert.Equal(t, int64(12), s.Revision())

	var got []int64
	for w.Revision() < 12 {
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		evs, err := w.Next(ctx)
		cancel()
		require.NoError(t, err)
		for _, e := range evs {
			got = append(got, e.Revision)
		}
	}
	assert.Equal(t, []int64{4, 6, 9}, got, "empty revisions are skipped, not delivered")

	for rev, want := range map[int64]int{2: 0, 3: 0, 4: 1, 5: 1, 7: 1, 9: 0, 11: 0} {
		res, err := s.List(t.Context(), "/", store.ListOptions{Revision: rev, Match: store.Exact})
		require.NoError(t, err)
		assert.Equal(t, rev, res.Revision)
		assert.Len(t, res.Items, want, "revision %d", rev)
	}
	_, err = s.Apply("/a/y", 12, version("/a/y", 12))
	assert.Error(t, err, "a revision not above the current one")
}

func TestReplicaAdvanceWakesWaiters(t *testing.T) {
	s, err := memory.NewReplica(memory.Config{}, 1, nil)
	require.NoError(t, err)
	go func() {
		time.Sleep(10 * time.Millisecond)
		s.Advance(5)
	}()
	res, err := s.List(t.Context(), "/", store.ListOptions{Revision: 5, Match: store.NotOlderThan})
	require.NoError(t, err)
	assert.Equal(t, int64(5), res.Revision)
}

func TestReplicaGapLongerThanTheHistoryExpiresWatchersBehindIt(t *testing.T) {
	s, err := memory.NewReplica(memory.Config{HistoryLimit: 10, MaxHistory: 10, MinHistoryAge: -1}, 1, nil)
	require.NoError(t, err)
	w, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 1})
	require.NoError(t, err)
	defer w.Stop()
	s.Advance(100)
	assert.Equal(t, int64(91), s.Oldest())
	_, err = w.Next(t.Context())
	var ee *store.ExpiredError
	require.ErrorAs(t, err, &ee)
}
