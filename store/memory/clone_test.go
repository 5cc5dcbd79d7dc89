package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
	"github.com/kapi-dev/kapi/store/storetest"
)

func TestACloneStartsWithTheObjectsAndRevisionAndNoHistory(t *testing.T) {
	s := memory.New(memory.Config{})
	createN(t, s, "/a/", 3) // revisions 2..4
	c := s.Clone()
	assert.Equal(t, int64(4), c.Revision())
	assert.Equal(t, int64(4), c.Oldest())
	res, err := c.List(t.Context(), "/a/", store.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, res.Items, 3)
	assert.EqualValues(t, 3, res.Total)
	requireExpired(t, listAt(c, 3), 3, 4)
}

func TestACloneAndItsOriginalNeverSeeEachOthersWrites(t *testing.T) {
	s := memory.New(memory.Config{})
	createN(t, s, "/a/", 2)
	c := s.Clone()
	w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
	require.NoError(t, err)
	defer w.Stop()

	create(t, c, "/b/only-in-clone")
	create(t, s, "/b/only-in-original")
	_, err = s.Get(t.Context(), "/b/only-in-clone")
	require.ErrorIs(t, err, store.ErrNotFound)
	_, err = c.Get(t.Context(), "/b/only-in-original")
	require.ErrorIs(t, err, store.ErrNotFound)
	assert.Equal(t, int64(4), c.Revision())
	assert.Equal(t, int64(4), s.Revision())

	evs, err := w.Next(t.Context())
	require.NoError(t, err)
	require.Len(t, evs, 1)
	assert.Equal(t, "/b/only-in-original", evs[0].Object.Key())
	res, err := c.List(t.Context(), "/", store.ListOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, res.Total)
}

func TestACloneOfAnEmptyStorePassesTheConformanceSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T, opts storetest.Options) store.Store {
		cfg := memory.Config{}
		if opts.HistoryLimit > 0 {
			cfg = memory.Config{HistoryLimit: opts.HistoryLimit, MaxHistory: opts.HistoryLimit, MinHistoryAge: -1}
		}
		return memory.New(cfg).Clone()
	})
}
