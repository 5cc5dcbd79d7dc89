package controllers

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kapi-dev/kapi/store"
)

// controller is the logic of one controller; a runner feeds it the store's
// events and runs its work.
type controller interface {
	// prefixes are the storage key prefixes whose objects it must know
	// before it watches (listed as Added events at start and after a
	// reset); nil lists nothing.
	prefixes() []string
	// observe reads a batch of store events in revision order and queues
	// work. It runs on the runner's watch goroutine, never concurrently
	// with itself.
	observe(q *queue, events []store.Event)
	// reset forgets what observe learnt, before the objects are listed
	// again (the watch fell out of the store's history).
	reset()
	// sync does the work of one queued item; an error retries it later.
	sync(ctx context.Context, item any) error
	// workers is how many items it works on at once.
	workers() int
}

// runner runs one controller: a goroutine reading the store's watch into
// observe, and workers taking items from the queue.
type runner struct {
	name string
	c    controller
	m    *Manager
	q    *queue
	// seen is the newest store revision observe has read up to.
	seen atomic.Int64
	done atomic.Bool
}

func newRunner(name string, c controller, m *Manager) *runner {
	q := newQueue(m.notify)
	q.now, q.fakeClock = m.now, m.fakeClock
	return &runner{name: name, c: c, m: m, q: q}
}

// start lists what the controller needs, starts watching after that list
// and starts the goroutines.
func (r *runner) start(ctx context.Context) error {
	w, err := r.listAndWatch(ctx)
	if err != nil {
		return err
	}
	n := r.c.workers()
	r.m.wg.Add(1 + n)
	go r.watch(ctx, w)
	for range n {
		go r.work(ctx)
	}
	return nil
}

// listAndWatch feeds observe the objects under the controller's prefixes
// and returns a watch of every write after them.
func (r *runner) listAndWatch(ctx context.Context) (store.Watcher, error) {
	st := r.m.store
	rev := st.Revision()
	var listed []store.Event
	for i, p := range r.c.prefixes() {
		opts := store.ListOptions{}
		if i > 0 {
			opts = store.ListOptions{Revision: rev, Match: store.Exact}
		}
		page, err := st.List(ctx, p, opts)
		if err != nil {
			return nil, err
		}
		rev = page.Revision
		for _, o := range page.Items {
			listed = append(listed, store.Event{Type: store.Added, Object: o, Revision: o.Revision()})
		}
	}
	w, err := st.Watch(ctx, "/", store.WatchOptions{Revision: rev})
	if err != nil {
		return nil, err
	}
	if len(listed) > 0 {
		r.c.observe(r.q, listed)
	}
	r.seen.Store(rev)
	return w, nil
}

// watch reads the store's events into observe until ctx ends; a watch
// overtaken by the store's history is replaced after a fresh list.
func (r *runner) watch(ctx context.Context, w store.Watcher) {
	defer r.m.wg.Done()
	defer func() {
		r.done.Store(true)
		r.q.shutdown()
		r.m.notify()
	}()
	for {
		events, err := w.Next(ctx)
		if len(events) > 0 {
			r.c.observe(r.q, events)
		}
		r.seen.Store(w.Revision())
		r.m.notify()
		if err == nil {
			continue
		}
		w.Stop()
		var expired *store.ExpiredError
		if ctx.Err() != nil || !errors.As(err, &expired) {
			return
		}
		r.c.reset()
		if w, err = r.listAndWatch(ctx); err != nil {
			return
		}
	}
}

// work runs queued items until the queue shuts down.
func (r *runner) work(ctx context.Context) {
	defer r.m.wg.Done()
	for {
		item, ok := r.q.get(ctx)
		if !ok {
			return
		}
		err := r.c.sync(ctx, item)
		r.q.done(item, err, ctx.Err() != nil)
		r.m.notify()
	}
}

// idleAt reports whether the controller has observed every write up to
// revision and has nothing to do.
func (r *runner) idleAt(revision int64) bool {
	return r.seen.Load() >= revision && r.q.idle()
}

func (r *runner) stopped() bool { return r.done.Load() }

// Backoff of an item whose work failed: 5ms doubling up to 5s.
const (
	minRetry = 5 * time.Millisecond
	maxRetry = 5 * time.Second
)

// queue is a controller's work queue: each item is queued at most once
// and worked on by one worker at a time; an item queued again while it is
// worked on runs once more afterwards; a failed item comes back after a
// backoff. Waiting for a retry happens in the workers' own goroutines.
type queue struct {
	mu       sync.Mutex
	ready    []any
	state    map[any]itemState
	failures map[any]int
	// due holds the items waiting for a retry, with their time.
	due map[any]time.Time
	// waiting holds the items queued for later (addAfter), with the time
	// of now's clock they wait for; hurry queues them at once.
	waiting map[any]time.Time
	// now is the clock waiting items wait on; fakeClock says it is not the
	// real time (a test's), which moves without timers firing: the workers
	// then look at it again every clockPoll.
	now       func() time.Time
	fakeClock bool
	closed    bool
	// wake has a token when ready may be non-empty or due changed.
	wake   chan struct{}
	notify func()
}

type itemState uint8

const (
	queued itemState = iota + 1
	running
	runningDirty // queued again while running
	retrying
	delayed // queued for later (addAfter)
)

// clockPoll is how often the workers of a queue whose clock is a test's
// look at it while items wait on it.
const clockPoll = 50 * time.Millisecond

func newQueue(notify func()) *queue {
	return &queue{state: map[any]itemState{}, failures: map[any]int{}, due: map[any]time.Time{},
		waiting: map[any]time.Time{}, now: time.Now, wake: make(chan struct{}, 1), notify: notify}
}

// addAfter queues item once the queue's clock reads at, unless it is
// queued, running or waiting already. While it waits, add leaves it
// waiting.
func (q *queue) addAfter(item any, at time.Time) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.state[item] != 0 {
		return
	}
	q.state[item] = delayed
	q.waiting[item] = at
	q.wakeLocked()
}

// hurry queues every waiting item at once.
func (q *queue) hurry() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || len(q.waiting) == 0 {
		return
	}
	for item := range q.waiting {
		delete(q.waiting, item)
		q.state[item] = queued
		q.ready = append(q.ready, item)
	}
	q.wakeLocked()
}

// add queues item unless it is queued already.
func (q *queue) add(item any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addLocked(item)
}

func (q *queue) addLocked(item any) {
	if q.closed {
		return
	}
	switch q.state[item] {
	case queued, runningDirty, delayed:
		return
	case running:
		q.state[item] = runningDirty
		return
	case retrying:
		delete(q.due, item)
	}
	q.state[item] = queued
	q.ready = append(q.ready, item)
	q.wakeLocked()
}

func (q *queue) wakeLocked() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// get waits for an item to work on; false once the queue is shut down or
// ctx is done.
func (q *queue) get(ctx context.Context) (any, bool) {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return nil, false
		}
		next := q.promoteLocked(time.Now())
		if at := q.promoteWaitingLocked(); !at.IsZero() && (next.IsZero() || at.Before(next)) {
			next = at
		}
		if len(q.ready) > 0 {
			item := q.ready[0]
			q.ready[0] = nil
			q.ready = q.ready[1:]
			q.state[item] = running
			if len(q.ready) > 0 {
				q.wakeLocked()
			}
			q.mu.Unlock()
			return item, true
		}
		q.mu.Unlock()
		var fire <-chan time.Time
		if !next.IsZero() {
			if timer == nil {
				timer = time.NewTimer(time.Until(next))
			} else {
				timer.Reset(time.Until(next))
			}
			fire = timer.C
		}
		select {
		case <-q.wake:
		case <-fire:
		case <-ctx.Done():
			return nil, false
		}
	}
}

// promoteLocked queues the items whose retry time has come and returns the
// earliest time still to come (zero when none).
func (q *queue) promoteLocked(now time.Time) time.Time {
	var next time.Time
	for item, at := range q.due {
		if !at.After(now) {
			delete(q.due, item)
			q.state[item] = queued
			q.ready = append(q.ready, item)
			continue
		}
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	return next
}

// promoteWaitingLocked queues the waiting items whose time has come on the
// queue's clock and returns the real time at which to look again (zero
// when nothing waits).
func (q *queue) promoteWaitingLocked() time.Time {
	if len(q.waiting) == 0 {
		return time.Time{}
	}
	now := q.now()
	var next time.Duration = -1
	for item, at := range q.waiting {
		if !at.After(now) {
			delete(q.waiting, item)
			q.state[item] = queued
			q.ready = append(q.ready, item)
			continue
		}
		if d := at.Sub(now); next < 0 || d < next {
			next = d
		}
	}
	if next < 0 {
		return time.Time{}
	}
	if q.fakeClock {
		next = min(next, clockPoll)
	}
	return time.Now().Add(next)
}

// done ends the work on item: a failure (unless the controllers are
// stopping) brings it back after a backoff; an item queued again while it
// ran is queued now.
func (q *queue) done(item any, err error, stopping bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	dirty := q.state[item] == runningDirty
	delete(q.state, item)
	switch {
	case q.closed:
	case err != nil && !stopping:
		n := q.failures[item]
		q.failures[item] = n + 1
		if dirty {
			q.addLocked(item)
			return
		}
		delay := min(minRetry<<min(n, 10), maxRetry)
		q.state[item] = retrying
		q.due[item] = time.Now().Add(delay)
		q.wakeLocked()
	default:
		delete(q.failures, item)
		if dirty {
			q.addLocked(item)
		}
	}
}

// idle reports whether nothing is queued, running or waiting for a retry.
func (q *queue) idle() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.state) == 0
}

// shutdown stops the queue: no more items are handed out and pending
// retries are dropped.
func (q *queue) shutdown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	q.closed = true
	q.ready, q.due, q.waiting = nil, nil, nil
	close(q.wake)
}
