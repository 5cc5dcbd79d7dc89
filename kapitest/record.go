package kapitest

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"
)

// Request is one request the server answered, as recorded for the test.
type Request struct {
	// Verb is kube's verb: get, list, watch, create, update, patch, delete,
	// deletecollection; for a non-resource request (discovery, /version),
	// the HTTP method in lower case.
	Verb string
	// Group, Version, Resource and Subresource name what was asked for
	// (empty for non-resource requests, whose Path is set instead).
	Group, Version, Resource, Subresource string
	// Namespace and Name, when the request names them.
	Namespace, Name string
	// Path is the URL path, Query its parameters (resourceVersion,
	// sendInitialEvents, labelSelector...).
	Path  string
	Query url.Values
	// UserAgent is the client's User-Agent header; FieldManager the
	// fieldManager parameter of a write, if any.
	UserAgent, FieldManager string
	// Code is the HTTP status answered (for a watch, at its start).
	Code int
	// Latency is how long the server took to answer: for a watch, how long
	// the stream stayed open.
	Latency time.Duration
}

// IsWrite says whether the request asked to change something: create,
// update, patch, delete or deletecollection.
func (r Request) IsWrite() bool {
	switch r.Verb {
	case "create", "update", "patch", "delete", "deletecollection":
		return true
	}
	return false
}

// IsInitialList says whether the request reads a whole collection afresh:
// a list, or a watch that asks for the initial events (sendInitialEvents,
// client-go's WatchList). A reflector makes one at its start and after
// every 410.
func (r Request) IsInitialList() bool {
	return r.Verb == "list" || r.Verb == "watch" && r.Query.Get("sendInitialEvents") == "true"
}

// recorder keeps every request answered, in the order they finished.
type recorder struct {
	mu   sync.Mutex
	reqs []Request
}

func (rec *recorder) all() []Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.reqs)
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.reqs = nil
}

// wrap records each request h answers.
func (rec *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		cw := &codeWriter{ResponseWriter: w}
		h.ServeHTTP(cw, r)
		info := requestinfo.Parse(r)
		req := Request{
			Verb: info.Verb, Group: info.Group, Version: info.Version, Resource: info.Resource,
			Subresource: info.Subresource, Namespace: info.Namespace, Name: info.Name,
			Path: r.URL.Path, Query: r.URL.Query(), UserAgent: r.UserAgent(), FieldManager: r.URL.Query().Get("fieldManager"),
			Code: cw.code, Latency: time.Since(start),
		}
		if !info.IsResource {
			req.Verb = strings.ToLower(r.Method)
		}
		if req.Code == 0 {
			req.Code = http.StatusOK
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, req)
		rec.mu.Unlock()
	})
}

// codeWriter notes the status code a handler answers.
type codeWriter struct {
	http.ResponseWriter
	code int
}

func (w *codeWriter) WriteHeader(code int) {
	if w.code == 0 && code >= 200 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *codeWriter) Write(p []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *codeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
