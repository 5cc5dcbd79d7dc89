package kapitest

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
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
	// AuditAnnotations are what admission reported for a kube-apiserver
	// audit event of the request (apiserver.WithAuditAnnotations):
	// ValidatingAdmissionPolicy auditAnnotations ("<policy>/<key>") and
	// Audit-action failures, admission webhooks' auditAnnotations
	// ("<webhook>/<key>") and which mutating webhooks were called. Nil if
	// none.
	AuditAnnotations map[string]string
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

// recorder keeps every request answered, in the order they finished, in
// chunks of a fixed size: a long test's record grows without copying what
// it holds.
type recorder struct {
	mu     sync.Mutex
	chunks [][]Request
}

const recordChunk = 512

func (rec *recorder) all() []Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	n := 0
	for _, c := range rec.chunks {
		n += len(c)
	}
	out := make([]Request, 0, n)
	for _, c := range rec.chunks {
		out = append(out, c...)
	}
	return out
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.chunks = nil
}

func (rec *recorder) add(req Request) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if n := len(rec.chunks); n == 0 || len(rec.chunks[n-1]) == recordChunk {
		rec.chunks = append(rec.chunks, make([]Request, 0, recordChunk))
	}
	last := &rec.chunks[len(rec.chunks)-1]
	*last = append(*last, req)
}

// wrap records each request h answers.
func (rec *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		cw := &codeWriter{ResponseWriter: w}
		ctx, audit := apiserver.WithAuditAnnotations(r.Context())
		h.ServeHTTP(cw, r.WithContext(ctx))
		latency := time.Since(start)
		info := requestinfo.Parse(r)
		query := r.URL.Query()
		req := Request{
			Verb: info.Verb, Group: info.Group, Version: info.Version, Resource: info.Resource,
			Subresource: info.Subresource, Namespace: info.Namespace, Name: info.Name,
			Path: r.URL.Path, Query: query, UserAgent: r.UserAgent(), FieldManager: query.Get("fieldManager"),
			Code: cw.code, Latency: latency, AuditAnnotations: audit.Map(),
		}
		if !info.IsResource {
			req.Verb = strings.ToLower(r.Method)
		}
		if req.Code == 0 {
			req.Code = http.StatusOK
		}
		rec.add(req)
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
