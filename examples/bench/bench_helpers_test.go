// Package bench holds the examples-module half of the issue-8 benchmark
// suite (everything that needs client-go, the fake clientset or the
// protobuf descriptors of k8s.io/api). See docs/performance.md.
package bench

import (
	"bytes"
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
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/internal/benchkit"
)

func newExampleServer(tb testing.TB, cfg apiserver.Config) *apiserver.Server {
	tb.Helper()
	s, err := apiserver.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// exampleConfig is the example server's configuration (built-in kinds,
// JSON, YAML and protobuf).
func exampleConfig() apiserver.Config { return kapiserver.Config() }

// benchDataSize is the data of every benchmark ConfigMap: "~1 KiB" objects.
const benchDataSize = 1024

func configMapJSON(ns, name string, seed uint64) []byte {
	return []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `","namespace":"` + ns +
		`","labels":{"app":"bench"}},"data":{"payload":"` + benchkit.Payload(seed, benchDataSize) + `"}}`)
}

func cmName(i int) string { return fmt.Sprintf("cm-%07d", i) }

// serve runs one request through h in-process.
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

// loadConfigMaps creates the namespace and n ConfigMaps through the full
// write path, with as many writers as CPUs.
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
				if code, out := serve(h, http.MethodPost, path, "application/json", configMapJSON(ns, cmName(i), uint64(i))); code != http.StatusCreated {
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

func benchTransport(conns int) *http.Transport {
	return &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns,
		MaxIdleConnsPerHost: conns,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		WriteBufferSize:     32 << 10,
		ReadBufferSize:      64 << 10,
	}
}

// get GETs url with the Accept header into buf.
func get(client *http.Client, url, accept string, buf *bytes.Buffer) error {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", accept)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	resp.Body.Close()
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("GET %s: %s: %.200s", url, resp.Status, buf.Bytes())
	}
	return err
}

// bareHandler is the baseline server: pre-built bytes by request URI, with
// kapi's headers.
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
