package authz

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// AttributesFrom reads a request's attributes: its user from the context
// (system:anonymous when there is none), the rest from its request info.
// A list or watch whose field selector requires one metadata.name is about
// that name, as kube reads it (so resourceNames rules allow watching one
// object).
func AttributesFrom(r *http.Request) Attributes {
	u, ok := authn.UserFrom(r.Context())
	if !ok {
		u = authn.AnonymousResponse().User
	}
	info := requestinfo.From(r)
	if !info.IsResource {
		return Attributes{User: u, Verb: strings.ToLower(r.Method), Path: r.URL.Path}
	}
	a := Attributes{
		User: u, Verb: info.Verb, ResourceRequest: true,
		APIGroup: info.Group, APIVersion: info.Version, Resource: info.Resource,
		Subresource: info.Subresource, Namespace: info.Namespace, Name: info.Name,
	}
	if a.Name == "" && (a.Verb == "list" || a.Verb == "watch") && !legacyWatchPath(info) {
		if fs := r.URL.Query().Get("fieldSelector"); fs != "" {
			if sel, err := selectors.ParseFieldSelector(fs); err == nil {
				if name, ok := sel.RequiresExactMatch("metadata.name"); ok && validPathSegment(name) {
					a.Name = name
				}
			}
		}
	}
	return a
}

// legacyWatchPath reports /api/v1/watch/... requests, whose name kube takes
// from the path only.
func legacyWatchPath(info requestinfo.Info) bool {
	p := info.Path
	return len(p) > 2 && p[0] == "api" && p[2] == "watch" || len(p) > 3 && p[0] == "apis" && p[3] == "watch"
}

func validPathSegment(s string) bool {
	return s != "." && s != ".." && !strings.ContainsAny(s, "/%")
}

// Filter authorizes every request with a before passing it on. A denied
// request gets kube's 403 (Forbidden), written by writeError (nil: plain
// JSON); an authorizer error without an Allow is kube's 500.
func Filter(a Authorizer, writeError authn.ErrorWriter) func(http.Handler) http.Handler {
	if writeError == nil {
		writeError = authn.WriteJSONError
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			attrs := AttributesFrom(r)
			d, reason, err := a.Authorize(r.Context(), attrs)
			if d == Allow {
				next.ServeHTTP(w, r)
				return
			}
			if err != nil {
				InternalError(w, r, err)
				return
			}
			writeError(w, r, Forbidden(attrs, reason))
		})
	}
}

// InternalError is kube's plain-text 500 for a failure inside a filter.
func InternalError(w http.ResponseWriter, r *http.Request, err error) {
	http.Error(w, fmt.Sprintf("Internal Server Error: %q: %v", r.RequestURI, err), http.StatusInternalServerError)
}

// Forbidden is kube's 403 for a denied request:
//
//	pods "p" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns"
//	forbidden: User "alice" cannot get path "/metrics"
//
// with ": reason" after it when the authorizers gave one.
func Forbidden(a Attributes, reason string) *meta.Status {
	msg := htmlEscaper.Replace(ForbiddenMessage(a))
	if reason != "" {
		msg += ": " + reason
	}
	gr := meta.GroupResource{Group: a.APIGroup, Resource: a.Resource}
	return ForbiddenStatus(gr, a.Name, msg)
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// ForbiddenMessage says who cannot do what, in kube's words.
func ForbiddenMessage(a Attributes) string {
	if !a.ResourceRequest {
		return fmt.Sprintf("User %q cannot %s path %q", a.userName(), a.Verb, a.Path)
	}
	resource := a.Resource
	if a.Subresource != "" {
		resource += "/" + a.Subresource
	}
	if a.Namespace != "" {
		return fmt.Sprintf("User %q cannot %s resource %q in API group %q in the namespace %q", a.userName(), a.Verb, resource, a.APIGroup, a.Namespace)
	}
	return fmt.Sprintf("User %q cannot %s resource %q in API group %q at the cluster scope", a.userName(), a.Verb, resource, a.APIGroup)
}

// ForbiddenStatus is kube's apierrors.NewForbidden: "<resource> "<name>"
// is forbidden: why", without the name part for collections and without
// the resource for non-resource paths.
func ForbiddenStatus(gr meta.GroupResource, name, why string) *meta.Status {
	var msg string
	switch {
	case gr.Group == "" && gr.Resource == "":
		msg = "forbidden: " + why
	case name == "":
		msg = gr.String() + " is forbidden: " + why
	default:
		msg = fmt.Sprintf("%s %q is forbidden: %s", gr, name, why)
	}
	return &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Message: msg,
		Reason: meta.ReasonForbidden, Code: http.StatusForbidden,
		Details: &meta.StatusDetails{Name: name, Group: gr.Group, Kind: gr.Resource}}
}
