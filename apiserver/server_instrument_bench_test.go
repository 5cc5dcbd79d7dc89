package apiserver

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/metrics"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
)

// BenchmarkInstrument is what counting one GET costs, beside serving it.
func BenchmarkInstrument(b *testing.B) {
	m, err := newServerMetrics(metrics.NewRegistry())
	if err != nil {
		b.Fatal(err)
	}
	r := httptest.NewRequest("GET", "/api/v1/namespaces/default/configmaps/c", nil)
	info := requestinfo.Parse(r)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		w := &nopWriter{h: http.Header{}}
		for pb.Next() {
			var iw instrumentedWriter
			c := m.begin(&iw, w, r, info)
			_, _ = c.w.Write([]byte("x"))
			m.end(&c)
		}
	})
}

type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(b []byte) (int, error) { return len(b), nil }
func (w *nopWriter) WriteHeader(int)             {}
