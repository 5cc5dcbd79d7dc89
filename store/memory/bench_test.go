package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// benchConfig keeps 1000 revisions of history, so that filling a store
// with 100k objects does not pin 100k snapshots.
var benchConfig = memory.Config{HistoryLimit: 1000, MaxHistory: 1000}

func benchKey(i int) string { return fmt.Sprintf("/apps/deployments/ns%d/obj-%07d", i%10, i) }

func filled(b *testing.B, n int) *memory.Store {
	b.Helper()
	s := memory.New(benchConfig)
	for i := range n {
		if _, err := s.Create(context.Background(), benchKey(i), obj(strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC() // do not bill the fill's garbage to the benchmark
	return s
}

// BenchmarkCreate prices one commit of a new key (building the small
// object included) on a growing store.
func BenchmarkCreate(b *testing.B) {
	s := memory.New(benchConfig)
	ctx := context.Background()
	cpu := benchkit.MeterCPU(b)
	i := 0
	for b.Loop() {
		if _, err := s.Create(ctx, benchKey(i), obj("x")); err != nil {
			b.Fatal(err)
		}
		i++
	}
	cpu.Report(i)
}

// BenchmarkUpdate prices a guaranteed update of a random key of a 100k
// object store: read, tryUpdate (a shallow copy of a small object), lock,
// commit, clone, publish.
func BenchmarkUpdate(b *testing.B) {
	const n = 100_000
	s := filled(b, n)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	tryUpdate := func(cur *store.Object) (meta.Object, error) {
		next := meta.Object{"metadata": map[string]any{"name": cur.Data().Name(), "uid": cur.Data().UID()}}
		return next, nil
	}
	keys := make([]string, n)
	for i := range keys {
		keys[i] = benchKey(i)
	}
	cpu := benchkit.MeterCPU(b)
	ops := 0
	for b.Loop() {
		if _, err := s.Update(ctx, keys[rng.IntN(n)], store.UpdateOptions{}, tryUpdate); err != nil {
			b.Fatal(err)
		}
		ops++
	}
	cpu.Report(ops)
}

// BenchmarkGet reads a random key of a 100k object store.
func BenchmarkGet(b *testing.B) {
	const n = 100_000
	s := filled(b, n)
	ctx := context.Background()
	keys := make([]string, 1024)
	for i := range keys {
		keys[i] = benchKey(rand.IntN(n))
	}
	cpu := benchkit.MeterCPU(b)
	i := 0
	for b.Loop() {
		if _, err := s.Get(ctx, keys[i%len(keys)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	cpu.Report(i)
}

// BenchmarkList reads pages from stores of 10k and 100k objects, each
// page from a random start key in one of 10 namespaces: the cost is
// O(log n + limit), so a page of 500 costs about the same at any store
// size (what differs is how much of the store fits in the CPU caches), and
// limit=1 prices the O(log n) seek and Total.
func BenchmarkList(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s := filled(b, n)
		ctx := context.Background()
		rev := s.Revision()
		// Random starts with at least 500 objects after them in their
		// namespace (ns i%10 holds every tenth i), so every page is full.
		starts := make([]string, 64)
		for i := range starts {
			starts[i] = benchKey(rand.IntN(10) + 10*rand.IntN(n/10-500))
		}
		for _, limit := range []int{1, 500} {
			b.Run(fmt.Sprintf("limit=%d/objects=%d", limit, n), func(b *testing.B) {
				cpu := benchkit.MeterCPU(b)
				i := 0
				for b.Loop() {
					start := starts[i%len(starts)]
					prefix := start[:len("/apps/deployments/nsX/")]
					res, err := s.List(ctx, prefix, store.ListOptions{Revision: rev, Match: store.Exact, Start: start, Limit: limit})
					if err != nil {
						b.Fatal(err)
					}
					if res.Total != int64(n/10) || len(res.Items) != limit {
						b.Fatalf("total %d, %d items", res.Total, len(res.Items))
					}
					i++
				}
				cpu.Report(i)
			})
		}
	}
}

// BenchmarkWatchFanout prices one write delivered to 100 watchers, each
// pulling in its own goroutine: an op is one Create plus the wait until
// every watcher has received it.
func BenchmarkWatchFanout(b *testing.B) {
	const watchers = 100
	s := memory.New(benchConfig)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var received atomic.Int64
	delivered := make(chan struct{}, 1)
	var wg sync.WaitGroup
	for range watchers {
		w, err := s.Watch(ctx, "/apps/", store.WatchOptions{})
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer w.Stop()
			for {
				evs, err := w.Next(ctx)
				if err != nil {
					return
				}
				if received.Add(int64(len(evs)))%watchers == 0 {
					select {
					case delivered <- struct{}{}:
					default:
					}
				}
			}
		}()
	}
	cpu := benchkit.MeterCPU(b)
	i := 0
	for b.Loop() {
		if _, err := s.Create(ctx, benchKey(i), obj("x")); err != nil {
			b.Fatal(err)
		}
		i++
		for received.Load() < int64(i*watchers) {
			<-delivered
		}
	}
	cpu.Report(i)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*watchers), "ns/delivery")
	cancel()
	wg.Wait()
}
