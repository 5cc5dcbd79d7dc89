package etcd_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// warnings records the messages logged at Warn or above.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnings) Handle(_ context.Context, r slog.Record) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, r.Message)
	return nil
}
func (w *warnings) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnings) WithGroup(string) slog.Handler      { return w }

func TestConcurrentWritersFindTheirWritesInTheCacheAndInEveryWatchInRevisionOrder(t *testing.T) {
	cluster := etcdtest.Start(t)
	logged := &warnings{}
	s := newStore(t, cluster, etcd.Config{Logger: slog.New(logged)})
	other := newStore(t, cluster, etcd.Config{})
	ctx := t.Context()
	w, err := s.Watch(ctx, "/configmaps/", store.WatchOptions{Revision: s.Revision()})
	require.NoError(t, err)
	defer w.Stop()

	const writers, each = 8, 25
	var wg sync.WaitGroup
	for i := range writers {
		// Half the writers write through another store: their writes
		// reach s only through its feed, between s's own.
		st := s
		if i%2 == 1 {
			st = other
		}
		wg.Go(func() {
			key := fmt.Sprintf("/configmaps/ns/w%d", i)
			o, err := st.Create(ctx, key, configMap(fmt.Sprintf("w%d", i), "n", "0"))
			if !assert.NoError(t, err) {
				return
			}
			for n := 1; n < each; n++ {
				if o, err = st.Update(ctx, key, store.UpdateOptions{}, set("n", fmt.Sprint(n))); !assert.NoError(t, err) {
					return
				}
				if st == s {
					assert.GreaterOrEqual(t, s.Revision(), o.Revision(), "a write is in its store's cache when it returns")
				}
			}
			if st == s {
				_, err = s.Delete(ctx, key, store.Preconditions{}, nil)
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()

	var last int64
	seen := 0
	for seen < writers*each+writers/2 {
		evs, err := w.Next(ctx)
		require.NoError(t, err)
		for _, ev := range evs {
			require.Greater(t, ev.Revision, last, "events in revision order, each once")
			last = ev.Revision
			seen++
		}
	}
	assert.Equal(t, writers*each+writers/2, seen)
	logged.mu.Lock()
	defer logged.mu.Unlock()
	assert.Empty(t, logged.msgs, "no event skipped or refused")
}
