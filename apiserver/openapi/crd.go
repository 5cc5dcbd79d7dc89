package openapi

import (
	"strings"

	"github.com/kapi-dev/kapi/schema"
)

const (
	objectMetaRef = schema.ComponentRefPrefix + "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	listMetaRef   = schema.ComponentRefPrefix + "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"

	descAPIVersion = "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	descKind       = "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	descMetadata   = "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"
	descListMeta   = "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
	descEmbAPIVer  = "apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"
	descEmbKind    = "kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
)

// crdSchema renders a custom resource's schema as kube-apiserver publishes
// it: standard apiVersion, kind and metadata (a reference to ObjectMeta)
// at the root and in embedded resources, int-or-string spelled as anyOf,
// and the kind's x-kubernetes-group-version-kind.
func crdSchema(r Resource) map[string]any {
	out := r.Schema.ToOpenAPI()
	spellOut(out)
	props, _ := out["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
	}
	props["apiVersion"] = map[string]any{"description": descAPIVersion, "type": "string"}
	props["kind"] = map[string]any{"description": descKind, "type": "string"}
	props["metadata"] = map[string]any{"description": descMetadata, "allOf": []any{map[string]any{"$ref": objectMetaRef}}}
	out["properties"] = props
	if _, ok := out["type"]; !ok {
		out["type"] = "object"
	}
	out["x-kubernetes-group-version-kind"] = []any{map[string]any{"group": r.Group, "kind": r.Kind, "version": r.Version}}
	return out
}

// spellOut applies kube's publishing changes below the root.
func spellOut(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(t) {
			spellOut(t[k])
		}
		if t["x-kubernetes-int-or-string"] == true {
			if _, ok := t["anyOf"]; !ok {
				t["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
			}
		}
		if t["x-kubernetes-embedded-resource"] == true {
			props, _ := t["properties"].(map[string]any)
			if props == nil {
				props = map[string]any{}
				t["properties"] = props
			}
			props["apiVersion"] = map[string]any{"description": descEmbAPIVer, "type": "string"}
			props["kind"] = map[string]any{"description": descEmbKind, "type": "string"}
			props["metadata"] = map[string]any{"description": descMetadata, "allOf": []any{map[string]any{"$ref": objectMetaRef}}}
			req, _ := t["required"].([]any)
			for _, f := range []string{"kind", "apiVersion"} {
				if !containsAny(req, f) {
					req = append(req, f)
				}
			}
			t["required"] = req
		}
	case []any:
		for _, e := range t {
			spellOut(e)
		}
	}
}

func containsAny(list []any, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// crdListSchema is the schema of a custom resource's list kind.
func crdListSchema(r Resource, kindComponent string) map[string]any {
	return map[string]any{
		"description": r.listKind() + " is a list of " + r.Kind,
		"type":        "object",
		"required":    []any{"items"},
		"properties": map[string]any{
			"apiVersion": map[string]any{"description": descAPIVersion, "type": "string"},
			"kind":       map[string]any{"description": descKind, "type": "string"},
			"metadata":   map[string]any{"description": descListMeta, "allOf": []any{map[string]any{"$ref": listMetaRef}}},
			"items": map[string]any{
				"description": "List of " + strings.ToLower(r.Plural) + ". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md",
				"type":        "array",
				"items":       map[string]any{"$ref": schema.Ref(kindComponent)},
			},
		},
		"x-kubernetes-group-version-kind": []any{map[string]any{"group": r.Group, "kind": r.listKind(), "version": r.Version}},
	}
}
