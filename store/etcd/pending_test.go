package etcd

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// Writes of this process are applied in revision order by whoever brings
// the cache to the revision before them, and never across a revision the
// cache has not seen. The writes here are made up (no transaction wrote
// them), so the store is closed before etcd's next revisions could come.
func TestPendingWritesAreAppliedInOrderUpToTheFirstMissingRevision(t *testing.T) {
	cli := etcdtest.Start(t).Client(t)
	s, err := New(context.Background(), Config{Client: cli})
	require.NoError(t, err)
	defer s.Close()
	gen := s.gen.Load()
	r := gen.cache.Revision()
	obj := func(name string, rev int64) *store.Object {
		return store.NewObject("/configmaps/ns/"+name, rev, meta.Object{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "ns"}})
	}
	s.pending.Store(r+2, ownWrite{"/configmaps/ns/b", obj("b", r+2)})
	s.pending.Store(r+4, ownWrite{"/configmaps/ns/d", obj("d", r+4)})

	s.applyPending()
	assert.Equal(t, r, gen.cache.Revision(), "the revision before the first pending write is not in the cache yet")

	s.pending.Store(r+1, ownWrite{"/configmaps/ns/a", obj("a", r+1)})
	s.applyPending()
	assert.Equal(t, r+2, gen.cache.Revision(), "a and b are applied, d waits for revision r+3")
	for _, name := range []string{"a", "b"} {
		_, err := gen.cache.Get(context.Background(), "/configmaps/ns/"+name)
		assert.NoError(t, err, name)
	}
	_, err = gen.cache.Get(context.Background(), "/configmaps/ns/d")
	assert.ErrorIs(t, err, store.ErrNotFound)
	for _, rev := range []int64{r + 1, r + 2} {
		_, marked := s.own.Load(rev)
		assert.True(t, marked, "the feed skips revision %d when it comes", rev)
	}
}
