package etcd

import (
	"context"
	"errors"
	"sync"

	"github.com/kapi-dev/kapi/store"
)

// watcher is a cache watcher that expires when its cache generation ends
// (the cache was rebuilt after etcd compacted past its feed): it first
// returns what that cache still had for it, then an *ExpiredError, as kube's
// cacher terminates its watchers on a relist.
type watcher struct {
	inner store.Watcher
	gen   *generation

	// wait is the context a Next that must wait passes to the cache
	// watcher: the caller's context, also canceled when the generation
	// ends. It is kept while the caller passes a context with the same
	// Done channel (a watch without bookmarks passes its request's to
	// every call; only the caller's cancellation matters here): under
	// perfcompare's watch fan-out every call of each of 100 watchers
	// waited, and making it each time (two allocations and a callback
	// registration) was about 7% of the example server's CPU.
	mu      sync.Mutex
	done    <-chan struct{} // the Done channel of the context wait was made from
	wait    context.Context
	release func() // cancels wait and unregisters it from the generation
	stopped bool
}

func (w *watcher) Revision() int64 { return w.inner.Revision() }

func (w *watcher) Stop() {
	w.inner.Stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	if w.release != nil {
		w.release()
		w.release, w.done, w.wait = nil, nil, nil
	}
}

// available is a done context: a cache watcher's Next with it returns the
// events already available without waiting.
var available = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

func (w *watcher) Next(ctx context.Context) ([]store.Event, error) {
	if w.gen.ctx.Err() != nil {
		return w.drain()
	}
	// Events already available need no context tied to the generation.
	if evs, err := w.inner.Next(available); len(evs) > 0 || !errors.Is(err, context.Canceled) {
		return evs, err
	}
	if err := ctx.Err(); err != nil {
		// A caller that asks only for what is available (a lingering
		// watch stream gathering events) keeps the wait context of its
		// waiting calls.
		return nil, err
	}
	wait, ok := w.waitContext(ctx)
	if !ok {
		return nil, store.ErrWatcherStopped
	}
	evs, err := w.inner.Next(wait)
	if err != nil && ctx.Err() == nil && w.gen.ctx.Err() != nil && !errors.Is(err, store.ErrWatcherStopped) {
		return w.drain()
	}
	return evs, err
}

// waitContext returns ctx, also canceled when the generation ends: the
// one made for the last call when ctx has the same Done channel. ok is
// false once the watcher is stopped.
func (w *watcher) waitContext(ctx context.Context) (wait context.Context, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return nil, false
	}
	done := ctx.Done()
	if w.wait != nil && w.done == done && w.wait.Err() == nil {
		return w.wait, true
	}
	if w.release != nil {
		w.release()
	}
	wait, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(w.gen.ctx, cancel)
	// A watcher whose caller leaves without Stop does not stay registered
	// with the generation.
	context.AfterFunc(wait, func() { stop() })
	w.done, w.wait = done, wait
	w.release = func() {
		stop()
		cancel()
	}
	return wait, true
}

// drain returns the events the ended generation still holds, then expires.
func (w *watcher) drain() ([]store.Event, error) {
	evs, err := w.inner.Next(available)
	if len(evs) > 0 {
		return evs, nil
	}
	if errors.Is(err, store.ErrWatcherStopped) {
		return nil, err
	}
	return nil, &store.ExpiredError{Requested: w.inner.Revision(), Oldest: w.gen.next.Load()}
}
