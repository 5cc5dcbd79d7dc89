package apiserver

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/apiserver/openapi"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// openAPIDocs are a registry's OpenAPI documents, built on first request
// (a few milliseconds for the built-in kinds) and kept with the registry,
// so they change exactly when the served types do.
type openAPIDocs struct {
	once     sync.Once
	err      error
	built    time.Time
	v3       map[string]*openapi.Document
	index    []byte
	v2       *openapi.Document
	v2proto  []byte
	v2pbOnce sync.Once
	v2pbErr  error
}

// permissiveSchema stands in for the schema of a type registered without
// one: any object.
var permissiveSchema = schema.MustParse(map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true})

func (s *Server) openAPI(reg *registry) (*openAPIDocs, error) {
	d := &reg.openapi
	d.once.Do(func() {
		var resources []openapi.Resource
		for _, g := range reg.groups() {
			for _, v := range g.versions {
				for _, r := range v.resources {
					resources = append(resources, s.openAPIResource(r))
				}
			}
		}
		opts := openapi.Options{Components: s.openAPIComponents, KubernetesVersion: s.version.Major + "." + s.version.Minor,
			ShardSelector: s.kubeRelease.AtLeast(36)}
		if d.v3, d.err = openapi.V3(resources, opts); d.err != nil {
			return
		}
		d.index = openapi.Index(d.v3)
		d.v2, d.err = openapi.SwaggerV2(resources, opts)
		d.built = s.now().UTC()
	})
	return d, d.err
}

func (s *Server) openAPIResource(r *Resource) openapi.Resource {
	out := openapi.Resource{
		Group: r.Group, Version: r.Version, Kind: r.Kind, ListKind: r.ListKind, Plural: r.Plural,
		Namespaced: r.Namespaced, Verbs: r.Verbs, ReturnDeletedObject: r.ReturnDeletedObject,
	}
	for _, sub := range r.subresources() {
		out.Subresources = append(out.Subresources, sub.name)
	}
	if _, ok := s.openAPIComponents[r.OpenAPIComponent]; ok && r.OpenAPIComponent != "" && !r.customResource {
		out.Component = r.OpenAPIComponent
		return out
	}
	out.Schema = r.Schema
	if out.Schema == nil {
		out.Schema = permissiveSchema
	}
	return out
}

// serveOpenAPI answers /openapi/v2, the /openapi/v3 index and the
// per-group-version v3 documents, with kube-apiserver's caching headers.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request, path []string) {
	docs, err := s.openAPI(s.registry.Load())
	if err != nil {
		s.writeError(w, r, meta.Internal(err))
		return
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache, private")
	switch {
	case len(path) == 2 && path[1] == "v2":
		s.serveOpenAPIV2(w, r, docs)
	case len(path) == 2 && path[1] == "v3":
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Last-Modified", docs.built.Format(http.TimeFormat))
		h.Set("Accept-Ranges", "bytes")
		_, _ = w.Write(docs.index)
	default:
		doc := docs.v3[strings.Join(path[2:], "/")]
		if doc == nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		h.Set("Etag", `"`+doc.Hash+`"`)
		h.Set("Vary", "Accept")
		if hash := r.URL.Query().Get("hash"); hash != "" {
			if hash != doc.Hash {
				http.Redirect(w, r, "/openapi/v3/"+doc.Path+"?hash="+doc.Hash, http.StatusMovedPermanently)
				return
			}
			h.Set("Cache-Control", "public, immutable")
			h.Set("Expires", time.Now().AddDate(1, 0, 0).UTC().Format("Mon, 02 Jan 2006 15:04:05 UTC"))
		}
		h.Set("Content-Type", codec.JSON)
		_, _ = w.Write(doc.JSON)
	}
}

func (s *Server) serveOpenAPIV2(w http.ResponseWriter, r *http.Request, docs *openAPIDocs) {
	h := w.Header()
	h.Set("Etag", `"`+docs.v2.Hash+`"`)
	h.Set("Last-Modified", docs.built.Format(http.TimeFormat))
	h.Add("Vary", "Accept")
	// The protobuf media type has an '@', which media type parsers refuse:
	// match it on the raw header.
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.ReplaceAll(mt, "@", ".") == openapi.ProtobufV2MediaType {
			docs.v2pbOnce.Do(func() { docs.v2proto, docs.v2pbErr = openapi.SwaggerV2Protobuf(docs.v2) })
			if docs.v2pbErr != nil {
				s.writeError(w, r, meta.Internal(docs.v2pbErr))
				return
			}
			h.Set("Content-Type", openapi.ProtobufV2MediaType)
			_, _ = w.Write(docs.v2proto)
			return
		}
	}
	for _, m := range codec.ParseAccept(r.Header.Get("Accept")) {
		if m.Matches(codec.JSON) {
			h.Set("Content-Type", codec.JSON)
			_, _ = w.Write(docs.v2.JSON)
			return
		}
	}
	w.WriteHeader(http.StatusNotAcceptable)
}
