package memory

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kapi-dev/kapi/store"
)

// watchBatch is how many history entries Next copies under the read lock
// at a time, as kube's watch cache intervals do (bufferSize 100): enough to
// amortise the lock, small enough to keep writers' waits short.
const watchBatch = 100

// Watch returns a cursor over the history after opts.Revision (0: after
// the current revision), filtered by key prefix. It starts in O(1): the
// history is indexed by revision. A revision whose following events are no
// longer all kept is an *store.ExpiredError; a future one waits as List
// does (ctx only bounds that wait).
func (s *Store) Watch(ctx context.Context, prefix string, opts store.WatchOptions) (store.Watcher, error) {
	rev := opts.Revision
	switch cur := s.Revision(); {
	case rev < 0:
		return nil, fmt.Errorf("store/memory: negative revision %d", rev)
	case rev == 0:
		rev = cur
	case rev > cur:
		if _, err := s.waitFor(ctx, rev); err != nil {
			return nil, err
		}
	default:
		s.rLockFresh()
		oldest := s.hist.oldest()
		s.histMu.RUnlock()
		if rev < oldest-1 {
			return nil, &store.ExpiredError{Requested: rev, Oldest: oldest}
		}
	}
	w := &watcher{s: s, prefix: prefix, stopped: make(chan struct{})}
	w.cursor.Store(rev)
	return w, nil
}

// watcher is a pull cursor over the store's history: no goroutine, no
// channel to fill. Writers never wait for it; if it lags so far that the
// history drops its next entry, Next reports an *store.ExpiredError.
type watcher struct {
	s      *Store
	prefix string
	// cursor is the last revision scanned; Next resumes after it.
	cursor atomic.Int64

	stopOnce sync.Once
	stopped  chan struct{}

	// Owned by the goroutine calling Next.
	err     error         // sticky: the *ExpiredError that finished the watcher
	scratch []store.Event // batch copied under the lock, reused
}

// Revision is the last revision scanned: every matching event up to it has
// been returned. Safe from any goroutine.
func (w *watcher) Revision() int64 { return w.cursor.Load() }

// Stop finishes the watcher; a blocked or later Next returns
// store.ErrWatcherStopped. Safe from any goroutine, more than once.
func (w *watcher) Stop() { w.stopOnce.Do(func() { close(w.stopped) }) }

// Next returns the next events under the prefix, in revision order,
// waiting for a commit when none is pending. Each round copies up to
// watchBatch entries after the cursor under the history's read lock,
// together with the notify channel, and filters them after releasing it.
// It must not be called from two goroutines at once. Once it has returned
// an *store.ExpiredError, every later call returns the same error.
func (w *watcher) Next(ctx context.Context) ([]store.Event, error) {
	for {
		select {
		case <-w.stopped:
			return nil, store.ErrWatcherStopped
		default:
		}
		if w.err != nil {
			return nil, w.err
		}
		batch, notify, err := w.s.readAfter(w.cursor.Load(), w.scratch[:0])
		if err != nil {
			w.err = err
			return nil, err
		}
		var out []store.Event
		for i := range batch {
			if o := batch[i].Object; o != nil && strings.HasPrefix(o.Key(), w.prefix) {
				out = append(out, batch[i])
			}
		}
		if len(batch) > 0 {
			w.cursor.Store(batch[len(batch)-1].Revision)
		}
		clear(batch) // do not pin objects in the scratch buffer
		w.scratch = batch[:0]
		if len(out) > 0 {
			return out, nil
		}
		if notify == nil {
			continue // a full batch matched nothing: read on
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		select {
		case <-notify:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-w.stopped:
			return nil, store.ErrWatcherStopped
		}
	}
}

// readAfter appends to buf the events of up to watchBatch revisions after
// cursor. When it reached the newest revision it also returns the notify
// channel, taken under the same lock so no commit can slip in between.
func (s *Store) readAfter(cursor int64, buf []store.Event) ([]store.Event, <-chan struct{}, error) {
	s.rLockFresh()
	defer s.histMu.RUnlock()
	h := &s.hist
	if cursor+1 < h.oldest() {
		return nil, nil, &store.ExpiredError{Requested: cursor, Oldest: h.oldest()}
	}
	end := min(h.newest(), cursor+watchBatch)
	for rev := cursor + 1; rev <= end; rev++ {
		buf = append(buf, h.at(rev).ev)
	}
	if end < h.newest() {
		return buf, nil, nil
	}
	s.notifyTaken.Store(true)
	return buf, s.notify, nil
}
