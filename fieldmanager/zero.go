package fieldmanager

import (
	"slices"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// The object a write starts from when there is none.
//
// kube-apiserver creates a built-in object from a new Go value: its "live"
// object on create (and the base of before-first-apply) is the Go zero
// value as JSON, which has every field that is always serialized: value
// structs as objects ({} or deeper), non-omitempty strings "", numbers 0,
// booleans false, non-omitempty pointers, slices and maps null, and
// metadata.creationTimestamp null. Those fields then never count as added
// by the create, so their parents carry no "." in the creator's FieldsV1
// (a created Deployment owns f:spec.f:template.f:spec.f:containers, not
// f:spec{".", ...}).
//
// The published OpenAPI of a built-in kind says which fields those are:
// kube-openapi gives a field that is always serialized its zero value as
// default ({}, "", 0, false), and a required field without default is a
// pointer, slice or map (null). A built-in kind is one whose metadata is a
// component (schema.ParseComponents), as in kube's published schemas. Custom resources are unstructured in kube:
// they start from apiVersion and kind only.

// maxZeroDepth bounds the expansion of value structs (Go value structs
// cannot nest forever; schemas might).
const maxZeroDepth = 32

// zeroTemplate returns the fields of the zero value of a built-in kind
// (without apiVersion and kind), or nil for a kind that is not built in
// (its metadata is not a component: a CRD's schema) or has no schema.
func zeroTemplate(root *schema.Schema) map[string]any {
	if root == nil {
		return nil
	}
	if md := root.Properties["metadata"]; md == nil || md.Component == nil {
		return nil
	}
	z := zeroStruct(root, 0)
	delete(z, "apiVersion")
	delete(z, "kind")
	return z
}

// zeroStruct returns the fields of the zero value of an object schema.
// A property that refers to a component is that component, with the
// referring schema's default (see schema.Schema.Component).
func zeroStruct(s *schema.Schema, depth int) map[string]any {
	out := map[string]any{}
	if depth > maxZeroDepth {
		return out
	}
	for name, ps := range s.Properties {
		if ps == nil {
			continue
		}
		if ps.Component != nil && ps.Component.Name == timeName && name == "creationTimestamp" {
			out[name] = nil // metav1.Time, a value struct marshalled as null
			continue
		}
		def := ps.DefaultValue
		switch {
		case isEmptyObject(def) && isObject(ps):
			out[name] = zeroStruct(ps, depth+1)
		case isZeroScalar(def):
			out[name] = def
		case def == nil && slices.Contains(s.Required, name):
			out[name] = nil
		}
	}
	return out
}

func isEmptyObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

func isObject(s *schema.Schema) bool {
	return s.Type == "object" || s.Properties != nil
}

func isZeroScalar(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	}
	return false
}

// empty is the object a create starts from: the kind's zero value (see
// above) with apiVersion and kind. It is a fresh copy.
func (m *Manager) empty(apiVersion string) meta.Object {
	out := meta.Object{"apiVersion": apiVersion, "kind": m.gvk.Kind}
	for k, v := range m.zero {
		out[k] = meta.DeepCopyValue(v)
	}
	return out
}
