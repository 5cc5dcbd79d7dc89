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
// it holds. It keeps what the request was (method, path, query, user
// agent) as the strings it arrived with and parses them when the test
// reads the record, not on every request.
type recorder struct {
	mu     sync.Mutex
	chunks [][]answered
}

// answered is one request as recorded.
type answered struct {
	method, path, rawQuery, userAgent string
	code                              int
	latency                           time.Duration
	audit                             map[string]string
}

const recordChunk = 512

func (rec *recorder) all() []Request {
	rec.mu.Lock()
	n := 0
	for _, c := range rec.chunks {
		n += len(c)
	}
	raw := make([]answered, 0, n)
	for _, c := range rec.chunks {
		raw = append(raw, c...)
	}
	rec.mu.Unlock()
	out := make([]Request, len(raw))
	for i, a := range raw {
		out[i] = a.request()
	}
	return out
}

// request parses a recorded request as the server did.
func (a answered) request() Request {
	u := &url.URL{Path: a.path, RawQuery: a.rawQuery}
	info := requestinfo.Parse(&http.Request{Method: a.method, URL: u})
	query := u.Query()
	req := Request{
		Verb: info.Verb, Group: info.Group, Version: info.Version, Resource: info.Resource,
		Subresource: info.Subresource, Namespace: info.Namespace, Name: info.Name,
		Path: a.path, Query: query, UserAgent: a.userAgent, FieldManager: query.Get("fieldManager"),
		Code: a.code, Latency: a.latency, AuditAnnotations: a.audit,
	}
	if !info.IsResource {
		req.Verb = strings.ToLower(a.method)
	}
	return req
}

func (rec *recorder) reset() {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.chunks = nil
}

func (rec *recorder) add(a answered) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if n := len(rec.chunks); n == 0 || len(rec.chunks[n-1]) == recordChunk {
		rec.chunks = append(rec.chunks, make([]answered, 0, recordChunk))
	}
	last := &rec.chunks[len(rec.chunks)-1]
	*last = append(*last, a)
}

// wrap records each request h answers.
func (rec *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		cw := &codeWriter{ResponseWriter: w}
		ctx, audit := apiserver.WithAuditAnnotations(r.Context())
		h.ServeHTTP(cw, r.WithContext(ctx))
		a := answered{
			method: r.Method, path: r.URL.Path, rawQuery: r.URL.RawQuery, userAgent: r.UserAgent(),
			code: cw.code, latency: time.Since(start), audit: audit.Map(),
		}
		if a.code == 0 {
			a.code = http.StatusOK
		}
		rec.add(a)
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
