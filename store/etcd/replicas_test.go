package etcd_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

func configMap(name string, data ...string) meta.Object {
	d := map[string]any{}
	for i := 0; i+1 < len(data); i += 2 {
		d[data[i]] = data[i+1]
	}
	return meta.Object{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": name, "namespace": "ns", "uid": "uid-" + name},
		"data":       d,
	}
}

func set(k, v string) store.UpdateFunc {
	return func(cur *store.Object) (meta.Object, error) {
		next := cur.Data().DeepCopy()
		next["data"].(map[string]any)[k] = v
		return next, nil
	}
}

func TestTwoStoresOverOneEtcdReadEachOthersWritesAtOnce(t *testing.T) {
	cluster := etcdtest.Start(t)
	a := newStore(t, cluster, etcd.Config{})
	b := newStore(t, cluster, etcd.Config{})
	ctx := t.Context()

	created, err := a.Create(ctx, "/configmaps/ns/x", configMap("x", "k", "1"))
	require.NoError(t, err)
	got, err := b.Get(ctx, "/configmaps/ns/x")
	require.NoError(t, err, "a consistent read through b sees a's create")
	assert.Equal(t, created.Revision(), got.Revision())
	assert.Equal(t, "1", got.Data()["data"].(map[string]any)["k"])

	updated, err := b.Update(ctx, "/configmaps/ns/x", store.UpdateOptions{}, set("k", "2"))
	require.NoError(t, err)
	res, err := a.List(ctx, "/configmaps/ns/", store.ListOptions{})
	require.NoError(t, err)
	require.Len(t, res.Items, 1)
	assert.Equal(t, updated.Revision(), res.Items[0].Revision())
	assert.Equal(t, "2", res.Items[0].Data()["data"].(map[string]any)["k"])
	assert.GreaterOrEqual(t, res.Revision, updated.Revision())

	// A stale precondition from a's point of view is checked against etcd.
	_, err = a.Update(ctx, "/configmaps/ns/x", store.UpdateOptions{Preconditions: store.Preconditions{ResourceVersion: fmt.Sprint(created.Revision())}}, set("k", "3"))
	var pe *store.PreconditionError
	require.ErrorAs(t, err, &pe)

	deleted, err := a.Delete(ctx, "/configmaps/ns/x", store.Preconditions{ResourceVersion: fmt.Sprint(updated.Revision())}, nil)
	require.NoError(t, err)
	_, err = b.Get(ctx, "/configmaps/ns/x")
	assert.ErrorIs(t, err, store.ErrNotFound)
	assert.Equal(t, deleted.Revision(), b.Revision())
}

func TestWatchesOnTwoStoresSeeBothStoresWritesInRevisionOrder(t *testing.T) {
	cluster := etcdtest.Start(t)
	a := newStore(t, cluster, etcd.Config{})
	b := newStore(t, cluster, etcd.Config{})
	ctx := t.Context()
	wa, err := a.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: 1})
	require.NoError(t, err)
	defer wa.Stop()
	wb, err := b.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: 1})
	require.NoError(t, err)
	defer wb.Stop()

	var want []int64
	for i := range 20 {
		s := []*etcd.Store{a, b}[i%2]
		o, err := s.Create(ctx, fmt.Sprintf("/configmaps/ns/c%02d", i), configMap(fmt.Sprintf("c%02d", i)))
		require.NoError(t, err)
		want = append(want, o.Revision())
	}
	for _, w := range []store.Watcher{wa, wb} {
		var got []int64
		// Give up only when no event has come for a long while: on a loaded
		// machine the 20 events take far longer than on a quiet one.
		stalled := time.Now().Add(time.Minute)
		for len(got) < len(want) && time.Now().Before(stalled) {
			nctx, cancel := context.WithTimeout(ctx, time.Second)
			evs, err := w.Next(nctx)
			cancel()
			if err != nil {
				continue
			}
			for _, e := range evs {
				got = append(got, e.Revision)
			}
			if len(evs) > 0 {
				stalled = time.Now().Add(time.Minute)
			}
		}
		assert.Equal(t, want, got)
	}
}

func TestAConsistentReadWaitsOutWritesOutsideThePrefix(t *testing.T) {
	cluster := etcdtest.Start(t)
	cli := cluster.Client(t)
	s := newStore(t, cluster, etcd.Config{})
	ctx := t.Context()
	_, err := s.Create(ctx, "/configmaps/ns/x", configMap("x"))
	require.NoError(t, err)
	resp, err := cli.Put(ctx, "/elsewhere/key", "v")
	require.NoError(t, err)
	res, err := s.List(ctx, "/configmaps/", store.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, resp.Header.Revision, res.Revision, "the list is at etcd's current revision")
	assert.Len(t, res.Items, 1)
}

func TestValuesAreStoredAtKubesKeysWithoutResourceVersion(t *testing.T) {
	cluster := etcdtest.Start(t)
	cli := cluster.Client(t)
	s := newStore(t, cluster, etcd.Config{})
	o, err := s.Create(t.Context(), "/configmaps/ns/x", configMap("x", "k", "v"))
	require.NoError(t, err)
	assert.Equal(t, "2", o.Data().ResourceVersion())

	resp, err := cli.Get(t.Context(), "/registry/configmaps/ns/x")
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1)
	assert.Equal(t, o.Revision(), resp.Kvs[0].ModRevision)
	stored, err := codec.JSONCodec{}.Decode(resp.Kvs[0].Value)
	require.NoError(t, err)
	assert.NotContains(t, stored.Object.Metadata(), "resourceVersion")
	assert.Equal(t, "v", stored.Object["data"].(map[string]any)["k"])
}

func TestARestartedStoreKeepsEveryObjectAndResourceVersion(t *testing.T) {
	cluster := etcdtest.Start(t)
	ctx := t.Context()
	first := newStore(t, cluster, etcd.Config{})
	var want []string
	for i := range 50 {
		o, err := first.Create(ctx, fmt.Sprintf("/configmaps/ns/c%02d", i), configMap(fmt.Sprintf("c%02d", i)))
		require.NoError(t, err)
		want = append(want, o.Key()+"@"+o.Data().ResourceVersion())
	}
	last := first.Revision()
	require.NoError(t, first.Close())

	second := newStore(t, cluster, etcd.Config{})
	assert.Equal(t, last, second.Revision())
	res, err := second.List(ctx, "/configmaps/", store.ListOptions{})
	require.NoError(t, err)
	var got []string
	for _, o := range res.Items {
		got = append(got, o.Key()+"@"+o.Data().ResourceVersion())
	}
	assert.Equal(t, want, got)

	// A watch from a revision before the restart that etcd still holds
	// resumes without a relist.
	w, err := second.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: last - 5})
	var ee *store.ExpiredError
	if assert.False(t, errorsAs(err, &ee), "a resume within etcd's history must not expire: %v", err) {
		require.NoError(t, err)
		defer w.Stop()
	}
}

func errorsAs(err error, target any) bool { return err != nil && errors.As(err, target) }
