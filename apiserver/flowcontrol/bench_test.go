package flowcontrol

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkFilter is the cost flow control adds to a request it lets
// through at once (kube's bootstrap configuration, an anonymous GET,
// classified into global-default), against the bare handler.
func BenchmarkFilter(b *testing.B) {
	e := newEnv(b, Options{}, false)
	e.putBootstrap()
	if err := e.c.Start(); err != nil {
		b.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {})
	r := httptest.NewRequest("GET", "/api/v1/namespaces/bench/configmaps/cm-get", nil)
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{{"bare", next}, {"filter", e.c.Filter(next)}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				w := &discardWriter{h: http.Header{}}
				for pb.Next() {
					tc.h.ServeHTTP(w, r)
				}
			})
		})
	}
}

type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *discardWriter) WriteHeader(int)             {}
