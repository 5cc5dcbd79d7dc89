package schema

import "github.com/kapi-dev/kapi/meta"

// Default applies the schema's defaults to obj in place, as kube-apiserver
// does when it decodes a custom resource (after pruning):
//
//   - a null where the schema is not nullable is replaced by the field's
//     default, or removed when there is none ([Schema.PruneNulls]);
//   - an absent property with a default gets a deep copy of it, and the
//     copy is itself defaulted below (nested defaults apply);
//   - list items and additionalProperties values that are null get their
//     schema's default.
//
// Defaults are pruned once, when the schema is parsed. Cost: O(size of obj
// plus the defaults added).
//
// For built-in kinds whose schemas come from kube's published OpenAPI, the
// defaults are those of the Go types' zero values ({} for structs, "" for
// strings without omitempty...) plus a few declared ones (container port
// protocol TCP): applying them approximates kube's decode/encode round trip,
// not its defaulting functions (replicas: 1, restartPolicy: Always...).
// Such a default ("" for a container's name) also satisfies "required", so
// for built-in objects the order that mirrors kube (decode, Go validation,
// encode) is Prune, PruneNulls, Validate, Default.
func (s *Schema) Default(obj map[string]any) {
	if s == nil || obj == nil {
		return
	}
	pruneNulls(obj, s)
	applyDefaults(obj, s)
}

// PruneNulls removes, in place, the nulls of obj the schema does not allow
// (fields that are not nullable), as decoding into Go types drops them;
// a null value of a map whose values have a default is kept for Default to
// replace. Default calls it first.
func (s *Schema) PruneNulls(obj map[string]any) {
	if s == nil || obj == nil {
		return
	}
	pruneNulls(obj, s)
}

func isNonNullableNull(x any, s *Schema) bool {
	return x == nil && s != nil && !s.Nullable
}

func fieldSchema(s *Schema, k string) *Schema {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[k]; ok {
		return p
	}
	return s.AdditionalPropertiesSchema()
}

// pruneNulls removes non-nullable nulls: those without default, as kube's
// PruneNonNullableNullsWithoutDefaults does, and those of declared
// properties with a default, which applyDefaults then sets (kube replaces
// them in place: same result).
func pruneNulls(x any, s *Schema) {
	switch t := x.(type) {
	case map[string]any:
		pruneNullsMap(t, s)
	case meta.Object:
		pruneNullsMap(t, s)
	case []any:
		items := s.ItemSchema()
		for _, e := range t {
			pruneNulls(e, items)
		}
	}
}

func pruneNullsMap(m map[string]any, s *Schema) {
	for k, v := range m {
		fs := fieldSchema(s, k)
		if v == nil && fs != nil && !fs.Nullable {
			if _, declared := s.Properties[k]; declared || fs.DefaultValue == nil {
				delete(m, k)
				continue
			}
		}
		pruneNulls(v, fs)
	}
}

func applyDefaults(x any, s *Schema) {
	if s == nil {
		return
	}
	switch t := x.(type) {
	case map[string]any:
		applyDefaultsMap(t, s)
	case meta.Object:
		applyDefaultsMap(t, s)
	case []any:
		for i := range t {
			if isNonNullableNull(t[i], s.Items) && s.Items.DefaultValue != nil {
				t[i] = meta.DeepCopyValue(s.Items.DefaultValue)
			}
			applyDefaults(t[i], s.Items)
		}
	}
}

func applyDefaultsMap(m map[string]any, s *Schema) {
	for _, k := range s.comp().defaulted {
		prop := s.Properties[k]
		if v, found := m[k]; !found || isNonNullableNull(v, prop) {
			m[k] = meta.DeepCopyValue(prop.DefaultValue)
		}
	}
	ap := s.AdditionalPropertiesSchema()
	if len(s.Properties) == 0 && ap == nil {
		return
	}
	for k, v := range m {
		if prop, found := s.Properties[k]; found {
			applyDefaults(v, prop)
		} else if ap != nil {
			if isNonNullableNull(v, ap) && ap.DefaultValue != nil {
				m[k] = meta.DeepCopyValue(ap.DefaultValue)
			}
			applyDefaults(m[k], ap)
		}
	}
}
