package apiserver_test

// The cost of serving a request on a new goroutine, as HTTP/2 serves each
// request, beside serving it on a goroutine that has served requests
// before (HTTP/1.1's connection goroutine): the difference is mostly the
// new goroutine's stack growing to hold the request's path (see
// server_stack.go). Requests are served one at a time through the
// handler, without a network, so cpu-ns/op is the server's work.
//
//	go test -run='^$' -bench=ServeOnGoroutine -count=6 ./apiserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
)

func BenchmarkServeOnGoroutine(b *testing.B) {
	const ns = "bench"
	srv := newBenchServer(b, benchConfig())
	benchkit.CreateNamespace(b, srv, ns)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	benchkit.MustServe(b, srv, http.StatusCreated, http.MethodPost, path, "application/json", benchkit.ConfigMapJSON(ns, "cm-get", "", 1))
	ops := []struct {
		name string
		want int
		req  func(i int) *http.Request
	}{
		{"get", http.StatusOK, func(int) *http.Request {
			r := httptest.NewRequest(http.MethodGet, path+"/cm-get", nil)
			r.Header.Set("Accept", "application/json")
			return r
		}},
		{"create", http.StatusCreated, func(i int) *http.Request {
			r := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(benchkit.ConfigMapJSON(ns, benchkit.CMName(i), "", uint64(i))))
			r.Header.Set("Accept", "application/json")
			r.Header.Set("Content-Type", "application/json")
			return r
		}},
	}
	created := 0
	for _, op := range ops {
		for _, fresh := range []bool{true, false} {
			name := map[bool]string{true: "new", false: "same"}[fresh]
			b.Run("op="+op.name+"/goroutine="+name, func(b *testing.B) {
				reqs := make([]*http.Request, b.N)
				for i := range reqs {
					reqs[i] = op.req(created + i)
				}
				created += b.N
				done := make(chan int)
				work := make(chan *http.Request)
				serve := func(r *http.Request) int {
					w := &discardResponse{}
					srv.ServeHTTP(w, r)
					return w.code
				}
				if !fresh {
					go func() {
						for r := range work {
							done <- serve(r)
						}
					}()
					defer close(work)
				}
				b.ReportAllocs()
				b.ResetTimer()
				cpu := benchkit.MeterCPU(b)
				for _, r := range reqs {
					if fresh {
						go func() { done <- serve(r) }()
					} else {
						work <- r
					}
					if code := <-done; code != op.want {
						b.Fatalf("%s: %d, want %d", op.name, code, op.want)
					}
				}
				cpu.Report(b.N)
			})
		}
	}
}
