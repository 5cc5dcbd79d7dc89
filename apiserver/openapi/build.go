package openapi

import (
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Resource describes one served resource type, as the documents need it.
//
// A built-in kind names its schema with Component (a key of
// Options.Components, e.g. "io.k8s.api.apps.v1.Deployment"); a custom
// resource gives its Schema, rendered as component
// "<reversed group>.<version>.<Kind>" ("com.example.v1.Widget") with the
// changes kube-apiserver makes when it publishes a CRD (standard
// apiVersion and kind, metadata referencing ObjectMeta, embedded resources
// and int-or-string spelled out) and a generated list kind.
type Resource struct {
	Group, Version, Kind string
	// ListKind defaults to Kind + "List".
	ListKind string
	// Plural is the URL name ("deployments").
	Plural     string
	Namespaced bool
	// Verbs served: get, list, watch, create, update, patch, delete,
	// deletecollection; nil means all of them.
	Verbs []string
	// Subresources served, such as "status".
	Subresources []string
	// ReturnDeletedObject: DELETE answers with the object, not a Status.
	ReturnDeletedObject bool
	// Component and ListComponent name the schemas of the kind and of its
	// list in Options.Components; ListComponent defaults to Component +
	// "List".
	Component, ListComponent string
	// Schema is a custom resource's schema (openAPIV3Schema). When set,
	// the operations are declared as kube declares those of custom
	// resources (JSON and YAML only, no watch paths).
	Schema *schema.Schema
}

// Options are the inputs shared by all documents.
type Options struct {
	// Components holds the component schemas Resources refer to by name
	// (for built-in kinds: builtin.OpenAPIComponents()). The apimachinery
	// ones (MetaComponents) are always available.
	Components map[string]any
	// KubernetesVersion is info.version of built-in documents; default "1.33".
	KubernetesVersion string
	// ShardSelector: list, watch and deletecollection operations declare
	// the shardSelector parameter, as kube 1.36 and later do (its
	// ShardedListAndWatch gate is alpha and off: the parameter is
	// declared, not honoured).
	ShardSelector bool
}

// Document is one generated OpenAPI document.
type Document struct {
	// Path is the document's key in the /openapi/v3 index: "api/v1",
	// "apis/apps/v1".
	Path string
	// JSON is the compact, deterministic document.
	JSON []byte
	// Hash is the upper-case hex SHA-512 of JSON, as kube-apiserver
	// computes it: the value of ?hash= and of the (quoted) ETag.
	Hash string
}

// DocumentPath is the index key of a group version's document: "api/v1"
// for the core group, "apis/<group>/<version>" otherwise.
func DocumentPath(gv meta.GroupVersion) string {
	if gv.Group == "" {
		return "api/" + gv.Version
	}
	return "apis/" + gv.Group + "/" + gv.Version
}

func hashOf(b []byte) string {
	sum := sha512.Sum512(b)
	return strings.ToUpper(hex.EncodeToString(sum[:]))
}

// V3 builds the OpenAPI v3 document of every group version of resources,
// keyed by DocumentPath. Cost: O(size of the documents); with the
// built-in kinds of kapi's example server, a few milliseconds; rebuild only
// the group versions whose resources changed (GroupVersionV3).
func V3(resources []Resource, opts Options) (map[string]*Document, error) {
	byGV := map[meta.GroupVersion][]Resource{}
	for _, r := range resources {
		gv := meta.GroupVersion{Group: r.Group, Version: r.Version}
		byGV[gv] = append(byGV[gv], r)
	}
	out := make(map[string]*Document, len(byGV))
	for gv, rs := range byGV {
		d, err := GroupVersionV3(gv, rs, opts)
		if err != nil {
			return nil, err
		}
		out[d.Path] = d
	}
	return out, nil
}

// Index returns the /openapi/v3 root document:
// {"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=…"},…}}.
// kube-apiserver serves it with Content-Type "text/plain; charset=utf-8"
// and Last-Modified (no ETag); each document with its quoted Hash as ETag,
// "Cache-Control: public, immutable" when ?hash= matches, and a 301 to the
// current ?hash= when it does not.
func Index(docs map[string]*Document) []byte {
	paths := make(map[string]any, len(docs))
	for k, d := range docs {
		paths[k] = map[string]any{"serverRelativeURL": "/openapi/v3/" + k + "?hash=" + d.Hash}
	}
	return mustJSON(map[string]any{"paths": paths})
}

// GroupVersionV3 builds the OpenAPI v3 document of one group version.
func GroupVersionV3(gv meta.GroupVersion, resources []Resource, opts Options) (*Document, error) {
	b, err := newBuilder(opts)
	if err != nil {
		return nil, err
	}
	allCRD := len(resources) > 0
	paths := map[string]any{}
	for _, r := range sortedResources(resources) {
		if r.Group != gv.Group || r.Version != gv.Version {
			return nil, fmt.Errorf("openapi: resource %s/%s %s is not in %s", r.Group, r.Version, r.Kind, gv)
		}
		if r.Schema == nil {
			allCRD = false
		}
		items, err := b.resource(r)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			paths[it.path] = it.v3(b)
		}
	}
	if !allCRD {
		paths[gvPrefix(gv)+"/"] = apiResourcesItem(gv).v3(b)
	}
	info := map[string]any{"title": "Kubernetes", "version": b.version}
	if allCRD {
		info = map[string]any{"title": "Kubernetes CRD Swagger", "version": "v0.1.0"}
	}
	schemas := b.closure()
	if !allCRD {
		perDocumentKinds(schemas, gv)
	}
	doc := map[string]any{
		"openapi": "3.0.0",
		"info":    info,
		"paths":   paths,
		"components": map[string]any{
			"schemas": schemas,
			"securitySchemes": map[string]any{"BearerToken": map[string]any{
				"type": "apiKey", "description": "Bearer Token authentication", "name": "authorization", "in": "header"}},
		},
	}
	js := mustJSON(doc)
	return &Document{Path: DocumentPath(gv), JSON: js, Hash: hashOf(js)}, nil
}

// perDocumentKinds names, in the DeleteOptions and WatchEvent of a
// built-in group version's document, that group version after the core
// one, when the release publishes them so (1.36 and later: the data
// names only core/v1 there; earlier releases name every group version
// kube knows, in every document).
func perDocumentKinds(schemas map[string]any, gv meta.GroupVersion) {
	if gv.Group == "" {
		return
	}
	for _, kind := range []string{"DeleteOptions", "WatchEvent"} {
		name := "io.k8s.apimachinery.pkg.apis.meta.v1." + kind
		s, ok := schemas[name].(map[string]any)
		if !ok {
			continue
		}
		gvks, _ := s["x-kubernetes-group-version-kind"].([]any)
		if len(gvks) != 1 {
			continue
		}
		c := maps.Clone(s)
		c["x-kubernetes-group-version-kind"] = []any{gvks[0],
			map[string]any{"group": gv.Group, "kind": kind, "version": gv.Version}}
		schemas[name] = c
	}
}

// builder accumulates the components one document uses.
type builder struct {
	components map[string]any // all known
	used       map[string]bool
	version    string
	// listParams and deleteCollectionParams are the parameters of list
	// and watch operations and of deletecollection, per release.
	listParams, deleteCollectionParams []string
}

func newBuilder(opts Options) (*builder, error) {
	// Top-level copies only: components are never changed, and the CRD
	// schemas rendered for this document are added to this map alone.
	meta := loadMeta().Schemas
	comps := make(map[string]any, len(meta)+len(opts.Components)+4)
	for k, v := range meta {
		comps[k] = v
	}
	for k, v := range opts.Components {
		comps[k] = v
	}
	v := opts.KubernetesVersion
	if v == "" {
		v = "1.33"
	}
	b := &builder{components: comps, used: map[string]bool{}, version: v,
		listParams: listParams, deleteCollectionParams: deleteCollectionParams}
	if opts.ShardSelector {
		b.listParams = insertSorted(listParams, "shardSelector")
		b.deleteCollectionParams = insertSorted(deleteCollectionParams, "shardSelector")
	}
	return b, nil
}

func (b *builder) ref(name string) map[string]any {
	b.used[name] = true
	return map[string]any{"$ref": schema.Ref(name)}
}

// closure returns the used components and everything they reference.
func (b *builder) closure() map[string]any {
	out := map[string]any{}
	var visit func(string)
	visit = func(name string) {
		if _, done := out[name]; done {
			return
		}
		s, ok := b.components[name]
		if !ok {
			return
		}
		out[name] = s
		for _, r := range schema.Refs(s) {
			visit(r)
		}
	}
	for _, n := range sortedKeys(b.used) {
		visit(n)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func sortedResources(rs []Resource) []Resource {
	out := slices.Clone(rs)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Plural < out[j].Plural })
	return out
}

func gvPrefix(gv meta.GroupVersion) string { return "/" + DocumentPath(gv) }

// friendly turns a group into kube's operation-name word:
// "coordination.k8s.io" → "coordination", "example.com" → "exampleCom",
// core → "core".
func friendly(group string) string {
	if group == "" {
		return "core"
	}
	group = strings.TrimSuffix(group, ".k8s.io")
	parts := strings.FieldsFunc(group, func(r rune) bool { return r == '.' || r == '-' })
	for i := 1; i < len(parts); i++ {
		parts[i] = upperFirst(parts[i])
	}
	return strings.Join(parts, "")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// crdComponentName is kube's name for a custom resource's schema:
// the group reversed, the version, the kind ("com.example.v1.Widget").
func crdComponentName(group, version, kind string) string {
	parts := strings.Split(group, ".")
	slices.Reverse(parts)
	return strings.Join(parts, ".") + "." + version + "." + kind
}

func (r *Resource) listKind() string {
	if r.ListKind != "" {
		return r.ListKind
	}
	return r.Kind + "List"
}

func (r *Resource) supports(verb string) bool {
	return r.Verbs == nil || slices.Contains(r.Verbs, verb)
}

// names returns the component names of the kind and its list, registering
// the rendered schemas of a custom resource.
func (b *builder) names(r Resource) (string, string, error) {
	if r.Schema != nil {
		kind := crdComponentName(r.Group, r.Version, r.Kind)
		list := crdComponentName(r.Group, r.Version, r.listKind())
		b.components[kind] = crdSchema(r)
		b.components[list] = crdListSchema(r, kind)
		return kind, list, nil
	}
	if r.Component == "" {
		return "", "", fmt.Errorf("openapi: resource %s/%s %s has neither Component nor Schema", r.Group, r.Version, r.Kind)
	}
	list := r.ListComponent
	if list == "" {
		list = r.Component + "List"
	}
	names := []string{r.Component, list}
	if !r.supports("list") {
		list, names = "", names[:1] // create-only kinds (reviews) have no list kind
	}
	for _, n := range names {
		if _, ok := b.components[n]; !ok {
			return "", "", fmt.Errorf("openapi: component %q of %s/%s %s is unknown", n, r.Group, r.Version, r.Kind)
		}
	}
	return r.Component, list, nil
}

func mustJSON(v any) []byte {
	b, err := marshal(v)
	if err != nil {
		panic("openapi: " + err.Error())
	}
	return b
}
