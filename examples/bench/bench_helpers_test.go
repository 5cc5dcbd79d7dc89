// Package bench holds the examples-module half of the issue-8 benchmark
// suite (everything that needs client-go, the fake clientset or the
// protobuf descriptors of k8s.io/api). See docs/performance.md.
package bench

import (
	"bytes"
	"net/http"
	"strconv"
	"testing"

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

// get GETs url with the Accept header into buf.
func get(client *http.Client, url, accept string, buf *bytes.Buffer) error {
	buf.Reset()
	_, err := benchkit.Get(client, url, accept, buf)
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
