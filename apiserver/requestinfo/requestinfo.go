package requestinfo

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// Info is what a Kubernetes API path and method say about a request.
type Info struct {
	// IsResource is false for discovery and other non-resource paths.
	IsResource bool
	// Path segments of a non-resource request, without empty ones.
	Path []string

	Verb        string // get list watch create update patch delete deletecollection
	Group       string
	Version     string
	Namespace   string
	Resource    string
	Name        string
	Subresource string
}

// namespaceSubresources are the subresources of the namespace object itself:
// /api/v1/namespaces/{name}/status is the status of namespace {name}, not a
// collection called "status" inside it.
var namespaceSubresources = map[string]bool{"status": true, "finalize": true}

// Parse splits a request into the parts Kubernetes paths encode:
//
//	/api/v1/namespaces                              list namespaces
//	/api/v1/namespaces/{ns}                         the namespace {ns}
//	/api/v1/namespaces/{ns}/status                  subresource of namespace {ns}
//	/api/v1/namespaces/{ns}/configmaps[/{name}]     namespaced collection or object
//	/apis/{group}/{version}/{resource}[/{name}[/{subresource}]]
//	/api/v1/watch/...                               legacy watch prefix
//	.../{name}/proxy/{path...}                      a proxy subresource, whatever the path
//
// Anything else (discovery, /version, /healthz...) is a non-resource request.
func Parse(r *http.Request) Info {
	segments := splitPath(r.URL.Path)
	info := Info{Path: segments}
	var rest []string
	switch {
	case len(segments) >= 3 && segments[0] == "api":
		info.Version, rest = segments[1], segments[2:]
	case len(segments) >= 4 && segments[0] == "apis":
		info.Group, info.Version, rest = segments[1], segments[2], segments[3:]
	default:
		return info
	}
	info.IsResource = true

	watchPrefix := false
	if rest[0] == "watch" {
		watchPrefix = true
		rest = rest[1:]
		if len(rest) == 0 {
			info.IsResource = false
			return info
		}
	}

	if rest[0] == "namespaces" {
		if len(rest) >= 3 && !namespaceSubresources[rest[2]] {
			info.Namespace = rest[1]
			rest = rest[2:]
		} else if len(rest) >= 2 {
			info.Namespace = rest[1] // the namespace object itself
		}
	}
	info.Resource = rest[0]
	if len(rest) >= 2 {
		info.Name = rest[1]
	}
	if len(rest) >= 3 {
		info.Subresource = rest[2]
	}
	if len(rest) > 3 && info.Subresource != "proxy" {
		info.IsResource = false // deeper paths are only a proxy's
		return info
	}

	switch r.Method {
	case http.MethodGet, http.MethodHead:
		switch {
		case watchPrefix || (info.Name == "" && QueryBool(r.URL.Query(), "watch")):
			info.Verb = "watch"
		case info.Name == "":
			info.Verb = "list"
		default:
			info.Verb = "get"
		}
	case http.MethodPost:
		info.Verb = "create"
	case http.MethodPut:
		info.Verb = "update"
	case http.MethodPatch:
		info.Verb = "patch"
	case http.MethodDelete:
		if info.Name == "" {
			info.Verb = "deletecollection"
		} else {
			info.Verb = "delete"
		}
	default:
		info.Verb = strings.ToLower(r.Method)
	}
	return info
}

// QueryBool reads a boolean query parameter the way kube-apiserver
// converts its options: absent is false, "false" and "0" (any case) are
// false, anything else, even empty, is true.
func QueryBool(query url.Values, name string) bool {
	v, ok := query[name]
	if !ok || len(v) == 0 {
		return false
	}
	switch strings.ToLower(v[0]) {
	case "false", "0":
		return false
	}
	return true
}

// splitPath splits a URL path into its non-empty segments.
func splitPath(path string) []string {
	parts := strings.Split(strings.Trim(path, "/"), "/")
	out := parts[:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

type contextKey struct{}

// With returns ctx carrying info, for the filters and handlers after the
// one that parsed it.
func With(ctx context.Context, info Info) context.Context {
	return &infoContext{Context: ctx, info: info}
}

// infoContext is a context carrying an Info: one allocation, where
// context.WithValue would box the Info in a second.
type infoContext struct {
	context.Context
	info Info
}

func (c *infoContext) Value(key any) any {
	if key == (contextKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// From returns the Info a filter put in the request's context. Without
// one (a handler called directly) it parses r itself, so callers always
// get the same answer.
func From(r *http.Request) Info {
	if c, ok := r.Context().Value(contextKey{}).(*infoContext); ok {
		return c.info
	}
	return Parse(r)
}
