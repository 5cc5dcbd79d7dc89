package apiserver

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// This file is what the server offers its in-process clients, the
// controllers that do what a cluster does on its own (package controllers):
// the store to watch, the handler to write through, and the resource types
// served now. They are for code running beside the server; nothing here is
// reachable over HTTP.

// Store is the store the server keeps its objects in. In-process
// controllers watch it (store.Store.Watch on "/" sees every write in
// revision order) and read it; they write through Loopback, so that every
// write runs the pipeline (strategies, finalizers, managedFields, admission)
// as any client's does.
func (s *Server) Store() store.Store { return s.store }

// Loopback is the server's handler without its filters (authentication,
// impersonation, authorization): the API as the server's own in-process
// clients call it, trusted as kube-apiserver trusts its loopback client.
// A request goes through the same routing and pipeline as one from the
// network; the user an admission plugin or strategy sees is the one the
// request's context carries (authn.WithUser), if any. A panic answers 500,
// as ServeHTTP does.
func (s *Server) Loopback() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.writeError(w, r, meta.Internal(fmt.Errorf("%v", p)))
			}
		}()
		s.serve(w, r.WithContext(withDiscard(requestinfo.With(r.Context(), requestinfo.Parse(r)), w)))
	})
}

// ServedResource is one resource type the server serves, as an in-process
// controller needs to know it: its group, version and plural, its kind,
// scope and verbs, and where its objects are stored.
type ServedResource struct {
	meta.GroupVersionResource
	Kind       string
	Namespaced bool
	// Verbs are the verbs discovery lists for it.
	Verbs []string
	// prefix is the storage key prefix of every object of the resource.
	prefix string
}

// Supports reports whether the resource serves verb.
func (r ServedResource) Supports(verb string) bool {
	for _, v := range r.Verbs {
		if v == verb {
			return true
		}
	}
	return false
}

// Key is the storage key of one object (namespace "" for cluster-scoped
// resources).
func (r ServedResource) Key(namespace, name string) string {
	if r.Namespaced {
		return r.prefix + namespace + "/" + name
	}
	return r.prefix + name
}

// Prefix is the storage key prefix of the resource's objects in one
// namespace ("" for every namespace, and for cluster-scoped resources).
func (r ServedResource) Prefix(namespace string) string {
	if r.Namespaced && namespace != "" {
		return r.prefix + namespace + "/"
	}
	return r.prefix
}

// Path is the URL path of the resource's collection in a namespace (""
// for every namespace, and for cluster-scoped resources), as a client
// would request it.
func (r ServedResource) Path(namespace string) string {
	p := "/apis/" + r.Group + "/" + r.Version
	if r.Group == "" {
		p = "/api/" + r.Version
	}
	if r.Namespaced && namespace != "" {
		p += "/namespaces/" + namespace
	}
	return p + "/" + r.Resource
}

// Served is an immutable view of the resource types the server serves at
// one moment: its configured kinds and those of its established CRDs, in
// discovery order (groups as discovery lists them, each group's preferred
// version first).
type Served struct {
	reg       *registry
	resources []ServedResource
	byPrefix  map[string]int
	byKind    map[meta.GroupKind]int
}

// Served returns the resource types served now. The view is built once per
// set of served types: the same pointer comes back until a CRD write
// changes what is served, so callers can keep what they derive from it.
func (s *Server) Served() *Served {
	reg := s.registry.Load()
	if v := s.servedView.Load(); v != nil && v.reg == reg {
		return v
	}
	v := &Served{reg: reg, byPrefix: map[string]int{}, byKind: map[meta.GroupKind]int{}}
	for _, g := range reg.groups() {
		for _, ver := range g.versions {
			for _, r := range ver.resources {
				sr := ServedResource{
					GroupVersionResource: meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Plural},
					Kind:                 r.Kind, Namespaced: r.Namespaced, Verbs: r.Verbs, prefix: r.keyPrefix(),
				}
				v.resources = append(v.resources, sr)
				i := len(v.resources) - 1
				if _, ok := v.byPrefix[sr.prefix]; !ok {
					v.byPrefix[sr.prefix] = i
				}
				if _, ok := v.byKind[meta.GroupKind{Group: r.Group, Kind: r.Kind}]; !ok {
					v.byKind[meta.GroupKind{Group: r.Group, Kind: r.Kind}] = i
				}
			}
		}
	}
	s.servedView.Store(v)
	return v
}

// Resources are the served resource types, one per group, version and
// resource, in discovery order.
func (v *Served) Resources() []ServedResource { return v.resources }

// ForKind finds the resource of a kind, in its group's preferred version
// among those serving it.
func (v *Served) ForKind(gk meta.GroupKind) (ServedResource, bool) {
	i, ok := v.byKind[gk]
	if !ok {
		return ServedResource{}, false
	}
	return v.resources[i], true
}

// ForKey finds the resource a storage key belongs to (a key the store
// reports in a watch event, say), in its group's preferred version, with
// the object's namespace ("" when cluster-scoped) and name.
func (v *Served) ForKey(key string) (r ServedResource, namespace, name string, ok bool) {
	if len(key) < 2 || key[0] != '/' {
		return ServedResource{}, "", "", false
	}
	end := strings.IndexByte(key[1:], '/')
	if end < 0 {
		return ServedResource{}, "", "", false
	}
	i, found := v.byPrefix[key[:end+2]]
	if !found {
		return ServedResource{}, "", "", false
	}
	r, rest := v.resources[i], key[end+2:]
	if r.Namespaced {
		namespace, name, ok = strings.Cut(rest, "/")
		return r, namespace, name, ok
	}
	return r, "", rest, true
}
