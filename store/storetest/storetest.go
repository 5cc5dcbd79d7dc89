// Package storetest is the conformance suite every store.Store backend
// passes: revisions, reads and writes, guaranteed updates, snapshots and
// paging, watch ordering, resume and expiry, and a concurrent history
// checker. A backend's test calls [Run] with a [Factory]:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T, opts storetest.Options) store.Store {
//			cfg := memory.Config{}
//			if n := opts.HistoryLimit; n > 0 {
//				cfg = memory.Config{HistoryLimit: n, MaxHistory: n, MinHistoryAge: -1}
//			}
//			return memory.New(cfg)
//		})
//	}
//
// Every subtest gets a fresh store. Subtests are named as sentences, so a
// failure reads as the behaviour broken. The suite needs a few seconds,
// also under -race.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Options asks a Factory for a store with particular limits.
type Options struct {
	// HistoryLimit, when not zero, asks for a store that keeps at most that
	// many revisions of history (snapshots for Exact lists, events for
	// watches), whatever their age, so that tests can push revisions out
	// of it. Zero means the backend's default, which must keep at least the
	// few thousand revisions a test writes.
	HistoryLimit int
}

// Factory returns a new, empty store for one subtest. It may register
// cleanups with t.
type Factory func(t *testing.T, opts Options) store.Store

// Run runs the whole suite against the stores newStore makes.
func Run(t *testing.T, newStore Factory) {
	t.Run("Revisions", func(t *testing.T) { testRevisions(t, newStore) })
	t.Run("Create and Get", func(t *testing.T) { testCreateGet(t, newStore) })
	t.Run("Update", func(t *testing.T) { testUpdate(t, newStore) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, newStore) })
	t.Run("List", func(t *testing.T) { testList(t, newStore) })
	t.Run("Snapshots", func(t *testing.T) { testSnapshots(t, newStore) })
	t.Run("Watch", func(t *testing.T) { testWatch(t, newStore) })
	t.Run("History", func(t *testing.T) { testHistory(t, newStore) })
	t.Run("Indexes", func(t *testing.T) { testIndexes(t, newStore) })
	t.Run("Bulk delete", func(t *testing.T) { testBulkDelete(t, newStore) })
}

// waitLong bounds every wait that should succeed: generous, so a slow CI
// machine under -race never flakes (History's whole run over etcd took 5.6
// to 10.7 s at a load average of 11 on 2 cores), and only reached when a
// test fails.
const waitLong = 30 * time.Second

// waitShort is the deadline of waits that are expected to time out.
const waitShort = 50 * time.Millisecond

// object returns a ConfigMap-like object named name with data, owned by the
// caller (a new map each call).
func object(name string, data ...string) meta.Object {
	d := map[string]any{}
	for i := 0; i+1 < len(data); i += 2 {
		d[data[i]] = data[i+1]
	}
	return meta.Object{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": name, "uid": "uid-" + name},
		"data":       d,
	}
}

// withData returns a deep copy of cur's data with data.<k> = v, as an
// UpdateFunc result must be a map the store can own.
func withData(cur *store.Object, k, v string) meta.Object {
	next := cur.Data().DeepCopy()
	d, _ := next["data"].(map[string]any)
	if d == nil {
		d = map[string]any{}
		next["data"] = d
	}
	d[k] = v
	return next
}

// dataOf returns data.<k> of o.
func dataOf(o *store.Object, k string) string {
	v, _ := meta.NestedField(o.Data(), "data", k)
	s, _ := v.(string)
	return s
}

func rv(rev int64) string { return strconv.FormatInt(rev, 10) }

func mustCreate(t *testing.T, s store.Store, key string, data ...string) *store.Object {
	t.Helper()
	o, err := s.Create(t.Context(), key, object(keyName(key), data...))
	require.NoError(t, err, "create %s", key)
	return o
}

func mustSet(t *testing.T, s store.Store, key, k, v string) *store.Object {
	t.Helper()
	o, err := s.Update(t.Context(), key, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		return withData(cur, k, v), nil
	})
	require.NoError(t, err, "update %s", key)
	return o
}

func mustDelete(t *testing.T, s store.Store, key string) *store.Object {
	t.Helper()
	o, err := s.Delete(t.Context(), key, store.Preconditions{}, nil)
	require.NoError(t, err, "delete %s", key)
	return o
}

func mustList(t *testing.T, s store.Store, prefix string, opts store.ListOptions) store.ListResult {
	t.Helper()
	res, err := s.List(t.Context(), prefix, opts)
	require.NoError(t, err, "list %s %+v", prefix, opts)
	return res
}

// listAll reads every page under prefix at one revision (0: current).
func listAll(t *testing.T, s store.Store, prefix string, rev int64) store.ListResult {
	t.Helper()
	opts := store.ListOptions{Revision: rev, Match: store.Exact}
	if rev == 0 {
		opts.Match = store.NotOlderThan
	}
	return mustList(t, s, prefix, opts)
}

func keyName(key string) string {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[i+1:]
		}
	}
	return key
}

// version is what the suite compares of a stored object: where it is, which
// write made it and what it says.
type version struct {
	Key      string
	Revision int64
	RV       string
	Data     any
}

func versionOf(o *store.Object) version {
	if o == nil {
		return version{}
	}
	d, _ := o.Data()["data"]
	return version{Key: o.Key(), Revision: o.Revision(), RV: o.Data().ResourceVersion(), Data: d}
}

func versions(items []*store.Object) []version {
	out := make([]version, len(items))
	for i, o := range items {
		out[i] = versionOf(o)
	}
	return out
}

func keys(items []*store.Object) []string {
	out := make([]string, len(items))
	for i, o := range items {
		out[i] = o.Key()
	}
	return out
}

// change is what the suite compares of a watch event.
type change struct {
	Type     store.EventType
	Revision int64
	Object   version
	Prev     version
}

func changeOf(e store.Event) change {
	return change{Type: e.Type, Revision: e.Revision, Object: versionOf(e.Object), Prev: versionOf(e.Prev)}
}

func changes(events []store.Event) []change {
	out := make([]change, len(events))
	for i, e := range events {
		out[i] = changeOf(e)
	}
	return out
}

// collect reads w until it has scanned revision until, failing the test
// after waitLong. Next blocks while nothing matches even when the watcher
// scans on, so it is called with short deadlines and w.Revision() decides.
func collect(t *testing.T, w store.Watcher, until int64) []store.Event {
	t.Helper()
	deadline := time.Now().Add(waitLong)
	var out []store.Event
	for w.Revision() < until {
		require.True(t, time.Now().Before(deadline), "watcher stuck at revision %d waiting for %d", w.Revision(), until)
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Millisecond)
		evs, err := w.Next(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			continue
		}
		require.NoError(t, err, "watcher at revision %d waiting for %d", w.Revision(), until)
		out = append(out, evs...)
	}
	return out
}

// requireNoEvent checks that w has nothing more to return right now.
func requireNoEvent(t *testing.T, w store.Watcher) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitShort)
	defer cancel()
	evs, err := w.Next(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded, "unexpected events %v", changes(evs))
}

func name(i int) string { return fmt.Sprintf("k%03d", i) }
