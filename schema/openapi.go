package schema

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/kapi-dev/kapi/meta"
)

// ToOpenAPI returns the schema as an OpenAPI v3 JSON value (maps, slices,
// scalars), with the keywords of its input (unknown keywords and $ref-like
// keywords kube rejects are not kept; x-… extensions are). The result is a
// fresh value the caller may change.
func (s *Schema) ToOpenAPI() map[string]any {
	return s.toOpenAPI(map[*Schema]bool{})
}

// toOpenAPI renders s; a node already being rendered higher up (a cycle,
// only possible with ParseComponents) becomes a schema keeping unknown
// fields.
func (s *Schema) toOpenAPI(stack map[*Schema]bool) map[string]any {
	if s == nil {
		return nil
	}
	if stack[s] {
		return map[string]any{"x-kubernetes-preserve-unknown-fields": true}
	}
	stack[s] = true
	defer delete(stack, s)
	out := map[string]any{}
	put := func(k string, v any, ok bool) {
		if ok {
			out[k] = v
		}
	}
	put("type", s.Type, s.Type != "")
	put("format", s.Format, s.Format != "")
	put("title", s.Title, s.Title != "")
	put("description", s.Description, s.Description != "")
	put("nullable", true, s.Nullable)
	put("default", meta.DeepCopyValue(s.DefaultValue), s.DefaultValue != nil)
	put("example", meta.DeepCopyValue(s.Example), s.Example != nil)
	if s.Enum != nil {
		out["enum"] = meta.DeepCopyValue(s.Enum)
	}
	putF := func(k string, f *float64) {
		if f != nil {
			if i, ok := integralFloat(*f); ok {
				out[k] = i
			} else {
				out[k] = *f
			}
		}
	}
	putF("maximum", s.Maximum)
	put("exclusiveMaximum", true, s.ExclusiveMaximum)
	putF("minimum", s.Minimum)
	put("exclusiveMinimum", true, s.ExclusiveMinimum)
	putF("multipleOf", s.MultipleOf)
	putI := func(k string, i *int64) {
		if i != nil {
			out[k] = *i
		}
	}
	putI("maxLength", s.MaxLength)
	putI("minLength", s.MinLength)
	put("pattern", s.Pattern, s.Pattern != "")
	putI("maxItems", s.MaxItems)
	putI("minItems", s.MinItems)
	put("uniqueItems", true, s.UniqueItems)
	putI("maxProperties", s.MaxProperties)
	putI("minProperties", s.MinProperties)
	if len(s.Required) > 0 {
		out["required"] = anyStrings(s.Required)
	}
	if s.Properties != nil {
		props := make(map[string]any, len(s.Properties))
		for k, v := range s.Properties {
			props[k] = v.toOpenAPI(stack)
		}
		out["properties"] = props
	}
	if ap := s.AdditionalProperties; ap != nil {
		if ap.Schema != nil {
			out["additionalProperties"] = ap.Schema.toOpenAPI(stack)
		} else {
			out["additionalProperties"] = ap.Allows
		}
	}
	if s.Items != nil {
		out["items"] = s.Items.toOpenAPI(stack)
	}
	list := func(k string, l []*Schema) {
		if len(l) == 0 {
			return
		}
		v := make([]any, len(l))
		for i, b := range l {
			v[i] = b.toOpenAPI(stack)
		}
		out[k] = v
	}
	list("allOf", s.AllOf)
	list("anyOf", s.AnyOf)
	list("oneOf", s.OneOf)
	if s.Not != nil {
		out["not"] = s.Not.toOpenAPI(stack)
	}
	put("x-kubernetes-preserve-unknown-fields", true, s.XPreserveUnknownFields)
	put("x-kubernetes-int-or-string", true, s.XIntOrString)
	put("x-kubernetes-embedded-resource", true, s.XEmbeddedResource)
	put("x-kubernetes-list-type", s.XListType, s.XListType != "")
	if len(s.XListMapKeys) > 0 {
		out["x-kubernetes-list-map-keys"] = anyStrings(s.XListMapKeys)
	}
	put("x-kubernetes-map-type", s.XMapType, s.XMapType != "")
	put("x-kubernetes-patch-merge-key", s.XPatchMergeKey, s.XPatchMergeKey != "")
	put("x-kubernetes-patch-strategy", s.XPatchStrategy, s.XPatchStrategy != "")
	for _, k := range slices.Sorted(maps.Keys(s.Extensions)) {
		out[k] = meta.DeepCopyValue(s.Extensions[k])
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

// MarshalJSON encodes the schema as OpenAPI v3 JSON ([Schema.ToOpenAPI]),
// with sorted keys.
func (s *Schema) MarshalJSON() ([]byte, error) {
	return json.Marshal(s.ToOpenAPI())
}

// UnmarshalJSON parses OpenAPI v3 JSON with [Parse]'s CRD checks.
func (s *Schema) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	parsed, err := Parse(v)
	if err != nil {
		return err
	}
	*s = *parsed
	return nil
}
