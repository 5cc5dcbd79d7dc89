package apiserver_test

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

// getCompacted serves GETs of one stored ConfigMap of ~1 KiB, compacted
// (only its JSON kept) as every written version is, in-process.
func getCompacted(tb testing.TB) func() {
	h := newBenchServer(tb, apiserver.Config{Resources: []apiserver.Resource{
		{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, WithoutGeneration: true}}})
	const path = "/api/v1/namespaces/default/configmaps"
	benchkit.MustServe(tb, h, http.StatusCreated, "POST", path, "application/json",
		benchkit.ConfigMapJSON("default", "c", "", 1))
	req := httptest.NewRequest("GET", path+"/c", nil)
	return func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			tb.Fatalf("GET: %d %s", rec.Code, rec.Body)
		}
	}
}

// TestAGetOfACompactedObjectDecodesNothing: a GET answers from the cached
// encoding and what the request knows (kind, revision), so it costs the
// same allocations whether or not the collector has dropped the decoded
// object the store holds weakly.
func TestAGetOfACompactedObjectDecodesNothing(t *testing.T) {
	get := getCompacted(t)
	held := testing.AllocsPerRun(50, get)
	afterGC := testing.AllocsPerRun(50, func() { runtime.GC(); get() })
	require.NotZero(t, held)
	assert.Equal(t, held, afterGC, "allocations per GET once the decoded object is collected")
}

// BenchmarkGetCompacted is TestAGetOfACompactedObjectDecodesNothing's
// figures: allocations per in-process GET with the decoded object held
// and after a collection (the collection itself is not timed).
func BenchmarkGetCompacted(b *testing.B) {
	b.Run("held", func(b *testing.B) {
		get := getCompacted(b)
		b.ReportAllocs()
		for b.Loop() {
			get()
		}
	})
	b.Run("after-gc", func(b *testing.B) {
		get := getCompacted(b)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
			get()
		}
	})
}
