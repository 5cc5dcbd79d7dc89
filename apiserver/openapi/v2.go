package openapi

import (
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

const definitionsPrefix = "#/definitions/"

// SwaggerV2 builds the /openapi/v2 document (Swagger 2.0, JSON): every
// group version of resources in one document, parameters inline (kube
// shares them under "parameters"), definitions converted from the v3
// components the way kube publishes them in v2 (no nullable, anyOf,
// oneOf, not or default; a reference with a description instead of an
// allOf wrapper). kubectl 1.27 and 1.28 read it in its protobuf form
// (SwaggerV2Protobuf). Path is "" and Hash is the ETag kube sends for both
// the JSON and the protobuf forms.
func SwaggerV2(resources []Resource, opts Options) (*Document, error) {
	b, err := newBuilder(opts)
	if err != nil {
		return nil, err
	}
	paths := map[string]any{}
	gvs := map[meta.GroupVersion]bool{}
	for _, r := range sortedResources(resources) {
		items, err := b.resource(r)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			paths[it.path] = it.v2(b)
		}
		if r.Schema == nil {
			gvs[meta.GroupVersion{Group: r.Group, Version: r.Version}] = true
		}
	}
	for gv := range gvs {
		it := apiResourcesItem(gv)
		paths[it.path] = it.v2(b)
	}
	defs := map[string]any{}
	for name, s := range b.closure() {
		defs[name] = toV2(s)
	}
	for _, r := range resources {
		if r.Schema.PreservesUnknownFields() {
			// kube publishes in v2 no properties of a custom resource that
			// keeps unknown fields at its root: kubectl's v2 validation
			// would refuse every field it did not list.
			defs[crdComponentName(r.Group, r.Version, r.Kind)] = map[string]any{"type": "object",
				"x-kubernetes-group-version-kind": []any{map[string]any{"group": r.Group, "kind": r.Kind, "version": r.Version}}}
		}
	}
	doc := map[string]any{
		"swagger":     "2.0",
		"info":        map[string]any{"title": "Kubernetes", "version": b.version},
		"paths":       paths,
		"definitions": defs,
		"securityDefinitions": map[string]any{"BearerToken": map[string]any{
			"description": "Bearer Token authentication", "type": "apiKey", "name": "authorization", "in": "header"}},
		"security": []any{map[string]any{"BearerToken": []any{}}},
	}
	js, err := marshalNoEscape(doc)
	if err != nil {
		return nil, err
	}
	return &Document{JSON: js, Hash: hashOf(js)}, nil
}

func (it pathItem) v2(b *builder) map[string]any {
	out := map[string]any{}
	for _, o := range it.ops {
		m := map[string]any{
			"description": o.description,
			"schemes":     []any{"https"},
			"tags":        []any{o.tag},
			"operationId": o.id,
			"produces":    anyStrings(o.mediaTypes()),
		}
		consumes := []string{"*/*"}
		if o.action == "" { // the discovery document of a group version
			consumes = o.mediaTypes()
		}
		var ps []any
		if o.body != bodyNone {
			consumes = o.requestMediaTypes()
			b.used[o.bodySchema] = true
			bp := map[string]any{"name": "body", "in": "body", "schema": map[string]any{"$ref": definitionsPrefix + o.bodySchema}}
			if o.body != bodyDelete {
				bp["required"] = true
			}
			ps = append(ps, bp)
		}
		m["consumes"] = anyStrings(consumes)
		for _, p := range o.params {
			ps = append(ps, paramV2(p))
		}
		if len(ps) > 0 {
			m["parameters"] = ps
		}
		resps := map[string]any{}
		for _, r := range o.responses {
			rm := map[string]any{"description": r.description}
			if r.schema != "" {
				b.used[r.schema] = true
				rm["schema"] = map[string]any{"$ref": definitionsPrefix + r.schema}
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
		ps := make([]any, len(it.params))
		for i, p := range it.params {
			ps[i] = paramV2(p)
		}
		out["parameters"] = ps
	}
	return out
}

// paramV2 flattens a v3 parameter's schema into the parameter.
func paramV2(p map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range p {
		if k == "schema" {
			if sm, ok := v.(map[string]any); ok {
				for sk, sv := range sm {
					out[sk] = sv
				}
			}
			continue
		}
		out[k] = v
	}
	return out
}

func anyStrings(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// definitionRef is the v2 form of a v3 reference to a component:
// "#/definitions/<name>".
func definitionRef(ref string) string {
	name, _ := schema.RefName(ref)
	return definitionsPrefix + name
}

// toV2 converts a v3 component schema to a v2 definition.
func toV2(v any) any {
	switch t := v.(type) {
	case map[string]any:
		if _, direct := t["$ref"]; !direct {
			if ref := schema.RefOf(t); ref != "" { // kube's allOf wrapper of a reference
				out := map[string]any{"$ref": definitionRef(ref)}
				for k, e := range t {
					switch k {
					case "allOf", "default", "nullable":
					default:
						out[k] = e
					}
				}
				return out
			}
		}
		out := make(map[string]any, len(t))
		alternatives := false
		for k, e := range t {
			switch k {
			case "$ref":
				s, _ := e.(string)
				out[k] = definitionRef(s)
			case "nullable", "default", "not", "allOf":
			case "anyOf", "oneOf":
				alternatives = true
			case "properties":
				props, _ := e.(map[string]any)
				conv := make(map[string]any, len(props))
				for pk, pv := range props {
					conv[pk] = toV2(pv)
				}
				out[k] = conv
			case "items", "additionalProperties":
				out[k] = toV2(e)
			default:
				out[k] = e
			}
		}
		if t["nullable"] == true {
			delete(out, "type")
		}
		if _, typed := out["type"]; alternatives && !typed && t["x-kubernetes-int-or-string"] != true {
			out["type"] = "string" // Quantity and IntOrString are strings in v2
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = toV2(e)
		}
		return out
	}
	return v
}
