package schema

import (
	"sort"
	"strings"
)

// This file is kapi's one reader of OpenAPI "$ref"s: every package that
// follows, collects or rewrites a reference to a component schema does it
// through these functions (the document builders of apiserver/openapi
// still write references into what they publish, with Ref).

// ComponentRefPrefix is how OpenAPI v3 documents refer to a component
// schema: "#/components/schemas/<name>".
const ComponentRefPrefix = "#/components/schemas/"

// Ref returns the reference to the component schema name,
// "#/components/schemas/<name>".
func Ref(name string) string { return ComponentRefPrefix + name }

// RefName returns the component a "$ref" value names
// ("#/components/schemas/<name>" → name); ok is false for any other
// reference.
func RefName(ref string) (name string, ok bool) {
	name, ok = strings.CutPrefix(ref, ComponentRefPrefix)
	return name, ok && name != ""
}

// RefOf returns the "$ref" of a raw (JSON-shaped) schema, or of the one
// schema of its allOf: kube's OpenAPI v3 documents wrap a reference as
// {"allOf": [{"$ref": …}], "description": …, "default": …} to say more
// beside it. It returns "" for a schema that is neither.
func RefOf(s map[string]any) string {
	if s == nil {
		return ""
	}
	if r, _ := s["$ref"].(string); r != "" {
		return r
	}
	if all, ok := s["allOf"].([]any); ok && len(all) == 1 {
		if m, ok := all[0].(map[string]any); ok {
			r, _ := m["$ref"].(string)
			return r
		}
	}
	return ""
}

// Refs returns the names of the components a raw JSON value (a schema, a
// whole document) refers to anywhere inside it, sorted, each once.
func Refs(v any) []string {
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case map[string]any:
			if r, ok := t["$ref"].(string); ok {
				if name, ok := RefName(r); ok {
					seen[name] = true
				}
			}
			for _, e := range t {
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
