package apiserver_test

// Start-up: from nothing to the first answered request.

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

const startupPath = "/api/v1/namespaces/default/configmaps"

// startOnce starts one server (kapi with the built-in kinds, or a bare
// handler), answers its first request over a new connection and stops it.
func startOnce(kapi bool) error {
	var h http.Handler
	if kapi {
		s, err := apiserverNew()
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
	_, err := fetch(&http.Client{Transport: tr}, ts.URL+startupPath)
	return err
}

// apiserverNew is apiserver.New with the example server's built-in kinds
// (the configuration is built inside the timed region, as the example
// server builds it at start).
func apiserverNew() (http.Handler, error) {
	return apiserver.New(benchConfig())
}

// BenchmarkStartup: apiserver.New with the built-in kinds and their
// OpenAPI, an httptest.Server around it, and its first answered request (a
// ConfigMap list), against the same with a bare handler. Target: kapi ≤ 2×
// the baseline's time (ratio = baseline time ÷ kapi time ≥ 0.5). The same
// with the example server's exact configuration (protobuf included) is in
// examples/bench.
func BenchmarkStartup(b *testing.B) {
	var sp benchkit.Speed
	for _, kapi := range []bool{false, true} {
		name := map[bool]string{false: "baseline", true: "kapi"}[kapi]
		b.Run(name, func(b *testing.B) {
			cpu := benchkit.MeterCPU(b)
			ops := 0
			for b.Loop() {
				if err := startOnce(kapi); err != nil {
					b.Fatal(err)
				}
				ops++
			}
			cpu.Report(ops)
			rate := benchkit.PerSecond(float64(ops), b.Elapsed())
			if kapi {
				sp.Report(b, rate)
			} else {
				sp.SetBaseline(rate)
			}
		})
	}
}

// BenchmarkStartupParallel: 100 isolated servers started at once in one
// process (one goroutine each, as 100 parallel tests would), each answering
// its first request; an op is all 100, so ns/op is the total.
func BenchmarkStartupParallel(b *testing.B) {
	const servers = 100
	var sp benchkit.Speed
	for _, kapi := range []bool{false, true} {
		name := map[bool]string{false: "baseline", true: "kapi"}[kapi]
		b.Run(fmt.Sprintf("servers=%d/%s", servers, name), func(b *testing.B) {
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
			rate := benchkit.PerSecond(float64(ops), b.Elapsed())
			if kapi {
				sp.Report(b, rate)
			} else {
				sp.SetBaseline(rate)
			}
		})
	}
}
