package apiserver_test

// Helpers of the issue-8 benchmark suite (bench_*_test.go): the objects,
// servers, HTTP clients and meters every benchmark shares. The suite and
// how to run it are described in docs/performance.md.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// benchConfig is the example server's configuration as far as the library
// has it: the built-in kinds with their real schemas and OpenAPI, served in
// the default codecs (JSON, YAML and protobuf).
func benchConfig() apiserver.Config {
	return apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()}
}

func newBenchServer(tb testing.TB, cfg apiserver.Config) *apiserver.Server {
	tb.Helper()
	s, err := apiserver.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// fetch is get discarding the body.
func fetch(client *http.Client, url string) (int64, error) {
	return benchkit.Get(client, url, "application/json", io.Discard)
}

// fetchBody is get keeping the body.
func fetchBody(tb testing.TB, client *http.Client, url string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if _, err := benchkit.Get(client, url, "application/json", &buf); err != nil {
		tb.Fatalf("%v: %.200s", err, buf.Bytes())
	}
	return buf.Bytes()
}

// bareHandler is the baseline server: a plain net/http handler writing
// pre-built bytes with the same headers kapi sends, chosen by the request
// URI (path and query).
type bareHandler struct {
	contentType string
	bodies      map[string][]byte
}

func (h *bareHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, ok := h.bodies[r.URL.RequestURI()]
	if !ok {
		http.NotFound(w, r)
		return
	}
	hd := w.Header()
	hd["Content-Type"] = []string{h.contentType}
	hd["Cache-Control"] = []string{"no-cache, private"}
	hd["X-Content-Type-Options"] = []string{"nosniff"}
	hd["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// discardResponse is an http.ResponseWriter that counts and drops the body,
// for handler-level benchmarks without a network. With keepHead it keeps
// the first KiB (a list's metadata); with countItems it counts list items
// (outside timed loops: counting reads every byte).
type discardResponse struct {
	h          http.Header
	code       int
	n          int64
	keepHead   bool
	head       []byte
	countItems bool
	items      int
	carry      []byte // the last len(itemMarker)-1 bytes written, with countItems
}

func (d *discardResponse) Header() http.Header {
	if d.h == nil {
		d.h = http.Header{}
	}
	return d.h
}
func (d *discardResponse) WriteHeader(code int) { d.code = code }
func (d *discardResponse) Write(p []byte) (int, error) {
	if d.code == 0 {
		d.code = http.StatusOK
	}
	d.n += int64(len(p))
	if d.keepHead && len(d.head) < 1024 {
		d.head = append(d.head, p[:min(len(p), 1024-len(d.head))]...)
	}
	if d.countItems {
		d.items += countMarkers(&d.carry, p)
	}
	return len(p), nil
}

// countMarkers counts itemMarker in p, and the markers that begin in carry
// (the end of the previous writes) and end in p: lists are written in
// large chunks that split items anywhere. carry is updated to the last
// len(itemMarker)-1 bytes written.
func countMarkers(carry *[]byte, p []byte) int {
	k := len(itemMarker) - 1
	n := 0
	if len(*carry) > 0 {
		// Every match in carry+p[:k] straddles the boundary: carry and
		// p[:k] are each shorter than the marker.
		joined := append(append([]byte(nil), *carry...), p[:min(len(p), k)]...)
		n += bytes.Count(joined, itemMarker)
	}
	n += bytes.Count(p, itemMarker)
	if len(p) >= k {
		*carry = append((*carry)[:0], p[len(p)-k:]...)
	} else {
		*carry = append(*carry, p...)
		if len(*carry) > k {
			*carry = append((*carry)[:0], (*carry)[len(*carry)-k:]...)
		}
	}
	return n
}

// itemMarker occurs once per object in a JSON list of the benchmarks'
// ConfigMaps and Pods (in metadata; list items of built-in kinds are
// written without kind and apiVersion, as kube writes them). Lists are
// written in 64 KiB chunks, so a marker may straddle two writes:
// discardResponse counts those too (countMarkers).
var itemMarker = []byte(`"creationTimestamp":"`)

// fillConfigMapsDirect is benchkit.LoadConfigMaps for big collections whose load
// through the write path would cost more than a CI run of the benchmark
// can spend (about 80µs of CPU per create): it creates the namespace and the
// first ConfigMap through the write path, then stores n-1 copies of that
// server-made object (own name, uid and payload) directly in st, each
// encoded and compacted as the write path does. The collection is the same
// as LoadConfigMaps's in shape and size.
func fillConfigMapsDirect(tb testing.TB, h http.Handler, st *memory.Store, ns string, n int) {
	tb.Helper()
	benchkit.CreateNamespace(tb, h, ns)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	tmpl := benchkit.MustServe(tb, h, http.StatusCreated, http.MethodPost, path, "application/json", benchkit.ConfigMapJSON(ns, benchkit.CMName(0), "", 0))
	d, err := codec.JSONCodec{}.Decode(tmpl)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	for i := 1; i < n; i++ {
		obj := map[string]any(d.Object.DeepCopy())
		md := obj["metadata"].(map[string]any)
		md["name"] = benchkit.CMName(i)
		md["uid"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		delete(md, "resourceVersion")
		obj["data"] = map[string]any{"payload": benchkit.Payload(uint64(i), benchkit.DataSize)}
		stored, err := st.Create(ctx, "/configmaps/"+ns+"/"+benchkit.CMName(i), obj)
		if err != nil {
			tb.Fatal(err)
		}
		compactStored(tb, stored)
	}
}

// compactStored caches a stored version's JSON and compacts it, as the
// apiserver's write path does after every write.
func compactStored(tb testing.TB, o *store.Object) {
	if _, err := o.Encoded(codec.JSONCodec{}, func(d meta.Object) ([]byte, error) { return codec.JSONCodec{}.Encode(d) }); err != nil {
		tb.Fatal(err)
	}
	o.Compact(codec.JSONCodec{}, func(b []byte) (meta.Object, error) {
		d, err := codec.JSONCodec{}.Decode(b)
		return d.Object, err
	})
}

// parallelGets GETs url from 4×GOMAXPROCS goroutines over rt for b.N
// requests, reports CPU per request and req/s, and returns the rate.
func parallelGets(b *testing.B, rt http.RoundTripper, url string) float64 {
	client := &http.Client{Transport: rt}
	defer client.CloseIdleConnections()
	b.SetParallelism(4)
	cpu := benchkit.MeterCPU(b)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := fetch(client, url); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	cpu.Report(b.N)
	rate := benchkit.PerSecond(float64(b.N), b.Elapsed())
	b.ReportMetric(rate, "req/s")
	return rate
}
