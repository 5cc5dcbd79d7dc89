//go:build go1.25

package fairqueue

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is an Observer that remembers rejections.
type recorder struct {
	mu       sync.Mutex
	rejected []string
	waiting  int
	seats    int
}

func (r *recorder) Waiting(_ any, n, _ int) { r.mu.Lock(); r.waiting += n; r.mu.Unlock() }
func (r *recorder) Executing(_ any, _, s int) {
	r.mu.Lock()
	r.seats += s
	r.mu.Unlock()
}
func (r *recorder) Rejected(_ any, reason string) {
	r.mu.Lock()
	r.rejected = append(r.rejected, reason)
	r.mu.Unlock()
}
func (r *recorder) Enqueued(any, int)   {}
func (r *recorder) NoAccommodation(any) {}

func newQS(t *testing.T, cfg Config, limit int) (*QueueSet, *recorder) {
	t.Helper()
	rec := &recorder{}
	qs, err := New(cfg, nil, rec)
	require.NoError(t, err)
	qs.SetLimit(limit)
	return qs, rec
}

var one = WorkEstimate{InitialSeats: 1}

func TestRejectModeAdmitsWhatFitsAndRejectsTheRest(t *testing.T) {
	qs, rec := newQS(t, Config{Name: "r"}, 2)
	a, execA := qs.StartRequest(one, 0, Descr{})
	b, execB := qs.StartRequest(one, 0, Descr{})
	c, _ := qs.StartRequest(one, 0, Descr{})
	require.NotNil(t, a)
	require.NotNil(t, b)
	assert.True(t, execA && execB)
	assert.Nil(t, c)
	assert.Equal(t, []string{"concurrency-limit"}, rec.rejected)

	assert.False(t, a.Finish())
	d, execD := qs.StartRequest(one, 0, Descr{})
	require.NotNil(t, d)
	assert.True(t, execD)
	b.Finish()
	assert.True(t, d.Finish(), "idle once every request finished")
}

func TestExemptModeNeverQueuesNorRejects(t *testing.T) {
	qs, rec := newQS(t, Config{Name: "exempt", Queues: -1}, 0)
	var reqs []*Request
	for range 100 {
		r, executing := qs.StartRequest(WorkEstimate{InitialSeats: 10}, 0, Descr{})
		require.NotNil(t, r)
		require.True(t, executing)
		reqs = append(reqs, r)
	}
	assert.Empty(t, rec.rejected)
	assert.Equal(t, 1000, qs.Dump().SeatsInUse)
	for _, r := range reqs {
		r.Finish()
	}
	assert.True(t, qs.IsIdle())
}

func TestAQueuedRequestRunsWhenASeatFrees(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		qs, _ := newQS(t, Config{Name: "q", Queues: 4, HandSize: 2, QueueLengthLimit: 10}, 1)
		first, executing := qs.StartRequest(one, 1, Descr{})
		require.True(t, executing)
		second, executing := qs.StartRequest(one, 2, Descr{})
		require.NotNil(t, second)
		require.False(t, executing)

		dispatched := make(chan bool)
		go func() { dispatched <- second.Wait(context.Background()) }()
		synctest.Wait()
		select {
		case <-dispatched:
			t.Fatal("the second request must wait for a seat")
		default:
		}
		first.Finish()
		assert.True(t, <-dispatched)
		assert.True(t, second.Finish())
	})
}

func TestAFullQueueRejects(t *testing.T) {
	qs, rec := newQS(t, Config{Name: "q", Queues: 1, HandSize: 1, QueueLengthLimit: 2}, 1)
	_, executing := qs.StartRequest(one, 0, Descr{})
	require.True(t, executing)
	for range 2 {
		r, executing := qs.StartRequest(one, 0, Descr{})
		require.NotNil(t, r)
		require.False(t, executing)
	}
	r, _ := qs.StartRequest(one, 0, Descr{})
	assert.Nil(t, r)
	assert.Equal(t, []string{"queue-full"}, rec.rejected)
	assert.Equal(t, 1, qs.Dump().Rejected)
}

func TestAQueuedRequestLeavesItsQueueWhenItsWaitEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		qs, rec := newQS(t, Config{Name: "q", Queues: 1, HandSize: 1, QueueLengthLimit: 5}, 1)
		running, _ := qs.StartRequest(one, 0, Descr{})
		waiting, executing := qs.StartRequest(one, 0, Descr{})
		require.False(t, executing)

		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		start := time.Now()
		assert.False(t, waiting.Wait(ctx))
		assert.Equal(t, 15*time.Second, time.Since(start))
		assert.Equal(t, []string{"time-out"}, rec.rejected)
		d := qs.Dump()
		assert.Equal(t, 0, d.Waiting)
		assert.Equal(t, 1, d.Cancelled)
		assert.Equal(t, 1, d.Rejected)
		assert.Equal(t, 0, rec.waiting)

		assert.False(t, waiting.Finish(), "finishing a request that never ran changes nothing")
		assert.True(t, running.Finish())
	})
}

// drain finishes, one at a time with equal service times, whatever
// executes, and returns the flows in the order they were dispatched.
func drain(t *testing.T, qs *QueueSet, first *Request, pending map[*Request]string) []string {
	t.Helper()
	var order []string
	running := []*Request{first}
	for len(running) > 0 {
		time.Sleep(10 * time.Millisecond)
		r := running[0]
		running = running[1:]
		r.Finish()
		for req, flow := range pending {
			qs.mu.Lock()
			st := req.state
			qs.mu.Unlock()
			if st == stateExecuting {
				order = append(order, flow)
				running = append(running, req)
				delete(pending, req)
			}
		}
	}
	require.Empty(t, pending)
	return order
}

func TestBackloggedFlowsShareDispatchesEquallyWhateverTheirDemand(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Two queues, a hand of one: hash 0 deals queue 0, hash 1 queue 1.
		qs, _ := newQS(t, Config{Name: "q", Queues: 2, HandSize: 1, QueueLengthLimit: 100}, 1)
		blocker, _ := qs.StartRequest(one, 0, Descr{})
		pending := map[*Request]string{}
		for range 12 {
			r, _ := qs.StartRequest(one, 0, Descr{FlowSchema: "heavy"})
			pending[r] = "heavy"
		}
		for range 4 {
			r, _ := qs.StartRequest(one, 1, Descr{FlowSchema: "light"})
			pending[r] = "light"
		}
		order := drain(t, qs, blocker, pending)
		require.Len(t, order, 16)
		// While both are backlogged they alternate: the light flow's four
		// requests are all among the first nine dispatches.
		light := 0
		for _, f := range order[:9] {
			if f == "light" {
				light++
			}
		}
		assert.Equal(t, 4, light, "dispatch order %v", order)
		for i := 0; i+1 < 8; i += 2 {
			assert.NotEqual(t, order[i], order[i+1], "dispatch order %v", order)
		}
	})
}

func TestAWideRequestWaitsForEnoughSeats(t *testing.T) {
	qs, _ := newQS(t, Config{Name: "q", Queues: 1, HandSize: 1, QueueLengthLimit: 10}, 4)
	a, _ := qs.StartRequest(one, 0, Descr{})
	b, _ := qs.StartRequest(one, 0, Descr{})
	wide, executing := qs.StartRequest(WorkEstimate{InitialSeats: 3}, 0, Descr{})
	require.False(t, executing, "3 seats do not fit beside 2 of 4")
	narrow, executing := qs.StartRequest(one, 0, Descr{})
	require.False(t, executing, "a request behind a wide one waits too")
	a.Finish()
	assert.Equal(t, stateExecuting, wide.state, "3 seats fit beside 1 of 4")
	assert.Equal(t, stateWaiting, narrow.state, "nothing fits beside 4 of 4")
	b.Finish()
	assert.Equal(t, stateExecuting, narrow.state)
	assert.Equal(t, 4, qs.Dump().SeatsInUse)
}

func TestARequestWiderThanTheLimitRunsAlone(t *testing.T) {
	qs, _ := newQS(t, Config{Name: "r"}, 2)
	huge, executing := qs.StartRequest(WorkEstimate{InitialSeats: 5}, 0, Descr{})
	require.True(t, executing)
	r, _ := qs.StartRequest(one, 0, Descr{})
	assert.Nil(t, r, "nothing fits beside it")
	huge.Finish()
	huge2, executing := qs.StartRequest(WorkEstimate{InitialSeats: 5}, 0, Descr{})
	assert.True(t, executing)
	huge2.Finish()
}

func TestFinalSeatsAreHeldForTheAdditionalLatency(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		qs, rec := newQS(t, Config{Name: "q", Queues: 1, HandSize: 1, QueueLengthLimit: 10}, 3)
		w, _ := qs.StartRequest(WorkEstimate{InitialSeats: 1, FinalSeats: 3, AdditionalLatency: 5 * time.Millisecond}, 0, Descr{})
		assert.Equal(t, 3, rec.seats)
		next, executing := qs.StartRequest(one, 0, Descr{})
		require.False(t, executing)
		w.Finish()
		assert.Equal(t, 3, qs.Dump().SeatsInUse, "the final seats stay taken")
		time.Sleep(5 * time.Millisecond)
		synctest.Wait()
		assert.True(t, next.Wait(context.Background()))
		assert.Equal(t, 1, qs.Dump().SeatsInUse)
		next.Finish()
		assert.Equal(t, 0, rec.seats)
	})
}

func TestAFinalStageWiderThanTheLimitIsReshapedAtDispatch(t *testing.T) {
	qs, _ := newQS(t, Config{Name: "q", Queues: 1, HandSize: 1, QueueLengthLimit: 10}, 2)
	blocker, _ := qs.StartRequest(WorkEstimate{InitialSeats: 2}, 0, Descr{})
	r, _ := qs.StartRequest(WorkEstimate{InitialSeats: 1, FinalSeats: 8, AdditionalLatency: 10 * time.Millisecond}, 0, Descr{})
	blocker.Finish()
	assert.Equal(t, WorkEstimate{InitialSeats: 1, FinalSeats: 2, AdditionalLatency: 40 * time.Millisecond}, r.Work())
}

func TestRaisingTheLimitDispatchesWaitingRequests(t *testing.T) {
	qs, _ := newQS(t, Config{Name: "q", Queues: 8, HandSize: 2, QueueLengthLimit: 10}, 0)
	var reqs []*Request
	for i := range 5 {
		r, executing := qs.StartRequest(one, uint64(i), Descr{})
		require.False(t, executing)
		reqs = append(reqs, r)
	}
	qs.SetLimit(3)
	d := qs.Dump()
	assert.Equal(t, 3, d.Executing)
	assert.Equal(t, 2, d.Waiting)
	assert.Equal(t, 3, qs.Limit())
}

func TestFewerQueuesTakeEffectAsTheExtraOnesEmpty(t *testing.T) {
	qs, _ := newQS(t, Config{Name: "q", Queues: 8, HandSize: 1, QueueLengthLimit: 10}, 8)
	var reqs []*Request
	for h := range uint64(8) {
		r, executing := qs.StartRequest(one, h, Descr{})
		require.True(t, executing)
		reqs = append(reqs, r)
	}
	require.NoError(t, qs.SetConfig(Config{Name: "q", Queues: 2, HandSize: 1, QueueLengthLimit: 10}))
	assert.Len(t, qs.Dump().Queues, 8, "busy queues stay")
	for _, r := range reqs {
		r.Finish()
	}
	assert.Len(t, qs.Dump().Queues, 2)
	r, _ := qs.StartRequest(one, 7, Descr{})
	assert.Equal(t, 1, r.queue.index, "new requests only join the first two queues")
}

func TestSetConfigRefusesAnImpossibleShuffleSharding(t *testing.T) {
	_, err := New(Config{Name: "bad", Queues: 4, HandSize: 5}, nil, nil)
	require.EqualError(t, err, `priority level "bad": the queuing configuration implies an invalid shuffle sharding: handSize 5 is greater than deckSize 4`)
	assert.Error(t, CheckConfig(Config{Queues: 128, HandSize: 10}))
	assert.NoError(t, CheckConfig(Config{Queues: 0}))
}

func TestSeatDemandIsAveragedOverTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		qs, _ := newQS(t, Config{Name: "r"}, 10)
		qs.ResetDemand()
		r, _ := qs.StartRequest(WorkEstimate{InitialSeats: 4}, 0, Descr{})
		time.Sleep(time.Second)
		r.Finish()
		time.Sleep(time.Second)
		st := qs.ResetDemand()
		assert.Equal(t, 2*time.Second, st.Duration)
		assert.InDelta(t, 2.0, st.Average, 1e-9)
		assert.InDelta(t, 2.0, st.Deviation, 1e-9)
		assert.Equal(t, 4.0, st.Max)
		assert.Equal(t, 0.0, st.Min)
	})
}

func TestVirtualTimeMovesBackBeforeOverflowing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		qs, _ := newQS(t, Config{Name: "q", Queues: 2, HandSize: 1, QueueLengthLimit: 10}, 1)
		running, _ := qs.StartRequest(one, 0, Descr{})
		waiting, _ := qs.StartRequest(one, 1, Descr{})
		qs.mu.Lock()
		qs.currentR = highR - 1
		for _, q := range qs.queues {
			q.nextDispatchR += highR - 1
		}
		waiting.arrivalR += highR - 1
		qs.mu.Unlock()
		time.Sleep(time.Second)
		running.Finish()
		qs.mu.Lock()
		assert.Less(t, qs.currentR, highR)
		qs.mu.Unlock()
		assert.True(t, waiting.Wait(context.Background()))
		waiting.Finish()
	})
}

func TestSeatSecondsPrintAsKubeDumpsThem(t *testing.T) {
	assert.Equal(t, "0.00000000ss", SeatSeconds(0).String())
	assert.Equal(t, "0.00300000ss", SeatsTimesDuration(1, 3*time.Millisecond).String())
	assert.Equal(t, "12.50000000ss", SeatsTimesDuration(2.5, 5*time.Second).String())
	assert.Equal(t, 2*time.Second, SeatsTimesDuration(4, 2*time.Second).DurationPerSeat(4))
}
