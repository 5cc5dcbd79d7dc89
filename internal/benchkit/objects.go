package benchkit

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// DataSize is the size of every benchmark ConfigMap's data: objects of
// "~1 KiB" as issue 8 and perfcompare use (about 1.4 KB of JSON once the
// server has added uid, timestamps and managedFields).
const DataSize = 1024

// ConfigMapJSON is the body of a create or update of a ~1 KiB ConfigMap;
// resourceVersion may be empty.
func ConfigMapJSON(ns, name, resourceVersion string, seed uint64) []byte {
	rv := ""
	if resourceVersion != "" {
		rv = `,"resourceVersion":"` + resourceVersion + `"`
	}
	return []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `","namespace":"` + ns + `"` + rv +
		`,"labels":{"app":"bench"}},"data":{"payload":"` + Payload(seed, DataSize) + `"}}`)
}

// CMName is the name of the i-th benchmark ConfigMap; names sort in order.
func CMName(i int) string { return fmt.Sprintf("cm-%07d", i) }

// Serve runs one request through h in-process and returns the status and
// body.
func Serve(h http.Handler, method, path, contentType string, body []byte) (int, []byte) {
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

// MustServe is Serve failing tb on any status but want.
func MustServe(tb testing.TB, h http.Handler, want int, method, path, contentType string, body []byte) []byte {
	tb.Helper()
	code, out := Serve(h, method, path, contentType, body)
	if code != want {
		tb.Fatalf("%s %s: %d, want %d: %.300s", method, path, code, want, out)
	}
	return out
}

// CreateNamespace creates namespace ns through h.
func CreateNamespace(tb testing.TB, h http.Handler, ns string) {
	tb.Helper()
	MustServe(tb, h, http.StatusCreated, http.MethodPost, "/api/v1/namespaces", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"`+ns+`"}}`))
}

// LoadConfigMaps creates the namespace and n ConfigMaps in it through the
// full write path (decode, schema, managedFields, store, compaction), with
// as many writers as CPUs.
func LoadConfigMaps(tb testing.TB, h http.Handler, ns string, n int) {
	tb.Helper()
	CreateNamespace(tb, h, ns)
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
				if code, out := Serve(h, http.MethodPost, path, "application/json", ConfigMapJSON(ns, CMName(i), "", uint64(i))); code != http.StatusCreated {
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

// Transport is a keep-alive client transport for loopback benchmarks:
// enough idle connections for every parallel client, no compression (the
// server sends identity bodies unless asked), no proxy.
func Transport(conns int) *http.Transport {
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

// Get sends a GET with the Accept header and copies the body into w,
// failing on anything but a 200. It returns the body's size.
func Get(client *http.Client, url, accept string, w io.Writer) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", accept)
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
