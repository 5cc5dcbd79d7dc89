package kapitest_test

import (
	"net/http"
	"testing"
)

// discard is a reusable response writer that keeps nothing but the
// headers, so a benchmark sees the handler's own allocations only.
type discard struct {
	h    http.Header
	code int
	n    int
}

func (d *discard) Header() http.Header         { return d.h }
func (d *discard) WriteHeader(code int)        { d.code = code }
func (d *discard) Write(p []byte) (int, error) { d.n += len(p); return len(p), nil }

// BenchmarkServeGet is the server's side of BenchmarkGet alone: the
// handler kapitest.Start serves (request record, faults, bearer token,
// RBAC) answering client-go's GET of a 1 KiB ConfigMap, with client-go's
// headers, called directly with a reused response writer (no client, no
// transport). Its allocs/op are the handler's, shared by the in-process
// and the TCP GET.
func BenchmarkServeGet(b *testing.B) {
	srv, _ := getServer(b)
	h := srv.Handler()
	for _, c := range []struct{ name, accept string }{
		{"protobuf", "application/vnd.kubernetes.protobuf, application/json"},
		{"json", "application/json, */*"},
	} {
		b.Run(c.name, func(b *testing.B) {
			req, err := http.NewRequest(http.MethodGet, "https://kapi.test/api/v1/namespaces/default/configmaps/bench", nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Accept", c.accept)
			req.Header.Set("User-Agent", "kapitest.test/v0.0.0 (linux/amd64) kubernetes/$Format")
			// The authenticator removes the header, as kube's does.
			token := []string{"Bearer " + srv.Config.BearerToken}
			w := &discard{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				req.Header["Authorization"] = token
				w.code, w.n = 0, 0
				h.ServeHTTP(w, req)
				if w.code != http.StatusOK && w.code != 0 {
					b.Fatalf("code %d", w.code)
				}
			}
		})
	}
}
