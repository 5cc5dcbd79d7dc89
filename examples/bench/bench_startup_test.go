package bench

// Start-up with the example server's exact configuration: from
// nothing to the first answered request, alone and 100 at once.

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

const startupPath = "/api/v1/namespaces/default/configmaps"

// startOnce starts the example server (kapiserver.New: the built-in kinds
// in JSON, YAML and protobuf) or a bare handler, answers its first request
// over a new connection, and stops it.
func startOnce(kapi bool) error {
	var h http.Handler
	if kapi {
		s, err := kapiserver.New()
		if err != nil {
			return err
		}
		h = s
	} else {
		h = &bareHandler{contentType: "application/json", bodies: map[string][]byte{
			startupPath: []byte(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"5"},"items":[]}` + "\n"),
		}}
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	tr := &http.Transport{DisableKeepAlives: true, DialContext: benchkit.NoLingerDialer.DialContext}
	defer tr.CloseIdleConnections()
	var buf bytes.Buffer
	return get(&http.Client{Transport: tr}, ts.URL+startupPath, "application/json", &buf)
}

// BenchmarkStartup: kapiserver.New, an httptest.Server and its first
// answered request (a ConfigMap list), against the same with a bare
// handler. Target: kapi ≤ 2× the baseline's time (ratio = baseline time ÷
// kapi time ≥ 0.5).
func BenchmarkStartup(b *testing.B) {
	var sp benchkit.Speed
	for _, kapi := range []bool{false, true} {
		b.Run(map[bool]string{false: "baseline", true: "kapi"}[kapi], func(b *testing.B) {
			cpu := benchkit.MeterCPU(b)
			ops := 0
			for b.Loop() {
				if err := startOnce(kapi); err != nil {
					b.Fatal(err)
				}
				ops++
			}
			cpu.Report(ops)
			if rate := benchkit.PerSecond(float64(ops), b.Elapsed()); kapi {
				sp.Report(b, rate)
			} else {
				sp.SetBaseline(rate)
			}
		})
	}
}

// BenchmarkStartupParallel: 100 example servers started at once in one
// process (a goroutine each, as 100 parallel tests), each answering its
// first request; an op is all 100 (ns/op is the total).
func BenchmarkStartupParallel(b *testing.B) {
	const servers = 100
	var sp benchkit.Speed
	for _, kapi := range []bool{false, true} {
		b.Run(fmt.Sprintf("servers=%d/%s", servers, map[bool]string{false: "baseline", true: "kapi"}[kapi]), func(b *testing.B) {
			cpu := benchkit.MeterCPU(b)
			ops := 0
			for b.Loop() {
				var wg sync.WaitGroup
				errs := make(chan error, servers)
				for range servers {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if err := startOnce(kapi); err != nil {
							errs <- err
						}
					}()
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					b.Fatal(err)
				}
				ops++
			}
			cpu.Report(ops)
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(ops), "ms/100-servers")
			if rate := benchkit.PerSecond(float64(ops), b.Elapsed()); kapi {
				sp.Report(b, rate)
			} else {
				sp.SetBaseline(rate)
			}
		})
	}
}
