package apiserver_test

// Watch fan-out over real HTTP streams, the encodings made
// per event, and writers beside a watcher that never reads.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// watchFixture is a server with one namespace of objects to update and
// helpers to watch and write them over HTTP.
type watchFixture struct {
	h       http.Handler
	st      *memory.Store
	url     string
	ns      string
	objects int
}

func newWatchFixture(b *testing.B, objects int) *watchFixture {
	b.Helper()
	cfg := benchConfig()
	st := memory.New(memory.Config{})
	cfg.Store = st
	srv := newBenchServer(b, cfg)
	benchkit.LoadConfigMaps(b, srv, "watch", objects)
	ts := httptest.NewServer(srv)
	// Cleanups run last-in first-out: watchers started later stop before
	// the server closes (Close waits for their connections).
	b.Cleanup(ts.Close)
	return &watchFixture{h: srv, st: st, url: ts.URL, ns: "watch", objects: objects}
}

// listRevision is the collection's resourceVersion: watches start after it.
func (f *watchFixture) listRevision(b *testing.B) string {
	b.Helper()
	body := benchkit.MustServe(b, f.h, http.StatusOK, http.MethodGet, "/api/v1/namespaces/"+f.ns+"/configmaps?limit=1", "", nil)
	const key = `"resourceVersion":"`
	i := bytes.Index(body, []byte(key))
	if i < 0 {
		b.Fatalf("no resourceVersion in %.200s", body)
	}
	rest := body[i+len(key):]
	return string(rest[:bytes.IndexByte(rest, '"')])
}

// watchers is a set of HTTP watch streams read by goroutines that count
// the MODIFIED events they receive.
type watchers struct {
	received atomic.Int64
	target   atomic.Int64
	mu       sync.Mutex
	done     chan struct{} // closed once received reaches target
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	errs     chan error
}

// startWatchers opens n watches of the fixture's collection from rv, each
// on its own connection, and returns once every response has its headers
// (kapi flushes them before the first event).
func (f *watchFixture) startWatchers(b *testing.B, n int, rv, accept string) *watchers {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watchers{cancel: cancel, errs: make(chan error, n)}
	w.expect(-1)
	tr := benchkit.Transport(n)
	client := &http.Client{Transport: tr}
	url := f.url + "/api/v1/namespaces/" + f.ns + "/configmaps?watch=1&resourceVersion=" + rv
	var ready sync.WaitGroup
	for range n {
		ready.Add(1)
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
			req.Header.Set("Accept", accept)
			resp, err := client.Do(req)
			ready.Done()
			if err != nil {
				w.errs <- err
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				w.errs <- fmt.Errorf("watch: %s", resp.Status)
				return
			}
			benchkit.CountEvents(bufio.NewReaderSize(resp.Body, 64<<10), accept, func() {
				if w.received.Add(1) == w.target.Load() {
					w.reached()
				}
			})
		}()
	}
	ready.Wait()
	select {
	case err := <-w.errs:
		b.Fatal(err)
	default:
	}
	b.Cleanup(func() { w.stop(); tr.CloseIdleConnections() })
	return w
}

// expect arms wait for a total number of events received (since the
// watchers started).
func (w *watchers) expect(total int64) {
	w.mu.Lock()
	w.done = make(chan struct{})
	w.target.Store(total)
	w.mu.Unlock()
	if total >= 0 && w.received.Load() >= total {
		w.reached()
	}
}

// reached closes done if received has reached the target it was armed for.
func (w *watchers) reached() {
	w.mu.Lock()
	defer w.mu.Unlock()
	select {
	case <-w.done:
	default:
		if t := w.target.Load(); t >= 0 && w.received.Load() >= t {
			close(w.done)
		}
	}
}

// wait returns once the target set by expect is reached.
func (w *watchers) wait(b *testing.B, timeout time.Duration) {
	w.mu.Lock()
	done := w.done
	w.mu.Unlock()
	select {
	case <-done:
	case err := <-w.errs:
		b.Fatal(err)
	case <-time.After(timeout):
		b.Fatalf("watchers received %d of %d events in %v", w.received.Load(), w.target.Load(), timeout)
	}
}

func (w *watchers) stop() {
	w.cancel()
	w.wg.Wait()
}

// writeUpdates sends n merge patches over HTTP, spread over the fixture's
// objects, from `writers` goroutines on their own keep-alive connections.
// Every patch changes the object, so each is one event.
func (f *watchFixture) writeUpdates(b *testing.B, client *http.Client, n, writers int, seq *atomic.Int64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				s := seq.Add(1)
				path := f.url + "/api/v1/namespaces/" + f.ns + "/configmaps/" + benchkit.CMName(int(s)%f.objects)
				req, _ := http.NewRequest(http.MethodPatch, path, strings.NewReader(fmt.Sprintf(`{"data":{"seq":"%d"}}`, s)))
				req.Header.Set("Content-Type", "application/merge-patch+json")
				req.Header.Set("Accept", "application/json")
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				_, _ = bufio.NewReader(resp.Body).WriteTo(discard{})
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Errorf("patch: %s", resp.Status)
					return
				}
			}
		}()
	}
	wg.Wait()
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkWatchFanout: W HTTP watch streams on one collection, each read
// by its own goroutine; 8 writers send merge patches over HTTP to 100
// objects. An op is one update, timed until every watcher has received it:
// events/s is W × updates ÷ time (the "events/s delivered"),
// writes/s the writers' rate meanwhile. watchers=100 is perfcompare's
// shape (kube-apiserver: ~56,000 events/s there); watchers=1000 with
// -benchtime=10000x is the "1,000 watchers, 10,000 updates".
//
// The bookmarks case asks for bookmarks (allowWatchBookmarks, as every
// client-go informer does), so each stream waits with a deadline.
func BenchmarkWatchFanout(b *testing.B) {
	for _, bc := range []struct {
		name  string
		n     int
		query string
	}{{"watchers=100", 100, ""}, {"watchers=100,bookmarks", 100, "&allowWatchBookmarks=true"}, {"watchers=1000", 1000, ""}} {
		n := bc.n
		b.Run(bc.name, func(b *testing.B) {
			f := newWatchFixture(b, 100)
			w := f.startWatchers(b, n, f.listRevision(b)+bc.query, "application/json")
			writers := &http.Client{Transport: benchkit.Transport(8)}
			defer writers.CloseIdleConnections()
			var seq atomic.Int64
			w.expect(int64(n) * int64(b.N))
			cpu := benchkit.MeterCPU(b)
			b.ResetTimer()
			start := time.Now()
			f.writeUpdates(b, writers, b.N, 8, &seq)
			wrote := time.Since(start)
			w.wait(b, 5*time.Minute)
			b.StopTimer()
			cpu.Report(b.N)
			b.ReportMetric(benchkit.PerSecond(float64(n)*float64(b.N), b.Elapsed()), "events/s")
			b.ReportMetric(benchkit.PerSecond(float64(b.N), wrote), "writes/s")
		})
	}
}

// BenchmarkWatchRoundTrip: one client writes, then waits until its watch
// has the event before writing again, as a controller test that waits for
// its informer does. An op is one merge patch and its event. A stream
// that gets one event at a time must not linger over it (watchLinger), so
// an op costs a write and a delivery, not a write and a linger.
func BenchmarkWatchRoundTrip(b *testing.B) {
	f := newWatchFixture(b, 1)
	w := f.startWatchers(b, 1, f.listRevision(b), "application/json")
	writer := &http.Client{Transport: benchkit.Transport(1)}
	defer writer.CloseIdleConnections()
	var seq atomic.Int64
	cpu := benchkit.MeterCPU(b)
	b.ResetTimer()
	for i := range b.N {
		w.expect(int64(i) + 1)
		f.writeUpdates(b, writer, 1, 1, &seq)
		w.wait(b, time.Minute)
	}
	b.StopTimer()
	cpu.Report(b.N)
}

// BenchmarkWatchEncodings counts the encodings made per event: with 1 and
// with 1000 JSON watchers, each update (written to the store directly, so
// that only the watch path serializes) must be encoded exactly once,
// whatever the number of watchers (target: encodings/event = 1). See
// benchkit.EncodingMeter for how encodings are counted; ns/op here includes the heap
// profiler's overhead. The mixed JSON + protobuf case is in examples/bench.
func BenchmarkWatchEncodings(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("watchers=%d", n), func(b *testing.B) {
			f := newWatchFixture(b, 100)
			w := f.startWatchers(b, n, f.listRevision(b), "application/json")
			ctx := context.Background()
			var seq int
			update := func() {
				seq++
				key := "/configmaps/" + f.ns + "/" + benchkit.CMName(seq%f.objects)
				_, err := f.st.Update(ctx, key, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
					next := map[string]any(cur.Data().DeepCopy())
					next["data"].(map[string]any)["seq"] = fmt.Sprint(seq)
					return next, nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			m := benchkit.StartEncodingMeter()
			defer m.Stop()
			// Warm-up: lets every P reach the new sampling rate.
			const warm = 20
			for range warm {
				update()
			}
			w.expect(int64(n) * warm)
			w.wait(b, time.Minute)
			sample, err := f.st.Get(ctx, "/configmaps/"+f.ns+"/"+benchkit.CMName(1))
			if err != nil {
				b.Fatal(err)
			}
			m.Calibrate(b, sample.Data(), benchkit.JSONEncoding)
			b.ResetTimer()
			for range b.N {
				update()
			}
			w.expect(int64(n) * int64(warm+b.N))
			w.wait(b, 5*time.Minute)
			b.StopTimer()
			b.ReportMetric(m.Encodings(b, benchkit.JSONEncoding)[0]/float64(b.N), "encodings/event")
			b.ReportMetric(benchkit.PerSecond(float64(n)*float64(b.N), b.Elapsed()), "events/s")
		})
	}
}

// BenchmarkWatchStalled: 8 writers send merge patches over HTTP while one
// healthy watcher reads the collection; "stalled" adds a watcher whose
// client never reads (a 4 KiB receive buffer, so the server's writes to it
// block within a few MB). Writers must not notice: target ratio ≈ 1
// (stalled writes/s ÷ baseline writes/s). An op is one write.
func BenchmarkWatchStalled(b *testing.B) {
	var sp benchkit.Speed
	for _, stalled := range []bool{false, true} {
		name := "baseline"
		if stalled {
			name = "stalled"
		}
		b.Run(name, func(b *testing.B) {
			f := newWatchFixture(b, 100)
			rv := f.listRevision(b)
			w := f.startWatchers(b, 1, rv, "application/json")
			if stalled {
				stop := f.stalledWatcher(b, rv)
				defer stop()
			}
			writers := &http.Client{Transport: benchkit.Transport(8)}
			defer writers.CloseIdleConnections()
			var seq atomic.Int64
			w.expect(int64(b.N))
			cpu := benchkit.MeterCPU(b)
			b.ResetTimer()
			f.writeUpdates(b, writers, b.N, 8, &seq)
			b.StopTimer()
			cpu.Report(b.N)
			w.wait(b, 5*time.Minute)
			rate := benchkit.PerSecond(float64(b.N), b.Elapsed())
			b.ReportMetric(rate, "writes/s")
			if stalled {
				sp.Report(b, rate)
			} else {
				sp.SetBaseline(rate)
			}
		})
	}
}

// stalledWatcher opens a watch whose body is never read, on a connection
// with a tiny receive buffer.
func (f *watchFixture) stalledWatcher(b *testing.B, rv string) func() {
	dialer := &net.Dialer{Control: func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = benchkit.SetRecvBuffer(fd, 4096) })
		if err != nil {
			return err
		}
		return serr
	}}
	tr := &http.Transport{DialContext: dialer.DialContext, DisableCompression: true}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet,
		f.url+"/api/v1/namespaces/"+f.ns+"/configmaps?watch=1&resourceVersion="+rv, nil)
	req.Header.Set("Accept", "application/json")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		b.Fatal(err)
	}
	return func() {
		cancel()
		resp.Body.Close()
		tr.CloseIdleConnections()
	}
}
