package etcd

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeEtcd answers revision requests with the number of requests started
// so far (so a request's answer tells when it started), each waiting for
// a release when gated.
type fakeEtcd struct {
	started atomic.Int64
	gate    chan struct{} // nil: answer after delay
	delay   time.Duration
}

func (e *fakeEtcd) fetch(ctx context.Context) (int64, error) {
	n := e.started.Add(1)
	time.Sleep(e.delay)
	if e.gate != nil {
		select {
		case <-e.gate:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	return n, nil
}

// waitStarted waits until n requests have started.
func (e *fakeEtcd) waitStarted(t *testing.T, n int64) {
	t.Helper()
	require.Eventually(t, func() bool { return e.started.Load() >= n }, time.Minute, time.Millisecond)
}

// readAsync reads a revision on a goroutine of its own.
func readAsync(f *revisionFetcher) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		rev, err := f.current(context.Background())
		if err != nil {
			rev = -1
		}
		out <- rev
	}()
	return out
}

// queuedReaders is how many readers wait for the next request.
func queuedReaders(f *revisionFetcher) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.queued == nil {
		return 0
	}
	return f.queued.n
}

func TestRevisionFetcherAnswersAReaderWithARequestStartedAfterItArrived(t *testing.T) {
	e := &fakeEtcd{gate: make(chan struct{})}
	f := &revisionFetcher{fetch: e.fetch, timeout: time.Minute}
	first := readAsync(f)
	e.waitStarted(t, 1)
	second := readAsync(f)
	require.Eventually(t, func() bool { return queuedReaders(f) == 1 }, time.Minute, time.Millisecond)
	close(e.gate)
	assert.Equal(t, int64(1), <-first)
	assert.Equal(t, int64(2), <-second, "the request in flight when the reader arrived does not answer it")
}

func TestRevisionFetcherSharesOneRequestAmongTheReadersThatArrivedDuringTheLast(t *testing.T) {
	e := &fakeEtcd{gate: make(chan struct{})}
	f := &revisionFetcher{fetch: e.fetch, timeout: time.Minute}
	first := readAsync(f)
	e.waitStarted(t, 1)
	var later []<-chan int64
	for range 5 {
		later = append(later, readAsync(f))
	}
	require.Eventually(t, func() bool { return queuedReaders(f) == 5 }, time.Minute, time.Millisecond)
	close(e.gate)
	assert.Equal(t, int64(1), <-first)
	for _, c := range later {
		assert.Equal(t, int64(2), <-c)
	}
	assert.Equal(t, int64(2), e.started.Load(), "six readers, two requests")
}

func TestRevisionFetcherHoldsTheNextRequestForTheReadersTheLastAnswered(t *testing.T) {
	e := &fakeEtcd{gate: make(chan struct{})}
	f := &revisionFetcher{fetch: e.fetch, timeout: time.Minute, maxHold: time.Second}
	first := readAsync(f)
	e.waitStarted(t, 1)
	waiting := readAsync(f)
	require.Eventually(t, func() bool { return queuedReaders(f) == 1 }, time.Minute, time.Millisecond)
	time.Sleep(300 * time.Millisecond) // the hold lasts at most as long as the request
	close(e.gate)
	require.Equal(t, int64(1), <-first)
	// The reader the first request answered comes back within the hold
	// (at most the request's duration): it shares the request of the reader queued
	// meanwhile instead of waiting for a third.
	back := readAsync(f)
	assert.Equal(t, int64(2), <-waiting)
	assert.Equal(t, int64(2), <-back)
	assert.Equal(t, int64(2), e.started.Load())
}

func TestRevisionFetcherSendsAtOnceForAReaderAlone(t *testing.T) {
	const delay = 400 * time.Millisecond
	e := &fakeEtcd{delay: delay}
	f := &revisionFetcher{fetch: e.fetch, timeout: time.Minute, maxHold: time.Hour}
	start := time.Now()
	for i := range 3 {
		rev, err := f.current(context.Background())
		require.NoError(t, err)
		assert.Equal(t, int64(i+1), rev)
	}
	// Held, the second and third requests would each have waited as long
	// as a request takes (3 requests in 5 delays); the margin is for a
	// loaded machine under -race.
	assert.Less(t, time.Since(start), 3*delay+delay*7/8, "a reader alone is never held")
}

func TestRevisionFetcherFailsAReaderWithinTheTimeoutOfItsArrival(t *testing.T) {
	e := &fakeEtcd{gate: make(chan struct{})} // never released: etcd does not answer
	// Readers arriving 0, 30 and 60 ms into a request etcd never answers
	// each fail by the timeout of their own arrival (within a margin for a
	// loaded machine), not after waiting for the request before theirs to
	// fail first (at least 2*timeout-60ms).
	const timeout = 300 * time.Millisecond
	f := &revisionFetcher{fetch: e.fetch, timeout: timeout}
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Go(func() {
			time.Sleep(time.Duration(i) * 30 * time.Millisecond)
			start := time.Now()
			_, err := f.current(context.Background())
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.Less(t, time.Since(start), timeout+150*time.Millisecond)
		})
	}
	wg.Wait()
}

func TestRevisionFetcherStopsWaitingWhenTheReaderGoesAway(t *testing.T) {
	e := &fakeEtcd{gate: make(chan struct{})}
	f := &revisionFetcher{fetch: e.fetch, timeout: time.Minute}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := f.current(ctx)
		errc <- err
	}()
	e.waitStarted(t, 1)
	cancel()
	assert.ErrorIs(t, <-errc, context.Canceled)
	close(e.gate)
}
