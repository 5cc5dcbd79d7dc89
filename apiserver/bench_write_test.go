package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/kapi-dev/kapi/internal/benchkit"
)

// BenchmarkHandlerWrite is the server's share of a write: create, update
// (PUT) and merge patch of a ~1 KiB ConfigMap through the handler,
// in-process, with no network and no client. It has no baseline: it is
// where profiles of the write path start (item 3 of docs/performance.md
// compares writes over HTTP against client-go's fake clientset).
func BenchmarkHandlerWrite(b *testing.B) {
	h := newBenchServer(b, benchConfig())
	benchkit.CreateNamespace(b, h, "bench")
	base := "/api/v1/namespaces/bench/configmaps"
	created := 0 // names stay unique when -count runs create again
	b.Run("create", func(b *testing.B) {
		i := created
		defer func() { created = i }()
		b.ReportAllocs()
		for b.Loop() {
			benchkit.MustServe(b, h, http.StatusCreated, "POST", base, "application/json", benchkit.ConfigMapJSON("bench", benchkit.CMName(i), "", uint64(i)))
			i++
		}
	})
	const objects = 100
	for i := range objects {
		benchkit.MustServe(b, h, http.StatusCreated, "POST", base, "application/json", benchkit.ConfigMapJSON("bench", fmt.Sprintf("w-%d", i), "", uint64(i)))
	}
	b.Run("update", func(b *testing.B) {
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			name := fmt.Sprintf("w-%d", i%objects)
			benchkit.MustServe(b, h, http.StatusOK, "PUT", base+"/"+name, "application/json", benchkit.ConfigMapJSON("bench", name, "", uint64(i)))
			i++
		}
	})
	b.Run("patch", func(b *testing.B) {
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			patch := fmt.Appendf(nil, `{"data":{"n":"%d"}}`, i)
			benchkit.MustServe(b, h, http.StatusOK, "PATCH", fmt.Sprintf("%s/w-%d", base, i%objects), "application/merge-patch+json", patch)
			i++
		}
	})
}
