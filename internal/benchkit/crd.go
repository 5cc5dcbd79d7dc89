package benchkit

import (
	"encoding/json"
	"fmt"
)

// CRD returns a namespaced CustomResourceDefinition for group and plural
// (kind: plural with its first letter upper-cased) whose spec schema has
// properties properties, cycling through the shapes a server treats
// differently: scalars with defaults, formats and patterns, maps, sets,
// list-type maps, nested objects, int-or-string, preserve-unknown-fields.
func CRD(group, plural string, properties int) []byte {
	props := map[string]any{}
	for i := range properties {
		var p map[string]any
		switch i % 8 {
		case 0:
			p = map[string]any{"type": "string", "maxLength": 63, "pattern": "^[a-z0-9-]*$"}
		case 1:
			p = map[string]any{"type": "integer", "format": "int32", "minimum": 0, "default": 1}
		case 2:
			p = map[string]any{"type": "boolean", "default": false}
		case 3:
			p = map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}}
		case 4:
			p = map[string]any{"type": "array", "x-kubernetes-list-type": "set", "items": map[string]any{"type": "string"}}
		case 5:
			p = map[string]any{"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"name"},
				"items": map[string]any{"type": "object", "required": []any{"name"}, "properties": map[string]any{
					"name": map[string]any{"type": "string"}, "port": map[string]any{"type": "integer", "default": 80}}}}
		case 6:
			p = map[string]any{"type": "object", "properties": map[string]any{
				"enabled": map[string]any{"type": "boolean"},
				"mode":    map[string]any{"type": "string", "enum": []any{"fast", "safe"}, "default": "safe"}}}
		case 7:
			p = map[string]any{"x-kubernetes-int-or-string": true}
		}
		p["description"] = fmt.Sprintf("Property %d of the benchmark's custom resource.", i)
		props[fmt.Sprintf("field%02d", i)] = p
	}
	kind := string(plural[0]-'a'+'A') + plural[1:]
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": plural, "singular": plural, "kind": kind},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"subresources": map[string]any{"status": map[string]any{}},
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "properties": map[string]any{
					"spec":   map[string]any{"type": "object", "properties": props},
					"status": map[string]any{"type": "object", "properties": map[string]any{"ready": map[string]any{"type": "boolean"}}},
				}}},
			}},
		},
	}
	b, err := json.Marshal(crd)
	if err != nil {
		panic(err)
	}
	return b
}
