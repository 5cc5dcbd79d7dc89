package flowcontrol

// Fairness between flows and levels, measured at the filter with handlers that
// sleep (a request holding its seat the way one waiting for storage does,
// without using the CPU, so that only flow control's queuing is measured):
//
//   - BenchmarkFairnessAcrossLevels: with ServerCL 4, a flow flooding its
//     level from 16 clients leaves a steady modest flow in another level
//     its p99 latency (target: p99-ratio, loaded ÷ unloaded, ≤ 3) and no
//     429 (target: calm-429s = 0);
//   - BenchmarkFairnessWithinLevel: two flows of one level, of 12 and 4
//     clients, both always backlogged: each gets at least 0.4 of the
//     dispatches (target: min-share ≥ 0.4).

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// sleepyHandler holds every request for d.
func sleepyHandler(d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(d) })
}

// oneSeatLevel keeps exactly its nominal seats, queuing the rest.
func oneSeatLevel(name string, queues, handSize int64) map[string]any {
	return map[string]any{"nominalConcurrencyShares": int64(50), "lendablePercent": int64(0), "borrowingLimitPercent": int64(0),
		"limitResponse": map[string]any{"type": "Queue", "queuing": map[string]any{"queues": queues, "handSize": handSize, "queueLengthLimit": int64(50)}}}
}

// namespaceSchema sends the requests for objects in namespaces to level,
// one flow per namespace.
func namespaceSchema(name, level string, namespaces ...any) map[string]any {
	fs := newFS(name, level, 100)
	spec := fs["spec"].(map[string]any)
	spec["distinguisherMethod"] = map[string]any{"type": "ByNamespace"}
	spec["rules"] = []any{map[string]any{
		"subjects":      []any{map[string]any{"kind": "Group", "group": map[string]any{"name": "system:unauthenticated"}}},
		"resourceRules": []any{map[string]any{"verbs": []any{"*"}, "apiGroups": []any{"*"}, "resources": []any{"*"}, "namespaces": namespaces}},
	}}
	return fs
}

func percentile99(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)*99+99)/100-1]
}

func BenchmarkFairnessAcrossLevels(b *testing.B) {
	e := newEnv(b, Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2}, false)
	e.putBootstrap()
	// 4 seats over 345 shares: each of these levels gets 1.
	e.put(newPL("noisy", oneSeatLevel("noisy", 16, 4)))
	e.put(newPL("calm", oneSeatLevel("calm", 8, 2)))
	e.put(namespaceSchema("noisy", "noisy", "noisy"))
	e.put(namespaceSchema("calm", "calm", "calm"))
	e.start()
	// 5 ms of service: long beside a loaded machine's scheduling hiccups,
	// short beside what waiting behind the flood would cost.
	h := e.c.Filter(sleepyHandler(5 * time.Millisecond))

	calm := func() (lat []time.Duration, rejected int) {
		tick := time.NewTicker(8 * time.Millisecond)
		defer tick.Stop()
		for range 200 {
			<-tick.C
			rec := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/namespaces/calm/configmaps/cm", nil))
			lat = append(lat, time.Since(start))
			if rec.Code == http.StatusTooManyRequests {
				rejected++
			}
		}
		return lat, rejected
	}
	var ratio float64
	var rejected int
	var flooded int64
	for b.Loop() {
		unloaded, r1 := calm()
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var flood atomic.Int64
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/api/v1/namespaces/noisy/configmaps/cm", nil))
					flood.Add(1)
				}
			}()
		}
		time.Sleep(20 * time.Millisecond)
		loaded, r2 := calm()
		close(stop)
		wg.Wait()
		ratio = float64(percentile99(loaded)) / float64(percentile99(unloaded))
		rejected += r1 + r2
		flooded += flood.Load()
	}
	b.ReportMetric(ratio, "p99-ratio")
	b.ReportMetric(float64(rejected), "calm-429s")
	b.ReportMetric(float64(flooded)/float64(b.N), "flood-reqs")
}

func BenchmarkFairnessWithinLevel(b *testing.B) {
	e := newEnv(b, Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2}, false)
	e.putBootstrap()
	// One seat, a hand of 4 queues: each flow spreads over 4 queues.
	e.put(newPL("shared", oneSeatLevel("shared", 64, 4)))
	e.put(namespaceSchema("shared", "shared", "big", "small"))
	e.start()
	h := e.c.Filter(sleepyHandler(time.Millisecond))
	var minShare float64 = 1
	for b.Loop() {
		var counting atomic.Bool
		counts := map[string]*atomic.Int64{"big": {}, "small": {}}
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for ns, clients := range map[string]int{"big": 12, "small": 4} {
			for range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						select {
						case <-stop:
							return
						default:
						}
						rec := httptest.NewRecorder()
						h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/namespaces/"+ns+"/configmaps/cm", nil))
						if rec.Code == http.StatusOK && counting.Load() {
							counts[ns].Add(1)
						}
					}
				}()
			}
		}
		time.Sleep(50 * time.Millisecond) // both flows backlogged
		counting.Store(true)
		time.Sleep(500 * time.Millisecond)
		counting.Store(false)
		close(stop)
		wg.Wait()
		big, small := float64(counts["big"].Load()), float64(counts["small"].Load())
		minShare = min(minShare, big/(big+small), small/(big+small))
	}
	b.ReportMetric(minShare, "min-share")
}
