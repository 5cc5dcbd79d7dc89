package apiserver

import (
	"context"
	"maps"
	"sync"
)

// Audit annotations. kube-apiserver writes what admission reports about a
// request into the request's audit event: a ValidatingAdmissionPolicy's
// auditAnnotations ("<policy>/<key>") and its failures under the Audit
// action ("validation.policy.admission.k8s.io/validation_failure"), an
// admission webhook's auditAnnotations ("<webhook>/<key>"), which mutating
// webhooks were called and whether they changed the object
// ("mutation.webhook.admission.k8s.io/round_<r>_index_<i>"). They reach
// nothing else: no response header or body carries them. kapi keeps no
// audit log; a caller that wants them (a test's request recorder, an audit
// sink of its own) asks for them per request through the request's
// context, and pays nothing otherwise.

// AuditAnnotations collects the audit annotations of the requests served
// with the context WithAuditAnnotations returned. It is safe for
// concurrent use.
type AuditAnnotations struct {
	mu sync.Mutex
	m  map[string]string
}

type auditSinkKey struct{}

// WithAuditAnnotations returns a context for a request (pass it with
// r.WithContext to the server's ServeHTTP) whose audit annotations are
// collected into the returned AuditAnnotations:
//
//	ctx, audit := apiserver.WithAuditAnnotations(r.Context())
//	srv.ServeHTTP(w, r.WithContext(ctx))
//	log.Print(audit.Map())
func WithAuditAnnotations(ctx context.Context) (context.Context, *AuditAnnotations) {
	c := &auditContext{Context: ctx}
	return c, &c.sink
}

// auditContext is a context carrying an AuditAnnotations, both in one
// allocation.
type auditContext struct {
	context.Context
	sink AuditAnnotations
}

func (c *auditContext) Value(key any) any {
	if key == (auditSinkKey{}) {
		return &c.sink
	}
	return c.Context.Value(key)
}

// Map returns a copy of the annotations collected so far (nil if none).
func (a *AuditAnnotations) Map() map[string]string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return maps.Clone(a.m)
}

// AddAuditAnnotation records an audit annotation for the request of ctx,
// as kube's admission does: a key keeps the first value it was given
// (kube refuses to override an admission annotation). Without
// WithAuditAnnotations in ctx it does nothing.
func AddAuditAnnotation(ctx context.Context, key, value string) {
	a := auditSinkFrom(ctx)
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.m[key]; ok {
		return
	}
	if a.m == nil {
		a.m = map[string]string{}
	}
	a.m[key] = value
}

func auditSinkFrom(ctx context.Context) *AuditAnnotations {
	a, _ := ctx.Value(auditSinkKey{}).(*AuditAnnotations)
	return a
}
