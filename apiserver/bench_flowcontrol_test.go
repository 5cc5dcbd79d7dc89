package apiserver_test

// What API Priority and Fairness costs a request that it lets
// through at once.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

// flowControlBenchConfig is benchConfig (the flowcontrol kinds among the
// built-in ones) with flow control on when opts is set.
func flowControlBenchConfig(opts *flowcontrol.Options) apiserver.Config {
	cfg := benchConfig()
	cfg.FlowControl = opts
	return cfg
}

// BenchmarkGetFlowControl: GET of one 1 KiB ConfigMap by 8 keep-alive
// clients, from a server with flow control off (the baseline) and on
// (kube's bootstrap configuration: the anonymous requests are classified
// through twelve schemas into global-default, 49 seats, never saturated).
// Target: ratio (on ÷ off throughput) ≥ 0.9.
func BenchmarkGetFlowControl(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	const path = "/api/v1/namespaces/bench/configmaps/cm-get"
	serve := func(opts *flowcontrol.Options) *httptest.Server {
		srv := newBenchServer(b, flowControlBenchConfig(opts))
		benchkit.CreateNamespace(b, srv, "bench")
		benchkit.MustServe(b, srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/bench/configmaps", "application/json",
			benchkit.ConfigMapJSON("bench", "cm-get", "", 1))
		return httptest.NewServer(srv)
	}
	off := serve(nil)
	defer off.Close()
	on := serve(&flowcontrol.Options{Context: ctx})
	defer on.Close()

	run := func(b *testing.B, url string) float64 {
		return parallelGets(b, benchkit.Transport(64), url)
	}
	var sp benchkit.Speed
	b.Run("off", func(b *testing.B) { sp.SetBaseline(run(b, off.URL+path)) })
	b.Run("on", func(b *testing.B) { sp.Report(b, run(b, on.URL+path)) })
}
