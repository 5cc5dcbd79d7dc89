package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/store"
)

// writeLog makes a short history with every kind of event under two
// prefixes and returns the events it must produce, in order.
//
//	rev  2       3       4       5       6       7       8       9
//	     +/a/x   +/b/y   ~/a/x   +/a/z   -/a/x   ~/b/y   ~/a/z   -/b/y
func writeLog(t *testing.T, s store.Store) []change {
	t.Helper()
	var log []change
	prev := map[string]*store.Object{}
	add := func(typ store.EventType, o *store.Object) {
		c := change{Type: typ, Revision: o.Revision(), Object: versionOf(o), Prev: versionOf(prev[o.Key()])}
		log = append(log, c)
		if typ == store.Deleted {
			delete(prev, o.Key())
		} else {
			prev[o.Key()] = o
		}
	}
	add(store.Added, mustCreate(t, s, "/a/x", "k", "1"))
	add(store.Added, mustCreate(t, s, "/b/y", "k", "1"))
	add(store.Modified, mustSet(t, s, "/a/x", "k", "2"))
	add(store.Added, mustCreate(t, s, "/a/z", "k", "1"))
	add(store.Deleted, mustDelete(t, s, "/a/x"))
	add(store.Modified, mustSet(t, s, "/b/y", "k", "2"))
	add(store.Modified, mustSet(t, s, "/a/z", "k", "2"))
	add(store.Deleted, mustDelete(t, s, "/b/y"))
	return log
}

// after returns the changes of log after rev under prefix: what a watch
// from rev must deliver.
func after(log []change, rev int64, prefix string) []change {
	var out []change
	for _, c := range log {
		if c.Revision > rev && strings.HasPrefix(c.Object.Key, prefix) {
			out = append(out, c)
		}
	}
	return out
}

func testWatch(t *testing.T, newStore Factory) {
	t.Run("a watch from revision R receives exactly the events after R, in order", func(t *testing.T) {
		s := newStore(t, Options{})
		log := writeLog(t, s)
		end := s.Revision()
		for rev := int64(1); rev <= end; rev++ {
			for _, prefix := range []string{"/", "/a/", "/b/", "/c/"} {
				w, err := s.Watch(t.Context(), prefix, store.WatchOptions{Revision: rev})
				require.NoError(t, err, "watch %s from %d", prefix, rev)
				check.Equal(t, rev, w.Revision(), "a new watcher has scanned up to its start")
				got := collect(t, w, end)
				w.Stop()
				check.Equal(t, nilIfEmpty(after(log, rev, prefix)), nilIfEmpty(changes(got)), "watch %s from %d", prefix, rev)
			}
		}
	})

	t.Run("events carry their revision, object, and the version they replaced", func(t *testing.T) {
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 1})
		require.NoError(t, err)
		defer w.Stop()
		created := mustCreate(t, s, "/a/x", "k", "1")
		updated := mustSet(t, s, "/a/x", "k", "2")
		deleted := mustDelete(t, s, "/a/x")
		evs := collect(t, w, deleted.Revision())
		require.Len(t, evs, 3)

		check.Equal(t, store.Added, evs[0].Type)
		check.Equal(t, versionOf(created), versionOf(evs[0].Object))
		check.Nil(t, evs[0].Prev)

		check.Equal(t, store.Modified, evs[1].Type)
		check.Equal(t, versionOf(updated), versionOf(evs[1].Object))
		check.Equal(t, versionOf(created), versionOf(evs[1].Prev))

		check.Equal(t, store.Deleted, evs[2].Type)
		check.Equal(t, int64(4), evs[2].Revision)
		check.Equal(t, versionOf(deleted), versionOf(evs[2].Object))
		check.Equal(t, int64(4), evs[2].Object.Revision(), "DELETED carries the deletion revision")
		check.Equal(t, "4", evs[2].Object.Data().ResourceVersion())
		check.Equal(t, "2", dataOf(evs[2].Object, "k"), "DELETED carries the last state")
		check.Equal(t, versionOf(updated), versionOf(evs[2].Prev))
		check.Equal(t, "3", evs[2].Prev.Data().ResourceVersion())
		for i, e := range evs {
			check.Equal(t, int64(i+2), e.Revision)
			check.Equal(t, e.Revision, e.Object.Revision())
			check.Equal(t, rv(e.Revision), e.Object.Data().ResourceVersion())
		}
	})

	t.Run("revision 0 watches from the current revision", func(t *testing.T) {
		s := newStore(t, Options{})
		writeLog(t, s)
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		check.Equal(t, s.Revision(), w.Revision())
		o := mustCreate(t, s, "/c/new")
		evs := collect(t, w, o.Revision())
		require.Len(t, evs, 1)
		check.Equal(t, versionOf(o), versionOf(evs[0].Object))
	})

	t.Run("a prefix watch skips other keys but reports progress past them", func(t *testing.T) {
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/a/b/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		x := mustCreate(t, s, "/a/b/x")
		mustCreate(t, s, "/a/bc/y")
		mustCreate(t, s, "/a/b")
		z := mustCreate(t, s, "/a/b/z")
		evs := collect(t, w, z.Revision())
		check.Equal(t, []string{x.Key(), z.Key()}, eventKeys(evs))
		last := mustCreate(t, s, "/a/other")
		// No event will come, yet the watcher scans past the write.
		deadline := time.Now().Add(waitLong)
		for w.Revision() < last.Revision() && time.Now().Before(deadline) {
			requireNoEvent(t, w)
		}
		check.Equal(t, last.Revision(), w.Revision())
	})

	t.Run("resuming from the last revision seen yields exactly the rest", func(t *testing.T) {
		s := newStore(t, Options{})
		log := writeLog(t, s)
		w, err := s.Watch(t.Context(), "/a/", store.WatchOptions{Revision: 1})
		require.NoError(t, err)
		first, err := w.Next(t.Context())
		require.NoError(t, err)
		require.NotEmpty(t, first)
		seen := first[:1] // the client processed only the first event
		w.Stop()
		var more []change
		for i := range 3 {
			o := mustCreate(t, s, "/a/more"+name(i))
			mustCreate(t, s, "/b/more"+name(i))
			more = append(more, change{Type: store.Added, Revision: o.Revision(), Object: versionOf(o)})
		}
		resumed, err := s.Watch(t.Context(), "/a/", store.WatchOptions{Revision: seen[len(seen)-1].Revision})
		require.NoError(t, err)
		defer resumed.Stop()
		rest := collect(t, resumed, s.Revision())
		all := append(changes(seen), changes(rest)...)
		want := append(after(log, 1, "/a/"), more...)
		check.Equal(t, want, all)
	})

	t.Run("a start revision older than the history kept is ExpiredError", func(t *testing.T) {
		s := newStore(t, Options{HistoryLimit: 3})
		for i := range 10 {
			mustCreate(t, s, "/a/"+name(i))
		}
		_, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 2})
		var ee *store.ExpiredError
		require.ErrorAs(t, err, &ee)
		check.Equal(t, int64(2), ee.Requested)
		check.Greater(t, ee.Oldest, int64(3))
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: s.Revision()})
		require.NoError(t, err, "the current revision is always a valid start")
		w.Stop()
	})

	t.Run("a watcher that lags behind the history kept gets ExpiredError from Next", func(t *testing.T) {
		s := newStore(t, Options{HistoryLimit: 3})
		mustCreate(t, s, "/a/first")
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{Revision: 1})
		require.NoError(t, err)
		defer w.Stop()
		for i := range 20 {
			mustCreate(t, s, "/a/"+name(i))
		}
		ctx, cancel := context.WithTimeout(t.Context(), waitLong)
		defer cancel()
		var got []store.Event
		var ee *store.ExpiredError
		for {
			evs, err := w.Next(ctx)
			if err != nil {
				require.ErrorAs(t, err, &ee)
				break
			}
			got = append(got, evs...)
			require.Less(t, len(got), 21, "the watcher never expired")
		}
		check.Greater(t, ee.Oldest, ee.Requested+1, "expired means the next event is gone")
		for i, e := range got {
			check.Equal(t, int64(i+2), e.Revision, "events before the expiry are in order")
		}
		evs, err := w.Next(ctx)
		check.Error(t, err, "an expired watcher is finished")
		check.Empty(t, evs)
	})

	t.Run("a future start revision waits, then fails with FutureRevisionError", func(t *testing.T) {
		s := newStore(t, Options{})
		mustCreate(t, s, "/a/x")
		ctx, cancel := context.WithTimeout(t.Context(), waitShort)
		defer cancel()
		_, err := s.Watch(ctx, "/", store.WatchOptions{Revision: 10})
		var fe *store.FutureRevisionError
		require.ErrorAs(t, err, &fe)
		check.Equal(t, int64(10), fe.Requested)
		check.Equal(t, int64(2), fe.Current)
	})

	t.Run("a future start revision reached while waiting starts there", func(t *testing.T) {
		s := newStore(t, Options{})
		go func() {
			time.Sleep(10 * time.Millisecond)
			for i := range 5 {
				_, _ = s.Create(t.Context(), "/a/"+name(i), object(name(i)))
			}
		}()
		ctx, cancel := context.WithTimeout(t.Context(), waitLong)
		defer cancel()
		w, err := s.Watch(ctx, "/", store.WatchOptions{Revision: 4})
		require.NoError(t, err)
		defer w.Stop()
		evs := collect(t, w, 6)
		require.NotEmpty(t, evs)
		check.Equal(t, int64(5), evs[0].Revision)
		check.Equal(t, []string{"/a/k003", "/a/k004"}, eventKeys(evs))
	})

	t.Run("a watcher blocked in Next wakes for every write", func(t *testing.T) {
		// Ping-pong: each write happens while the watcher is between two
		// Next calls or blocked in one, so a wake-up lost between reading
		// the history and starting to wait shows up as a missed deadline.
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		got := make(chan store.Event, 1)
		go func() {
			defer close(got)
			for {
				evs, err := w.Next(t.Context())
				if err != nil {
					return
				}
				for _, e := range evs {
					got <- e
				}
			}
		}()
		for i := range 300 {
			o := mustCreate(t, s, "/a/"+name(i))
			select {
			case e := <-got:
				require.Equal(t, o.Revision(), e.Revision)
			case <-time.After(2 * time.Second):
				t.Fatalf("write %d at revision %d never reached the waiting watcher", i, o.Revision())
			}
		}
	})

	t.Run("cancelling ctx unblocks Next", func(t *testing.T) {
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(10*time.Millisecond, cancel)
		_, err = w.Next(ctx)
		check.ErrorIs(t, err, context.Canceled)
		// The watcher still works with a live context.
		o := mustCreate(t, s, "/a/x")
		evs := collect(t, w, o.Revision())
		check.Len(t, evs, 1)
	})

	t.Run("a done ctx still gets the events already available, then ctx.Err()", func(t *testing.T) {
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		defer w.Stop()
		a, b := mustCreate(t, s, "/a/x"), mustCreate(t, s, "/a/y")
		done, cancel := context.WithCancel(t.Context())
		cancel()
		var got []int64
		for len(got) < 2 {
			evs, err := w.Next(done)
			require.NoError(t, err)
			for _, ev := range evs {
				got = append(got, ev.Revision)
			}
		}
		check.Equal(t, []int64{a.Revision(), b.Revision()}, got)
		_, err = w.Next(done)
		check.ErrorIs(t, err, context.Canceled)
	})

	t.Run("Stop makes Next return ErrWatcherStopped, also when blocked in it", func(t *testing.T) {
		s := newStore(t, Options{})
		w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
		require.NoError(t, err)
		errc := make(chan error, 1)
		go func() {
			_, err := w.Next(t.Context())
			errc <- err
		}()
		time.Sleep(10 * time.Millisecond)
		w.Stop()
		select {
		case err := <-errc:
			check.ErrorIs(t, err, store.ErrWatcherStopped)
		case <-time.After(waitLong):
			t.Fatal("Stop did not unblock Next")
		}
		mustCreate(t, s, "/a/x")
		_, err = w.Next(t.Context())
		check.ErrorIs(t, err, store.ErrWatcherStopped)
		w.Stop() // idempotent
	})

	t.Run("a slow watcher never blocks writers", func(t *testing.T) {
		s := newStore(t, Options{})
		var ws []store.Watcher
		for range 10 {
			w, err := s.Watch(t.Context(), "/", store.WatchOptions{})
			require.NoError(t, err)
			ws = append(ws, w)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := range 500 {
				if _, err := s.Create(t.Context(), "/a/"+name(i), object(name(i))); err != nil {
					return
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(waitLong):
			t.Fatal("writers blocked on watchers that never read")
		}
		check.Equal(t, int64(501), s.Revision())
		evs := collect(t, ws[0], s.Revision())
		check.Len(t, evs, 500)
		for _, w := range ws {
			w.Stop()
		}
	})
}

func eventKeys(evs []store.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Object.Key()
	}
	return out
}
