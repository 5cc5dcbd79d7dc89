package etcd_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// collectUntil reads w until it scanned revision until.
func collectUntil(t *testing.T, w store.Watcher, until int64) []store.Event {
	t.Helper()
	var out []store.Event
	// Stuck means no progress for a long while, however far there is to go.
	last, deadline := w.Revision(), time.Now().Add(time.Minute)
	for w.Revision() < until {
		if w.Revision() != last {
			last, deadline = w.Revision(), time.Now().Add(time.Minute)
		}
		require.True(t, time.Now().Before(deadline), "watcher stuck at %d waiting for %d", w.Revision(), until)
		ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
		evs, err := w.Next(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			continue
		}
		require.NoError(t, err)
		out = append(out, evs...)
	}
	return out
}

func TestWritesFailWhileEtcdIsDownAndNothingIsHalfWritten(t *testing.T) {
	cluster := etcdtest.Start(t)
	s := newStore(t, cluster, etcd.Config{WriteTimeout: time.Second, ReadTimeout: time.Second})
	ctx := t.Context()
	before, err := s.Create(ctx, "/configmaps/ns/before", configMap("before"))
	require.NoError(t, err)
	w, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: before.Revision()})
	require.NoError(t, err)
	defer w.Stop()

	cluster.Stop()
	short, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	_, createErr := s.Create(short, "/configmaps/ns/during", configMap("during"))
	_, updateErr := s.Update(short, "/configmaps/ns/before", store.UpdateOptions{}, set("k", "lost"))
	_, getErr := s.Get(short, "/configmaps/ns/before")
	cancel()
	assert.Error(t, createErr)
	assert.Error(t, updateErr)
	assert.Error(t, getErr, "a consistent read cannot confirm freshness without etcd")

	// Past the store's own bounds, the failures are kube's 504s.
	_, err = s.Create(ctx, "/configmaps/ns/during", configMap("during"))
	var st *meta.Status
	require.ErrorAs(t, err, &st)
	assert.Equal(t, int32(504), st.Code)
	assert.Equal(t, meta.ReasonTimeout, st.Reason)
	assert.Equal(t, "Timeout: request did not complete within requested timeout - context deadline exceeded", st.Message)
	_, err = s.List(ctx, "/configmaps/", store.ListOptions{})
	require.ErrorAs(t, err, &st)
	assert.Equal(t, "Timeout: request did not complete within the allotted timeout", st.Message)
	res, err := s.List(ctx, "/configmaps/", store.ListOptions{Revision: 1, Match: store.NotOlderThan})
	require.NoError(t, err, "a list at any revision (resourceVersion=0) is served from the cache")
	assert.Len(t, res.Items, 1)

	require.NoError(t, cluster.Members[0].Start())
	var got *store.Object
	require.Eventually(t, func() bool {
		got, err = s.Get(ctx, "/configmaps/ns/before")
		return err == nil
	}, time.Minute, 10*time.Millisecond, "reads work again once etcd is back: %v", err)
	assert.Equal(t, before.Revision(), got.Revision())
	_, err = s.Get(ctx, "/configmaps/ns/during")
	assert.ErrorIs(t, err, store.ErrNotFound)

	// The watch started before the outage goes on, from where it was.
	var after *store.Object
	require.Eventually(t, func() bool {
		after, err = s.Create(ctx, "/configmaps/ns/after", configMap("after"))
		return err == nil
	}, time.Minute, 10*time.Millisecond, "writes work again once etcd is back: %v", err)
	evs := collectUntil(t, w, after.Revision())
	require.Len(t, evs, 1)
	assert.Equal(t, after.Revision(), evs[0].Revision)
}

func TestAMemberKilledAndRestartedUnderLoadLosesNoAcknowledgedWrite(t *testing.T) {
	cluster := etcdtest.StartCluster(t, 3)
	s := newStore(t, cluster, etcd.Config{})
	ctx := t.Context()
	w, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: s.Revision()})
	require.NoError(t, err)
	defer w.Stop()

	var (
		mu    sync.Mutex
		acked = map[string]int64{}
		stop  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("/configmaps/ns/w%d-%04d", g, i)
				wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				o, err := s.Create(wctx, key, configMap(fmt.Sprintf("w%d-%04d", g, i)))
				cancel()
				if err == nil {
					mu.Lock()
					acked[key] = o.Revision()
					mu.Unlock()
				}
			}
		}()
	}
	for _, m := range cluster.Members[:2] {
		time.Sleep(300 * time.Millisecond)
		m.Stop()
		time.Sleep(300 * time.Millisecond)
		require.NoError(t, m.Start())
	}
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	require.NotEmpty(t, acked)

	res, err := s.List(ctx, "/configmaps/", store.ListOptions{})
	require.NoError(t, err)
	listed := map[string]int64{}
	for _, o := range res.Items {
		listed[o.Key()] = o.Revision()
	}
	var last int64
	for key, rev := range acked {
		assert.Equal(t, rev, listed[key], "acknowledged %s at %d", key, rev)
		last = max(last, rev)
	}
	seen := map[int64]bool{}
	var prev int64
	for _, e := range collectUntil(t, w, res.Revision) {
		assert.Greater(t, e.Revision, prev, "events in revision order, none twice")
		prev = e.Revision
		seen[e.Revision] = true
	}
	for key, rev := range acked {
		assert.True(t, seen[rev], "the watch saw %s at %d", key, rev)
	}
	t.Logf("%d acknowledged writes, last at revision %d", len(acked), last)
}

func TestTheCacheIsRebuiltWhenEtcdCompactedPastItsWatch(t *testing.T) {
	cluster := etcdtest.StartCluster(t, 3)
	// The store talks to the first member only; the others stay up.
	cli, err := clientv3.New(clientv3.Config{Endpoints: cluster.Endpoints()[:1], DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cli.Close() })
	s, err := etcd.New(t.Context(), etcd.Config{Client: cli})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	other, err := clientv3.New(clientv3.Config{Endpoints: cluster.Endpoints()[1:], DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	require.NoError(t, err)
	t.Cleanup(func() { _ = other.Close() })
	ctx := t.Context()

	first, err := s.Create(ctx, "/configmaps/ns/first", configMap("first"))
	require.NoError(t, err)
	w, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: first.Revision()})
	require.NoError(t, err)
	defer w.Stop()
	// A watcher waiting in Next, with the same context each call, when
	// the cache is rebuilt expires too.
	waiting, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: first.Revision()})
	require.NoError(t, err)
	defer waiting.Stop()
	waited := make(chan error, 1)
	go func() {
		for {
			if _, err := waiting.Next(ctx); err != nil {
				waited <- err
				return
			}
		}
	}()

	cluster.Members[0].Stop()
	var rev int64
	for i := range 5 {
		resp, err := other.Put(ctx, fmt.Sprintf("/registry/configmaps/ns/while-away-%d", i), `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x"}}`)
		require.NoError(t, err)
		rev = resp.Header.Revision
	}
	_, err = other.Compact(ctx, rev)
	require.NoError(t, err)
	require.NoError(t, cluster.Members[0].Start())

	res, err := s.List(ctx, "/configmaps/ns/", store.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, res.Items, 6, "the rebuilt cache holds the writes made while the store was away")
	assert.GreaterOrEqual(t, res.Revision, rev)

	// The watcher from before cannot be continued: it expires, and its
	// client relists.
	deadline := time.Now().Add(30 * time.Second)
	for {
		require.True(t, time.Now().Before(deadline), "the old watcher never expired")
		nctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_, err := w.Next(nctx)
		cancel()
		var ee *store.ExpiredError
		if errors.As(err, &ee) {
			break
		}
	}
	select {
	case err := <-waited:
		var ee *store.ExpiredError
		assert.ErrorAs(t, err, &ee)
	case <-time.After(time.Minute):
		t.Fatal("the waiting watcher never expired")
	}
}
