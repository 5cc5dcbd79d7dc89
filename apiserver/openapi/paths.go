package openapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// pathItem is one path of a document, independent of the OpenAPI version.
type pathItem struct {
	path   string
	ops    []operation
	params []map[string]any // path-level parameters (v3 form)
}

// body kinds of an operation.
const (
	bodyNone = iota
	bodyObject
	bodyDelete
	bodyPatch
)

// response media sets.
const (
	mediaObject = iota // json, protobuf, yaml
	mediaList          // plus the two watch streams
	mediaAny           // */*
)

type response struct {
	code, description string
	schema            string // component name; "" for none
}

type operation struct {
	method      string // get, post, put, patch, delete
	id          string
	description string
	action      string // x-kubernetes-action; "" for none
	gvk         *meta.GroupVersionKind
	params      []map[string]any
	body        int
	bodySchema  string
	responses   []response
	media       int
	crd         bool
	tag         string
}

var (
	listParams = []string{"allowWatchBookmarks", "continue", "fieldSelector", "labelSelector", "limit",
		"resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds", "watch"}
	writeParams            = []string{"dryRun", "fieldManager", "fieldValidation"}
	patchParams            = []string{"dryRun", "fieldManager-patch", "fieldValidation", "force"}
	deleteParams           = []string{"dryRun", "gracePeriodSeconds", "ignoreStoreReadErrorWithClusterBreakingPotential", "orphanDependents", "propagationPolicy"}
	deleteCollectionParams = []string{"continue", "dryRun", "fieldSelector", "gracePeriodSeconds",
		"ignoreStoreReadErrorWithClusterBreakingPotential", "labelSelector", "limit", "orphanDependents",
		"propagationPolicy", "resourceVersion", "resourceVersionMatch", "sendInitialEvents", "timeoutSeconds"}
)

func params(names ...string) []map[string]any {
	out := make([]map[string]any, len(names))
	for i, n := range names {
		out[i] = parameter(n)
	}
	return out
}

func nameParam(kind string) map[string]any {
	p := parameter("name")
	p["description"] = fmt.Sprintf("name of the %s", kind)
	return p
}

func apiResourcesItem(gv meta.GroupVersion) pathItem {
	g := friendly(gv.Group)
	return pathItem{path: gvPrefix(gv) + "/", ops: []operation{{
		method: "get", id: "get" + upperFirst(g) + upperFirst(gv.Version) + "APIResources",
		description: "get available resources", tag: g + "_" + gv.Version,
		responses: []response{{"200", "OK", "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList"}, {"401", "Unauthorized", ""}},
	}}}
}

// resource returns the paths of one resource type.
func (b *builder) resource(r Resource) ([]pathItem, error) {
	kindName, listName, err := b.names(r)
	if err != nil {
		return nil, err
	}
	gv := meta.GroupVersion{Group: r.Group, Version: r.Version}
	g := friendly(r.Group)
	tag := g + "_" + r.Version
	word := upperFirst(g) + upperFirst(r.Version)
	gvk := &meta.GroupVersionKind{Group: r.Group, Version: r.Version, Kind: r.Kind}
	crd := r.Schema != nil
	prefix := gvPrefix(gv)
	scope := ""
	collection := prefix + "/" + r.Plural
	if r.Namespaced {
		scope = "Namespaced"
		collection = prefix + "/namespaces/{namespace}/" + r.Plural
	}
	item := collection + "/{name}"
	nsParam := params("namespace")
	pretty := params("pretty")
	op := func(method, id, desc, action string) operation {
		return operation{method: method, id: id, description: desc, action: action, gvk: gvk, tag: tag, crd: crd}
	}
	objResp := func(codes ...string) []response {
		var out []response
		for _, c := range codes {
			d := map[string]string{"200": "OK", "201": "Created", "202": "Accepted"}[c]
			out = append(out, response{c, d, kindName})
		}
		return append(out, response{"401", "Unauthorized", ""})
	}
	statusResp := func(codes ...string) []response {
		var out []response
		for _, c := range codes {
			d := map[string]string{"200": "OK", "202": "Accepted"}[c]
			out = append(out, response{c, d, "io.k8s.apimachinery.pkg.apis.meta.v1.Status"})
		}
		return append(out, response{"401", "Unauthorized", ""})
	}
	listDesc := "list or watch objects of kind " + r.Kind
	if crd || !r.supports("watch") {
		listDesc = "list objects of kind " + r.Kind
	}
	patchCodes := []string{"200", "201"}
	if crd {
		patchCodes = []string{"200"}
	}

	var items []pathItem
	// The collection.
	coll := pathItem{path: collection, params: append(nsParamIf(r.Namespaced, nsParam), pretty...)}
	if r.supports("list") {
		o := op("get", "list"+word+scope+r.Kind, listDesc, "list")
		o.params, o.media = params(b.listParams...), mediaList
		o.responses = []response{{"200", "OK", listName}, {"401", "Unauthorized", ""}}
		coll.ops = append(coll.ops, o)
	}
	if r.supports("create") {
		o := op("post", "create"+word+scope+r.Kind, strings.Join(strings.Fields("create "+article(r.Kind)+" "+r.Kind), " "), "post")
		o.params, o.body, o.bodySchema = params(writeParams...), bodyObject, kindName
		o.responses = objResp("200", "201", "202")
		coll.ops = append(coll.ops, o)
	}
	if r.supports("deletecollection") {
		o := op("delete", "delete"+word+"Collection"+scope+r.Kind, "delete collection of "+r.Kind, "deletecollection")
		o.params, o.body, o.bodySchema = params(b.deleteCollectionParams...), bodyDelete, "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
		if crd { // kube declares the list parameters and no body here for custom resources
			o.params, o.body = params(b.listParams...), bodyNone
		}
		o.responses = statusResp("200")
		coll.ops = append(coll.ops, o)
	}
	if len(coll.ops) > 0 {
		items = append(items, coll)
	}

	// One object, and its subresources.
	one := pathItem{path: item, params: append(append([]map[string]any{nameParam(r.Kind)}, nsParamIf(r.Namespaced, nsParam)...), pretty...)}
	objectOps := func(suffix, what string) []operation {
		var ops []operation
		the := "the specified " + r.Kind
		if what != "" {
			the = what + " of the specified " + r.Kind
		}
		if r.supports("get") {
			o := op("get", "read"+word+scope+r.Kind+suffix, "read "+the, "get")
			if crd {
				o.params = params("resourceVersion")
			}
			o.responses = objResp("200")
			ops = append(ops, o)
		}
		if r.supports("update") {
			o := op("put", "replace"+word+scope+r.Kind+suffix, "replace "+the, "put")
			o.params, o.body, o.bodySchema = params(writeParams...), bodyObject, kindName
			o.responses = objResp("200", "201")
			ops = append(ops, o)
		}
		if suffix == "" && r.supports("delete") {
			o := op("delete", "delete"+word+scope+r.Kind, strings.Join(strings.Fields("delete "+article(r.Kind)+" "+r.Kind), " "), "delete")
			o.params, o.body, o.bodySchema = params(deleteParams...), bodyDelete, "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions"
			o.responses = statusResp("200", "202")
			if r.ReturnDeletedObject {
				o.responses = objResp("200", "202")
			}
			ops = append(ops, o)
		}
		if r.supports("patch") {
			o := op("patch", "patch"+word+scope+r.Kind+suffix, "partially update "+the, "patch")
			o.params, o.body, o.bodySchema = params(patchParams...), bodyPatch, "io.k8s.apimachinery.pkg.apis.meta.v1.Patch"
			o.responses = objResp(patchCodes...)
			ops = append(ops, o)
		}
		return ops
	}
	one.ops = objectOps("", "")
	if len(one.ops) > 0 {
		items = append(items, one)
	}
	for _, sub := range r.Subresources {
		if sub != "status" {
			continue // other subresources (scale, ...) have other schemas; not declared yet
		}
		it := pathItem{path: item + "/" + sub, params: one.params, ops: objectOps(upperFirst(sub), sub)}
		if len(it.ops) > 0 {
			items = append(items, it)
		}
	}

	// All namespaces, and the deprecated watch paths of built-in kinds.
	if r.Namespaced && r.supports("list") {
		o := op("get", "list"+word+r.Kind+"ForAllNamespaces", listDesc, "list")
		o.media = mediaList
		o.responses = []response{{"200", "OK", listName}, {"401", "Unauthorized", ""}}
		items = append(items, pathItem{path: prefix + "/" + r.Plural, ops: []operation{o},
			params: params(insertSorted(b.listParams, "pretty")...)})
	}
	if !crd && r.supports("watch") {
		watch := func(path, id, desc, action string, extra ...map[string]any) pathItem {
			o := op("get", id, desc, action)
			o.media = mediaList
			o.responses = []response{{"200", "OK", "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent"}, {"401", "Unauthorized", ""}}
			ps := append(params(b.listParams...), params("pretty")...)
			ps = append(ps, extra...)
			sortParams(ps)
			return pathItem{path: path, ops: []operation{o}, params: ps}
		}
		listWatch := "watch individual changes to a list of " + r.Kind + ". deprecated: use the 'watch' parameter with a list operation instead."
		oneWatch := "watch changes to an object of kind " + r.Kind + ". deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter."
		if r.Namespaced {
			items = append(items,
				watch(prefix+"/watch/namespaces/{namespace}/"+r.Plural, "watch"+word+scope+r.Kind+"List", listWatch, "watchlist", nsParam...),
				watch(prefix+"/watch/namespaces/{namespace}/"+r.Plural+"/{name}", "watch"+word+scope+r.Kind, oneWatch, "watch", append([]map[string]any{nameParam(r.Kind)}, nsParam...)...),
				watch(prefix+"/watch/"+r.Plural, "watch"+word+r.Kind+"ListForAllNamespaces", listWatch, "watchlist"))
		} else {
			items = append(items,
				watch(prefix+"/watch/"+r.Plural, "watch"+word+r.Kind+"List", listWatch, "watchlist"),
				watch(prefix+"/watch/"+r.Plural+"/{name}", "watch"+word+r.Kind, oneWatch, "watch", nameParam(r.Kind)))
		}
	}
	for i := range items {
		// A path with a single operation declares all its parameters on
		// the path, as kube's generator does (reviews, component statuses).
		if it := &items[i]; len(it.ops) == 1 {
			it.params = append(it.params, it.ops[0].params...)
			it.ops[0].params = nil
		}
		sortParams(items[i].params)
	}
	return items, nil
}

// article is the article kube's descriptions put before a kind: none for
// one that reads as a plural ("create Endpoints", but "a StorageClass"),
// "an" before a vowel.
func article(word string) string {
	if strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss") {
		return ""
	}
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

func nsParamIf(namespaced bool, p []map[string]any) []map[string]any {
	if namespaced {
		return p
	}
	return nil
}

func insertSorted(names []string, extra string) []string {
	out := append(append([]string(nil), names...), extra)
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// sortParams orders parameters by name, then location, as kube does.
func sortParams(ps []map[string]any) {
	key := func(p map[string]any) string {
		n, _ := p["name"].(string)
		in, _ := p["in"].(string)
		return n + "\x00" + in
	}
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && key(ps[j]) < key(ps[j-1]); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

func (o *operation) mediaTypes() []string {
	switch {
	case o.media == mediaAny:
		return []string{"*/*"}
	case o.crd && o.media == mediaList:
		return []string{"application/json", "application/yaml"}
	case o.crd:
		return []string{"application/json", "application/yaml"}
	case o.media == mediaList:
		return []string{"application/json", "application/yaml", "application/vnd.kubernetes.protobuf",
			"application/json;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch"}
	}
	return []string{"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"}
}

func (o *operation) requestMediaTypes() []string {
	switch {
	case o.body == bodyPatch && o.crd:
		return []string{"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"}
	case o.body == bodyPatch:
		return []string{"application/json-patch+json", "application/merge-patch+json",
			"application/strategic-merge-patch+json", "application/apply-patch+yaml"}
	case o.crd:
		return []string{"application/json", "application/yaml"}
	}
	return []string{"*/*"}
}

// v3 renders the path item of an OpenAPI 3.0 document.
func (it pathItem) v3(b *builder) map[string]any {
	out := map[string]any{}
	for _, o := range it.ops {
		m := map[string]any{
			"tags":        []any{o.tag},
			"description": o.description,
			"operationId": o.id,
		}
		if len(o.params) > 0 {
			m["parameters"] = anyList(o.params)
		}
		if o.body != bodyNone {
			content := map[string]any{}
			for _, mt := range o.requestMediaTypes() {
				content[mt] = map[string]any{"schema": b.ref(o.bodySchema)}
			}
			rb := map[string]any{"content": content}
			if o.body == bodyObject || o.body == bodyPatch {
				rb["required"] = true
			}
			m["requestBody"] = rb
		}
		resps := map[string]any{}
		for _, r := range o.responses {
			rm := map[string]any{"description": r.description}
			if r.schema != "" {
				content := map[string]any{}
				for _, mt := range o.mediaTypes() {
					content[mt] = map[string]any{"schema": b.ref(r.schema)}
				}
				rm["content"] = content
			}
			resps[r.code] = rm
		}
		m["responses"] = resps
		if o.action != "" {
			m["x-kubernetes-action"] = o.action
		}
		if o.gvk != nil {
			m["x-kubernetes-group-version-kind"] = map[string]any{"group": o.gvk.Group, "version": o.gvk.Version, "kind": o.gvk.Kind}
		}
		out[o.method] = m
	}
	if len(it.params) > 0 {
		out["parameters"] = anyList(it.params)
	}
	return out
}

func anyList(ps []map[string]any) []any {
	out := make([]any, len(ps))
	for i, p := range ps {
		out[i] = p
	}
	return out
}

// marshal encodes compactly with sorted keys, escaping <, > and & as
// kube-apiserver's v3 documents do.
func marshal(v any) ([]byte, error) {
	return json.Marshal(v)
}

// marshalNoEscape encodes without HTML escaping, as kube's v2 document.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
