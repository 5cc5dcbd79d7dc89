package apiserver

import (
	"context"
	"errors"
	"net/http"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// Operation is the kind of write an admission plugin sees.
type Operation string

// Operations, as Kubernetes names them.
const (
	OperationCreate Operation = "CREATE"
	OperationUpdate Operation = "UPDATE"
	OperationDelete Operation = "DELETE"
)

// UserInfo identifies the requester: the user Config.Authenticator put in
// the request's context (empty without one).
type UserInfo struct {
	Username string
	UID      string
	Groups   []string
	Extra    map[string][]string
}

// AdmissionRequest is what admission plugins see of one write.
type AdmissionRequest struct {
	Operation   Operation
	Resource    meta.GroupVersionResource
	Kind        meta.GroupVersionKind
	Subresource string
	Namespace   string
	// Name is the object's name, as kube's admission attributes give it:
	// empty while mutating admission sees a create with a generateName
	// (validating admission sees the generated name), and for each delete
	// of a deletecollection (OldObject names the object).
	Name string
	// Object is the object to be stored: mutating plugins may change it in
	// place; nil for DELETE.
	Object meta.Object
	// OldObject is the stored object being replaced or deleted; nil for
	// CREATE. Never change it.
	OldObject meta.Object
	User      UserInfo
	DryRun    bool
	// Options are the write's options object (CreateOptions,
	// UpdateOptions, PatchOptions, DeleteOptions), JSON-shaped, when known.
	Options map[string]any
}

// MutatingAdmission may change objects before they are validated and
// stored. It may run more than once for one request (after a conflict
// retry), so it must not have side effects beyond the object.
type MutatingAdmission interface {
	Admit(ctx context.Context, req *AdmissionRequest) error
}

// ValidatingAdmission accepts or denies writes without changing them.
type ValidatingAdmission interface {
	Validate(ctx context.Context, req *AdmissionRequest) error
}

// SideEffecter is implemented by admission plugins with effects outside the
// object (they call out, write elsewhere...). Such a plugin is never run
// for a dry-run request: the request fails instead, as in Kubernetes.
type SideEffecter interface {
	HasSideEffects() bool
}

// An admission plugin is any value implementing MutatingAdmission,
// ValidatingAdmission or both. A plugin's error denies the request: a
// *meta.Status is sent as is; any other error becomes 403 Forbidden with
// its message.

// admissionError turns a plugin's denial into the Status sent.
func admissionError(err error, req *AdmissionRequest, gr meta.GroupResource) error {
	var st *meta.Status
	if errors.As(err, &st) {
		return st
	}
	return meta.Forbidden(gr, req.Name, err.Error())
}

// runAdmission calls the mutating plugins, the built-in object validation,
// then the validating plugins: the pipeline order of docs/design.md.
func (s *Server) runAdmission(ctx context.Context, req *AdmissionRequest, res *Resource, validate func() error) error {
	gr := res.GroupResource()
	if u, ok := authn.UserFrom(ctx); ok {
		req.User = UserInfo{Username: u.Name, UID: u.UID, Groups: u.Groups, Extra: u.Extra}
	}
	for _, p := range s.admission {
		if req.DryRun && hasSideEffects(p) {
			return meta.BadRequest("admission plugin with side effects cannot run in dry-run mode")
		}
	}
	for _, p := range s.admission {
		if m, ok := p.(MutatingAdmission); ok {
			if err := m.Admit(ctx, req); err != nil {
				return admissionError(err, req, gr)
			}
		}
	}
	// kube's MutatingAdmissionWebhook is the last mutating plugin.
	if err := s.admitMutatingWebhooks(ctx, req); err != nil {
		return err
	}
	if validate != nil {
		if err := validate(); err != nil {
			return err
		}
	}
	if req.Name == "" && req.Operation == OperationCreate && req.Object != nil {
		// A generated name exists from here on: kube's validating
		// admission names the object it validates.
		req.Name = req.Object.Name()
	}
	for _, p := range s.admission {
		if v, ok := p.(ValidatingAdmission); ok {
			if err := v.Validate(ctx, req); err != nil {
				return admissionError(err, req, gr)
			}
		}
	}
	// kube's ValidatingAdmissionPolicy plugin follows the in-tree
	// validating plugins, and ValidatingAdmissionWebhook comes last.
	if err := s.admitPolicies(ctx, req, res); err != nil {
		return err
	}
	return s.admitValidatingWebhooks(ctx, req)
}

// hasAdmission reports whether any admission runs at all (a delete skips
// building the request otherwise).
func (s *Server) hasAdmission() bool {
	return len(s.admission) > 0 || s.policies != nil || s.webhooks != nil
}

func hasSideEffects(p any) bool {
	se, ok := p.(SideEffecter)
	return ok && se.HasSideEffects()
}

// admissionOptions is the write's options object as admission sees it
// (AdmissionRequest.Options): its kind, and the options the request set.
func (q *request) admissionOptions() map[string]any {
	kind := map[string]string{http.MethodPost: "CreateOptions", http.MethodPut: "UpdateOptions",
		http.MethodPatch: "PatchOptions", http.MethodDelete: "DeleteOptions"}[q.r.Method]
	if kind == "" {
		return nil
	}
	opts := map[string]any{"kind": kind, "apiVersion": "meta.k8s.io/v1"}
	query := q.r.URL.Query()
	if v := query["dryRun"]; len(v) > 0 {
		l := make([]any, len(v))
		for i, s := range v {
			l[i] = s
		}
		opts["dryRun"] = l
	}
	for _, k := range []string{"fieldManager", "fieldValidation"} {
		if v := query.Get(k); v != "" {
			opts[k] = v
		}
	}
	if q.r.Method == http.MethodPatch && query.Get("force") == "true" {
		opts["force"] = true
	}
	return opts
}
