package apiserver_test

// Heap per stored object, and the heap the history window
// holds under a steady write load.

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// storedJSONBytes sums the cached JSON of every object under prefix: the
// objects' JSON size.
func storedJSONBytes(tb testing.TB, st *memory.Store, prefix string) (total int64, n int) {
	tb.Helper()
	res, err := st.List(context.Background(), prefix, store.ListOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	for _, o := range res.Items {
		b, ok := o.Cached(codec.JSONCodec{})
		if !ok {
			tb.Fatalf("%s has no cached JSON: not compacted as the write path does", o.Key())
		}
		total += int64(len(b))
	}
	return total, len(res.Items)
}

// BenchmarkMemory: the live heap per stored object after 100,000 ConfigMaps
// of ~1 KiB were created through the full write path (so each is compacted
// to its JSON as in production), without history (HistoryLimit and
// MaxHistory 1, no minimum age). bytes/object is the heap growth ÷ objects,
// json-bytes/object the objects' own JSON, heap/json their quotient
// (target ≤ 2). An op loads one server; ns/op is its load time (in-process,
// no network), so it also prices a create through the write path.
func BenchmarkMemory(b *testing.B) {
	const n = 100_000
	var perObject, jsonPerObject float64
	for b.Loop() {
		b.StopTimer()
		base := benchkit.HeapInUse()
		b.StartTimer()
		cfg := benchConfig()
		st := memory.New(memory.Config{HistoryLimit: 1, MaxHistory: 1, MinHistoryAge: -1})
		cfg.Store = st
		srv := newBenchServer(b, cfg)
		benchkit.LoadConfigMaps(b, srv, "mem", n)
		b.StopTimer()
		used := benchkit.HeapInUse()
		jsonBytes, count := storedJSONBytes(b, st, "/configmaps/mem/")
		if count != n {
			b.Fatalf("%d objects stored, want %d", count, n)
		}
		perObject = float64(used-base) / n
		jsonPerObject = float64(jsonBytes) / n
		runtime.KeepAlive(srv)
		b.StartTimer()
	}
	b.ReportMetric(perObject, "bytes/object")
	b.ReportMetric(jsonPerObject, "json-bytes/object")
	b.ReportMetric(perObject/jsonPerObject, "heap/json")
}

// BenchmarkHistoryMemory: the extra heap the history window holds under a
// steady write load. 10,000 ConfigMaps are loaded and the history dropped;
// then merge patches go through the write path (2 writers) in steps of a
// quarter window, the live heap measured after each. The window is bounded
// by count here (HistoryLimit = MaxHistory = 5,000, no minimum age), so the
// extra heap must stop growing once 5,000 revisions are kept:
// history-MB is the extra heap with a full window, bytes/revision that ÷
// the window, and growth the extra heap after 3 windows of writes ÷ after
// 1 (≈ 1: bounded). default-max-MB projects bytes/revision onto the
// default window's cap (memory.DefaultMaxHistory revisions, which a burst
// of writes inside DefaultMinHistoryAge can fill).
func BenchmarkHistoryMemory(b *testing.B) {
	const (
		objects = 10_000
		window  = 5_000
		step    = window / 4
		steps   = 12 // 3 windows of writes
	)
	var extra [steps + 1]float64
	for b.Loop() {
		cfg := benchConfig()
		st := memory.New(memory.Config{HistoryLimit: window, MaxHistory: window, MinHistoryAge: -1})
		cfg.Store = st
		srv := newBenchServer(b, cfg)
		benchkit.LoadConfigMaps(b, srv, "hist", objects)
		st.Compact(st.Revision())
		b.StopTimer()
		base := benchkit.HeapInUse()
		b.StartTimer()
		var seq atomic.Int64
		for i := 1; i <= steps; i++ {
			patchInProcess(b, srv, "hist", objects, step, &seq)
			b.StopTimer()
			extra[i] = float64(benchkit.HeapInUse()) - float64(base)
			b.StartTimer()
		}
		b.StopTimer()
		if old := st.Oldest(); st.Revision()-old+1 > window {
			b.Fatalf("history holds %d revisions, window %d", st.Revision()-old+1, window)
		}
		runtime.KeepAlive(srv)
		b.StartTimer()
	}
	full := extra[steps] // after 3 windows of writes
	b.ReportMetric(full/1e6, "history-MB")
	b.ReportMetric(full/window, "bytes/revision")
	b.ReportMetric(full/extra[4], "growth")
	b.ReportMetric(full/window*memory.DefaultMaxHistory/1e6, "default-max-MB")
	if testing.Verbose() {
		for i := 1; i <= steps; i++ {
			b.Logf("after %5d patches: history heap %6.1f MB", i*step, extra[i]/1e6)
		}
	}
}

// patchInProcess sends n merge patches to the collection's objects through
// the handler in-process, from 2 goroutines.
func patchInProcess(b *testing.B, h http.Handler, ns string, objects, n int, seq *atomic.Int64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				s := seq.Add(1)
				path := "/api/v1/namespaces/" + ns + "/configmaps/" + benchkit.CMName(int(s)%objects)
				body := fmt.Appendf(nil, `{"data":{"seq":"%d"}}`, s)
				if code, out := benchkit.Serve(h, http.MethodPatch, path, "application/merge-patch+json", body); code != http.StatusOK {
					b.Errorf("patch: %d %.200s", code, out)
					return
				}
			}
		}()
	}
	wg.Wait()
}
