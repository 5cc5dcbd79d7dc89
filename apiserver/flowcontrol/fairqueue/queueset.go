package fairqueue

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// Config is a QueueSet's queuing configuration (see the package
// documentation for the three modes Queues selects).
type Config struct {
	// Name is the priority level's, for errors and dumps.
	Name string
	// Queues: < 0 exempt, 0 reject when full, > 0 the number of queues.
	Queues int
	// HandSize is how many queues a flow's hash deals (Queues > 0).
	HandSize int
	// QueueLengthLimit is how many requests a queue holds (Queues > 0).
	QueueLengthLimit int
}

// Clock is the time a QueueSet runs on.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func())
}

// RealClock is the wall clock (and testing/synctest's fake one inside a
// bubble).
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) { time.AfterFunc(d, f) }

// WorkEstimate is what a request is expected to occupy: InitialSeats while
// it executes, then FinalSeats for AdditionalLatency after it finishes.
type WorkEstimate struct {
	InitialSeats      int
	FinalSeats        int
	AdditionalLatency time.Duration
}

// MaxSeats is the number of seats the request holds from dispatch until
// its final seats are released.
func (we WorkEstimate) MaxSeats() int { return max(we.InitialSeats, we.FinalSeats) }

// Descr describes a request to dumps and observers; the QueueSet does not
// interpret it.
type Descr struct {
	FlowSchema    string
	Distinguisher string
	// Details are shown by request dumps that ask for them.
	Details any
	// Tag is handed back to the Observer (a metrics series, say).
	Tag any
}

// Observer learns what happens in a QueueSet, for metrics. Its methods are
// called with the QueueSet locked and must be quick.
type Observer interface {
	// Waiting reports requests (and their seats) entering (+) or leaving
	// (-) the queues.
	Waiting(tag any, requests, seats int)
	// Executing reports requests starting (+1) or ending (-1) their
	// execution, and seats taken (+) or released (-); seats of a request's
	// final stage are released after the request has ended.
	Executing(tag any, requests, seats int)
	// Rejected reports a request refused: "queue-full",
	// "concurrency-limit" or "time-out".
	Rejected(tag any, reason string)
	// Enqueued reports the length of the queue a request joined.
	Enqueued(tag any, queueLength int)
	// NoAccommodation reports a dispatch attempt that found too few seats
	// free for the next request.
	NoAccommodation(tag any)
}

// estimatedServiceTime is the service time fair queuing assumes at
// dispatch, corrected when the request finishes (kube's guess, 3 ms).
const estimatedServiceTime = 3 * time.Millisecond

// Virtual times stay far from overflowing: once R passes highR, R and every
// virtual time derived from it move back by rDecrement.
const (
	rDecrement = MaxSeatSeconds / 2
	highR      = rDecrement + rDecrement/2
)

// QueueSet is one priority level's queues; see the package documentation.
type QueueSet struct {
	clock Clock
	obs   Observer

	mu     sync.Mutex
	cfg    Config
	dealer *Dealer
	limit  int

	queues    []*queue
	queueless reqList // executing requests that went through no queue
	// backlogged are the queues with requests waiting (in no order; each
	// queue knows its position), so that a dispatch looks at those only.
	backlogged []*queue

	currentR     SeatSeconds
	lastRealTime time.Time
	robin        int // index of the queue dispatched from last
	enqueues     int // rotates where a hand starts looking

	activeQueues int // queues with requests waiting or executing
	queuedSeats  int // seats in use or waiting, over the queues
	waiting      int
	executing    int
	seatsInUse   int
	seatsWaiting int

	dispatched, rejected, timedOut, cancelled int

	demand integrator
}

// New returns a QueueSet with cfg and a concurrency limit of 0 (see
// SetLimit); obs may be nil, clock nil means RealClock.
func New(cfg Config, clock Clock, obs Observer) (*QueueSet, error) {
	if clock == nil {
		clock = RealClock{}
	}
	if obs == nil {
		obs = nopObserver{}
	}
	qs := &QueueSet{clock: clock, obs: obs}
	qs.lastRealTime = clock.Now()
	qs.demand.init(qs.lastRealTime)
	if err := qs.SetConfig(cfg); err != nil {
		return nil, err
	}
	return qs, nil
}

// CheckConfig reports whether cfg is usable, without building anything.
func CheckConfig(cfg Config) error {
	_, err := dealerFor(cfg)
	return err
}

func dealerFor(cfg Config) (*Dealer, error) {
	if cfg.Queues <= 0 {
		return nil, nil
	}
	d, err := NewDealer(cfg.Queues, cfg.HandSize)
	if err != nil {
		return nil, fmt.Errorf("priority level %q: the queuing configuration implies an invalid shuffle sharding: %w", cfg.Name, err)
	}
	return d, nil
}

// SetConfig changes the queuing configuration. Queues are added at once;
// queues beyond a smaller count go away as they empty, and new requests
// only join the first cfg.Queues. A QueueSet leaving queuing mode keeps its
// hand size and queue length limit for the requests still queued.
func (qs *QueueSet) SetConfig(cfg Config) error {
	dealer, err := dealerFor(cfg)
	if err != nil {
		return err
	}
	qs.lockAndSync()
	defer qs.mu.Unlock()
	if cfg.Queues > 0 {
		for len(qs.queues) < cfg.Queues {
			qs.queues = append(qs.queues, &queue{index: len(qs.queues)})
		}
	} else {
		cfg.HandSize, cfg.QueueLengthLimit = qs.cfg.HandSize, qs.cfg.QueueLengthLimit
	}
	qs.cfg, qs.dealer = cfg, dealer
	qs.dispatchAsMuchAsPossibleLocked()
	return nil
}

// SetLimit sets the concurrency limit, in seats, and dispatches what now
// fits.
func (qs *QueueSet) SetLimit(seats int) {
	qs.lockAndSync()
	defer qs.mu.Unlock()
	qs.limit = seats
	qs.dispatchAsMuchAsPossibleLocked()
}

// Limit is the current concurrency limit in seats.
func (qs *QueueSet) Limit() int {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	return qs.limit
}

// StartRequest admits a request of flow hash. It returns nil when the
// request is rejected (queue full, or no seats in reject mode); otherwise
// the request, and whether it is executing already. A request that is not
// executing waits in a queue: call Wait. Every request returned must be
// finished with Finish once it has executed.
func (qs *QueueSet) StartRequest(we WorkEstimate, hash uint64, d Descr) (*Request, bool) {
	qs.lockAndSync()
	defer qs.mu.Unlock()
	if qs.cfg.Queues <= 0 {
		if !qs.canAccommodateLocked(we.MaxSeats()) {
			qs.rejected++
			qs.obs.Rejected(d.Tag, "concurrency-limit")
			return nil, false
		}
		r := qs.newRequestLocked(we, d)
		qs.startExecutingLocked(r)
		return r, true
	}
	q := qs.shuffleShardLocked(hash)
	if qs.seatsInUse >= qs.limit && q.waiting.n >= qs.cfg.QueueLengthLimit {
		qs.rejected++
		qs.obs.Rejected(d.Tag, "queue-full")
		return nil, false
	}
	r := qs.newRequestLocked(we, d)
	r.queue = q
	qs.enqueueLocked(r)
	qs.obs.Enqueued(d.Tag, q.waiting.n)
	qs.dispatchAsMuchAsPossibleLocked()
	if r.state == stateExecuting {
		return r, true
	}
	r.ready = make(chan struct{})
	return r, false
}

func (qs *QueueSet) newRequestLocked(we WorkEstimate, d Descr) *Request {
	now := qs.lastRealTime
	r := &Request{qs: qs, descr: d, work: we, arrival: now, arrivalR: qs.currentR}
	r.finalWork = SeatsTimesDuration(float64(we.FinalSeats), we.AdditionalLatency)
	r.totalWork = SeatsTimesDuration(float64(we.InitialSeats), estimatedServiceTime) + r.finalWork
	return r
}

// shuffleShardLocked picks, among the queues dealt for hash, the one with
// the least waiting work; ties go to the first looked at, and where the
// look starts rotates with every request.
func (qs *QueueSet) shuffleShardLocked(hash uint64) *queue {
	var buf [maxHandSize]int
	hand := qs.dealer.Deal(hash, buf[:0])
	offset := qs.enqueues % len(hand)
	qs.enqueues++
	best, bestWork := -1, MaxSeatSeconds
	for i := range hand {
		idx := hand[(offset+i)%len(hand)]
		if w := qs.queues[idx].sumWork; w < bestWork || best < 0 {
			best, bestWork = idx, w
		}
	}
	return qs.queues[best]
}

func (qs *QueueSet) enqueueLocked(r *Request) {
	q := r.queue
	if !q.active() {
		q.nextDispatchR = qs.currentR
		qs.activeQueues++
	}
	qs.pushLocked(q, r)
	seats := r.work.MaxSeats()
	qs.waiting++
	qs.seatsWaiting += seats
	qs.queuedSeats += seats
	qs.obs.Waiting(r.descr.Tag, 1, seats)
	qs.noteDemandLocked()
	qs.boundNextDispatchLocked(q)
}

// canAccommodateLocked reports whether a request of seats may start now:
// always in exempt mode; a request wider than the whole limit only when
// nothing executes.
func (qs *QueueSet) canAccommodateLocked(seats int) bool {
	switch {
	case qs.cfg.Queues < 0:
		return true
	case seats > qs.limit:
		return qs.executing == 0
	}
	return qs.seatsInUse+seats <= qs.limit
}

func (qs *QueueSet) startExecutingLocked(r *Request) {
	r.state = stateExecuting
	r.start = qs.lastRealTime
	seats := r.work.MaxSeats()
	qs.executing++
	qs.seatsInUse += seats
	qs.dispatched++
	if q := r.queue; q != nil {
		q.executing.pushBack(r)
		q.seatsInUse += seats
		qs.queuedSeats += seats
		q.nextDispatchR += r.totalWork
	} else {
		qs.queueless.pushBack(r)
	}
	qs.obs.Executing(r.descr.Tag, 1, seats)
	qs.noteDemandLocked()
	if r.ready != nil {
		close(r.ready)
	}
}

func (qs *QueueSet) dispatchAsMuchAsPossibleLocked() {
	for qs.waiting > 0 && (qs.seatsInUse < qs.limit || qs.cfg.Queues < 0) && qs.dispatchLocked() {
	}
}

// dispatchLocked starts the head of the queue whose next request would
// finish first in virtual time, if its seats fit; it reports whether it
// started one. Ties go to the queue that comes first after the one
// dispatched from last, round robin.
func (qs *QueueSet) dispatchLocked() bool {
	var best *queue
	bestFinish, bestTurn := MaxSeatSeconds, 0
	n := len(qs.queues)
	for _, q := range qs.backlogged {
		finish := q.nextDispatchR + q.waiting.head.totalWork
		turn := (q.index - qs.robin - 1 + n) % n
		if best == nil || finish < bestFinish || finish == bestFinish && turn < bestTurn {
			best, bestFinish, bestTurn = q, finish, turn
		}
	}
	if best == nil {
		return false
	}
	r := best.waiting.head
	if !qs.canAccommodateLocked(r.work.MaxSeats()) {
		qs.obs.NoAccommodation(r.descr.Tag)
		return false
	}
	qs.robin = best.index
	qs.popLocked(best, r)
	seats := r.work.MaxSeats()
	qs.waiting--
	qs.seatsWaiting -= seats
	qs.queuedSeats -= seats
	qs.obs.Waiting(r.descr.Tag, -1, -seats)
	// A final stage wider than the whole limit is reshaped to the limit,
	// longer, for the same work.
	if r.work.FinalSeats > qs.limit && qs.limit > 0 {
		r.work.AdditionalLatency = r.finalWork.DurationPerSeat(float64(qs.limit))
		r.work.FinalSeats = qs.limit
	}
	qs.startExecutingLocked(r)
	qs.boundNextDispatchLocked(best)
	return true
}

// boundNextDispatchLocked keeps a queue from banking virtual time: its next
// dispatch is never before its oldest request arrived.
func (qs *QueueSet) boundNextDispatchLocked(q *queue) {
	if head := q.waiting.head; head != nil && q.nextDispatchR < head.arrivalR {
		q.nextDispatchR = head.arrivalR
	}
}

// lockAndSync locks the QueueSet and advances virtual time to now.
func (qs *QueueSet) lockAndSync() {
	qs.mu.Lock()
	now := qs.clock.Now()
	dt := now.Sub(qs.lastRealTime)
	qs.lastRealTime = now
	if dt <= 0 || qs.activeQueues == 0 {
		return
	}
	rate := math.Min(float64(qs.queuedSeats), float64(qs.limit)) / float64(qs.activeQueues)
	qs.currentR += SeatsTimesDuration(rate, dt)
	if qs.currentR >= highR {
		qs.advanceEpochLocked()
	}
}

func (qs *QueueSet) advanceEpochLocked() {
	qs.currentR -= rDecrement
	for _, q := range qs.queues {
		if !q.active() {
			q.nextDispatchR = 0
			continue
		}
		q.nextDispatchR -= rDecrement
		for r := q.waiting.head; r != nil; r = r.next {
			r.arrivalR -= rDecrement
		}
	}
}

func (qs *QueueSet) noteDemandLocked() {
	qs.demand.set(qs.lastRealTime, float64(qs.seatsInUse+qs.seatsWaiting))
}

// ResetDemand returns the statistics of the seat demand (seats in use plus
// seats waiting) since the last call, for the periodic adjustment of
// concurrency limits.
func (qs *QueueSet) ResetDemand() DemandStats {
	qs.lockAndSync()
	defer qs.mu.Unlock()
	return qs.demand.reset(qs.lastRealTime)
}

// IsIdle reports whether no request waits or executes.
func (qs *QueueSet) IsIdle() bool {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	return qs.waiting == 0 && qs.executing == 0
}

// Request is one admitted request of a QueueSet.
type Request struct {
	qs    *QueueSet
	descr Descr
	work  WorkEstimate
	// totalWork is the work fair queuing charges at dispatch; finalWork
	// its final-stage part.
	totalWork, finalWork SeatSeconds

	queue    *queue
	arrival  time.Time
	arrivalR SeatSeconds
	start    time.Time
	served   time.Duration
	state    requestState
	ready    chan struct{} // closed at dispatch, for a request that waited

	prev, next *Request // in its queue's waiting or executing list
}

type requestState int

const (
	stateWaiting requestState = iota
	stateExecuting
	stateCancelled
	stateFinished
)

// Work is the request's work estimate (its final stage possibly reshaped
// at dispatch).
func (r *Request) Work() WorkEstimate {
	r.qs.mu.Lock()
	defer r.qs.mu.Unlock()
	return r.work
}

// Arrival is when the request arrived (never changes).
func (r *Request) Arrival() time.Time { return r.arrival }

// Times returns when the request arrived, when it started executing and
// how long it executed: the QueueSet's own readings of its clock, so that
// callers need no more of them. Only the request's owner calls it, once
// the request executes (StartRequest said so, or Wait returned true); the
// duration is set once Finish returned. Those writes happen before, so it
// takes no lock.
func (r *Request) Times() (arrival, start time.Time, served time.Duration) {
	return r.arrival, r.start, r.served
}

// Wait blocks a queued request until it is dispatched (true) or ctx ends
// first (false: the request left its queue and must not execute). It
// returns true at once for a request already executing.
func (r *Request) Wait(ctx context.Context) bool {
	if r.ready != nil {
		select {
		case <-r.ready:
			return true
		case <-ctx.Done():
		}
	}
	qs := r.qs
	qs.lockAndSync()
	defer qs.mu.Unlock()
	if r.state != stateWaiting {
		return r.state == stateExecuting
	}
	q := r.queue
	qs.popLocked(q, r)
	seats := r.work.MaxSeats()
	qs.waiting--
	qs.seatsWaiting -= seats
	qs.queuedSeats -= seats
	if !q.active() {
		qs.activeQueues--
	}
	qs.rejected++
	qs.cancelled++
	r.state = stateCancelled
	qs.obs.Waiting(r.descr.Tag, -1, -seats)
	qs.obs.Rejected(r.descr.Tag, "time-out")
	qs.noteDemandLocked()
	qs.boundNextDispatchLocked(q)
	qs.removeQueueIfEmptyLocked(q)
	return false
}

// Finish ends an executing request: its initial seats are released now,
// its final seats after its AdditionalLatency, and waiting requests are
// dispatched into what was freed. It reports whether the QueueSet is idle.
// Finishing a request that never executed (rejected in its queue) only
// reports idleness.
func (r *Request) Finish() bool {
	qs := r.qs
	qs.lockAndSync()
	defer qs.mu.Unlock()
	if r.state != stateExecuting {
		return qs.waiting == 0 && qs.executing == 0
	}
	r.state = stateFinished
	r.served = qs.lastRealTime.Sub(r.start)
	qs.executing--
	qs.obs.Executing(r.descr.Tag, -1, 0)
	if q := r.queue; q != nil {
		q.executing.remove(r)
		if !q.active() {
			qs.activeQueues--
		}
		// Correct the work charged at dispatch by the actual service time.
		q.nextDispatchR -= signedWork(float64(r.work.InitialSeats), estimatedServiceTime-r.served)
		qs.boundNextDispatchLocked(q)
	} else {
		qs.queueless.remove(r)
	}
	if r.work.AdditionalLatency <= 0 {
		qs.releaseSeatsLocked(r)
	} else {
		qs.clock.AfterFunc(r.work.AdditionalLatency, func() {
			qs.lockAndSync()
			defer qs.mu.Unlock()
			qs.releaseSeatsLocked(r)
			qs.dispatchAsMuchAsPossibleLocked()
		})
	}
	qs.dispatchAsMuchAsPossibleLocked()
	return qs.waiting == 0 && qs.executing == 0
}

// signedWork is SeatsTimesDuration for a duration that may be negative, in
// the two's complement that SeatSeconds arithmetic wraps around.
func signedWork(seats float64, d time.Duration) SeatSeconds {
	return SeatSeconds(int64(math.Round(seats * float64(d) / (1e9 / ssScale))))
}

func (qs *QueueSet) releaseSeatsLocked(r *Request) {
	seats := r.work.MaxSeats()
	qs.seatsInUse -= seats
	if q := r.queue; q != nil {
		q.seatsInUse -= seats
		qs.queuedSeats -= seats
	}
	qs.obs.Executing(r.descr.Tag, 0, -seats)
	qs.noteDemandLocked()
	if r.queue != nil {
		qs.removeQueueIfEmptyLocked(r.queue)
	}
}

// removeQueueIfEmptyLocked drops a queue beyond the configured count once
// nothing uses it.
func (qs *QueueSet) removeQueueIfEmptyLocked(q *queue) {
	if len(qs.queues) <= qs.cfg.Queues || q.active() || q.seatsInUse > 0 || q.index >= len(qs.queues) || qs.queues[q.index] != q {
		return
	}
	qs.queues = append(qs.queues[:q.index], qs.queues[q.index+1:]...)
	for i := q.index; i < len(qs.queues); i++ {
		qs.queues[i].index = i
	}
	if qs.robin >= q.index && qs.robin > 0 {
		qs.robin--
	}
}

// queue is one FIFO of waiting requests, with the requests it dispatched
// that are still executing.
type queue struct {
	index     int
	waiting   reqList
	executing reqList
	// sums over the waiting requests
	sumInitial, sumMax int
	sumWork            SeatSeconds
	seatsInUse         int
	nextDispatchR      SeatSeconds
	backlogPos         int // in QueueSet.backlogged, while requests wait
}

func (q *queue) active() bool { return q.waiting.n > 0 || q.executing.n > 0 }

func (qs *QueueSet) pushLocked(q *queue, r *Request) {
	if q.waiting.n == 0 {
		q.backlogPos = len(qs.backlogged)
		qs.backlogged = append(qs.backlogged, q)
	}
	q.waiting.pushBack(r)
	q.sumInitial += r.work.InitialSeats
	q.sumMax += r.work.MaxSeats()
	q.sumWork += r.totalWork
}

func (qs *QueueSet) popLocked(q *queue, r *Request) {
	q.waiting.remove(r)
	q.sumInitial -= r.work.InitialSeats
	q.sumMax -= r.work.MaxSeats()
	q.sumWork -= r.totalWork
	if q.waiting.n == 0 {
		last := qs.backlogged[len(qs.backlogged)-1]
		qs.backlogged[q.backlogPos] = last
		last.backlogPos = q.backlogPos
		qs.backlogged = qs.backlogged[:len(qs.backlogged)-1]
	}
}

// reqList is an intrusive doubly linked list of requests: a request is in
// at most one list at a time, so membership costs no allocation.
type reqList struct {
	head, tail *Request
	n          int
}

func (l *reqList) pushBack(r *Request) {
	r.prev, r.next = l.tail, nil
	if l.tail != nil {
		l.tail.next = r
	} else {
		l.head = r
	}
	l.tail = r
	l.n++
}

func (l *reqList) remove(r *Request) {
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		l.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		l.tail = r.prev
	}
	r.prev, r.next = nil, nil
	l.n--
}

type nopObserver struct{}

func (nopObserver) Waiting(any, int, int)   {}
func (nopObserver) Executing(any, int, int) {}
func (nopObserver) Rejected(any, string)    {}
func (nopObserver) Enqueued(any, int)       {}
func (nopObserver) NoAccommodation(any)     {}
