package apiserver_test

// Helpers of the issue-8 benchmark suite (bench_*_test.go): the objects,
// servers, HTTP clients and meters every benchmark shares. The suite and
// how to run it are described in docs/performance.md.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
// JSON and YAML (protobuf descriptors live in the examples module, whose
// benchmarks cover it).
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

// benchDataSize is the size of every benchmark ConfigMap's data: objects of
// "~1 KiB" as the issue and perfcompare use (about 1.4 KB of JSON once the
// server has added uid, timestamps and managedFields).
const benchDataSize = 1024

// configMapJSON is the body of a create or update of a ~1 KiB ConfigMap.
func configMapJSON(ns, name, resourceVersion string, seed uint64) []byte {
	rv := ""
	if resourceVersion != "" {
		rv = `,"resourceVersion":"` + resourceVersion + `"`
	}
	return []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `","namespace":"` + ns + `"` + rv +
		`,"labels":{"app":"bench"}},"data":{"payload":"` + benchkit.Payload(seed, benchDataSize) + `"}}`)
}

// serve runs one request through h in-process and returns the status and
// body.
func serve(h http.Handler, method, path, contentType string, body []byte) (int, []byte) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	r := httptest.NewRequest(method, path, rd)
	r.Header.Set("Accept", "application/json")
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Code, w.Body.Bytes()
}

func mustServe(tb testing.TB, h http.Handler, want int, method, path, contentType string, body []byte) []byte {
	tb.Helper()
	code, out := serve(h, method, path, contentType, body)
	if code != want {
		tb.Fatalf("%s %s: %d, want %d: %.300s", method, path, code, want, out)
	}
	return out
}

func createNamespace(tb testing.TB, h http.Handler, ns string) {
	tb.Helper()
	mustServe(tb, h, http.StatusCreated, http.MethodPost, "/api/v1/namespaces", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
}

func cmName(i int) string { return fmt.Sprintf("cm-%07d", i) }

// loadConfigMaps creates the namespace and n ConfigMaps in it through the
// full write path (decode, schema, managedFields, store, compaction), with
// as many writers as CPUs. Names sort in creation order.
func loadConfigMaps(tb testing.TB, h http.Handler, ns string, n int) {
	tb.Helper()
	createNamespace(tb, h, ns)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan string, runtime.GOMAXPROCS(0))
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if code, out := serve(h, http.MethodPost, path, "application/json", configMapJSON(ns, cmName(i), "", uint64(i))); code != http.StatusCreated {
					errs <- fmt.Sprintf("create %d: %d %.200s", i, code, out)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		tb.Fatal(e)
	}
}

// benchTransport is a keep-alive client transport for loopback benchmarks:
// enough idle connections for every parallel client, no compression (the
// server sends identity bodies unless asked), no proxy.
func benchTransport(conns int) *http.Transport {
	return &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		WriteBufferSize:     32 << 10,
		ReadBufferSize:      64 << 10,
	}
}

// get sends a GET accepting JSON and copies the body into w, failing on
// anything but a 200. It returns the body's size.
func get(client *http.Client, url string, w io.Writer) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(w, resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	return n, err
}

// fetch is get discarding the body.
func fetch(client *http.Client, url string) (int64, error) { return get(client, url, io.Discard) }

// fetchBody is get keeping the body.
func fetchBody(tb testing.TB, client *http.Client, url string) []byte {
	tb.Helper()
	var buf bytes.Buffer
	if _, err := get(client, url, &buf); err != nil {
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

// fillConfigMapsDirect is loadConfigMaps for big collections whose load
// through the write path would cost more than a CI run of the benchmark
// can spend (about 80µs of CPU per create): it creates the namespace and the
// first ConfigMap through the write path, then stores n-1 copies of that
// server-made object (own name, uid and payload) directly in st, each
// encoded and compacted as the write path does. The collection is the same
// as loadConfigMaps's in shape and size.
func fillConfigMapsDirect(tb testing.TB, h http.Handler, st *memory.Store, ns string, n int) {
	tb.Helper()
	createNamespace(tb, h, ns)
	path := "/api/v1/namespaces/" + ns + "/configmaps"
	tmpl := mustServe(tb, h, http.StatusCreated, http.MethodPost, path, "application/json", configMapJSON(ns, cmName(0), "", 0))
	d, err := codec.JSONCodec{}.Decode(tmpl)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	for i := 1; i < n; i++ {
		obj := map[string]any(d.Object.DeepCopy())
		md := obj["metadata"].(map[string]any)
		md["name"] = cmName(i)
		md["uid"] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		delete(md, "resourceVersion")
		obj["data"] = map[string]any{"payload": benchkit.Payload(uint64(i), benchDataSize)}
		stored, err := st.Create(ctx, "/configmaps/"+ns+"/"+cmName(i), obj)
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
