package apiserver

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// applyDefaults applies the schema's defaults, in kube's order: custom
// resources are defaulted and validated afterwards; built-in kinds drop the
// nulls their Go types cannot hold and are validated before defaulting
// (their zero-value defaults would otherwise satisfy `required`), so their
// schema errors are returned here.
//
// Last, what kube's encoding of the object would omit is dropped (omitEmpty).
func (r *Resource) applyDefaults(obj meta.Object) meta.FieldErrors {
	errs := r.schemaDefaults(obj)
	r.strategy().Default(obj)
	r.omitEmpty(obj)
	return errs
}

func (r *Resource) schemaDefaults(obj meta.Object) meta.FieldErrors {
	if r.Schema == nil {
		return nil
	}
	if r.customResource {
		r.Schema.Default(obj)
		return nil
	}
	r.typedNulls(obj)
	errs := r.Schema.Validate(obj)
	if len(errs) > 0 {
		errs = r.typedFormatErrors(obj, errs)
	}
	r.Schema.Default(obj)
	return errs
}

// typedFormatErrors words the format errors of a built-in kind as kube's
// typed decoding does: a `format: byte` string is a Go []byte, which any
// standard base64 text decodes into, the empty string included (a custom
// resource's schema refuses ""); what does not decode is a decoding error
// (base64Error, for typedDecodeError). An error about a value of another
// JSON type names that type.
func (r *Resource) typedFormatErrors(obj meta.Object, errs meta.FieldErrors) meta.FieldErrors {
	return slices.DeleteFunc(errs, func(e meta.FieldError) bool {
		if e.Type != meta.ErrorTypeInvalid {
			return false
		}
		v, s := r.valueAt(obj, e.Field)
		if s == nil || s.Type != "string" || s.Format != "byte" {
			return false
		}
		at := slices.IndexFunc(errs, func(o meta.FieldError) bool { return o.Field == e.Field && o.Detail == e.Detail })
		text, isString := v.(string)
		if !isString {
			if v != nil { // the value's JSON type, which the format's error does not name
				errs[at].Value, _, _ = strings.Cut(jsonKind(v), " ")
			}
			return false
		}
		_, err := base64.StdEncoding.DecodeString(text)
		if err == nil {
			return true
		}
		errs[at].Value = base64Error{err}
		return false
	})
}

// base64Error marks a schema error as kube's failure to decode a []byte.
type base64Error struct{ error }

// valueAt is the value at a validation error's field path and its schema
// (nil when the path leaves them). A key of a map of scalars is the rest of
// the path, dots included.
func (r *Resource) valueAt(obj meta.Object, path string) (any, *schema.Schema) {
	var v any = map[string]any(obj)
	s := r.Schema
	parts := strings.Split(path, ".")
	for i := 0; i < len(parts) && s != nil; i++ {
		part := parts[i]
		m, _ := v.(map[string]any)
		name, indexes, _ := strings.Cut(part, "[")
		if next, declared := s.Properties[name]; declared {
			s = next
		} else if next := s.AdditionalPropertiesSchema(); next != nil {
			s = next
			if next.Type != "object" && next.Type != "array" {
				name = strings.Join(parts[i:], ".")
				i = len(parts)
			}
		} else {
			return nil, nil
		}
		v = m[name]
		for indexes != "" {
			n, rest, _ := strings.Cut(indexes, "]")
			indexes = strings.TrimPrefix(rest, "[")
			list, _ := v.([]any)
			j, err := strconv.Atoi(n)
			if err != nil || j < 0 || j >= len(list) || s == nil {
				return nil, nil
			}
			v, s = list[j], s.ItemSchema()
		}
	}
	return v, s
}

// typedNulls does to a built-in kind's nulls what decoding it into its Go
// type does: zero values in maps of scalars, the others gone.
func (r *Resource) typedNulls(obj meta.Object) {
	zeroNullMapValues(map[string]any(obj), r.Schema)
	r.Schema.PruneNulls(obj)
}

// zeroNullMapValues gives the null values of a built-in kind's maps of
// scalars the zero value of their Go type, as decoding JSON into a Go map
// does (`data: {"a": null}` is `a: ""`); the other nulls are PruneNulls'.
func zeroNullMapValues(v any, s *schema.Schema) {
	m, ok := v.(map[string]any)
	if !ok || s == nil {
		if list, isList := v.([]any); isList && s != nil {
			is := s.ItemSchema()
			for i, e := range list {
				if z, ok := zeroItem(is); ok && e == nil {
					list[i] = z
					continue
				}
				zeroNullMapValues(e, is)
			}
		}
		return
	}
	if len(s.Properties) == 0 {
		vs := s.AdditionalPropertiesSchema()
		if vs == nil {
			return
		}
		zero, scalar := map[string]any{"string": "", "integer": int64(0), "number": float64(0), "boolean": false}[vs.Type]
		for k, e := range m {
			if e == nil && scalar && !vs.Nullable {
				m[k] = zero
				continue
			}
			zeroNullMapValues(e, vs)
		}
		return
	}
	for k, e := range m {
		zeroNullMapValues(e, s.Properties[k])
	}
}

// zeroItem is the Go zero value a null item of a built-in kind's list
// decodes to (`webhooks: [null]` is one empty webhook, `apiVersions:
// [null]` one ""): for lists of structs and of scalars.
func zeroItem(is *schema.Schema) (any, bool) {
	if is == nil || is.Nullable {
		return nil, false
	}
	switch is.Type {
	case "object":
		if len(is.Properties) > 0 {
			return map[string]any{}, true
		}
	case "string":
		return "", true
	case "integer":
		return int64(0), true
	case "number":
		return float64(0), true
	case "boolean":
		return false, true
	}
	return nil, false
}

// omitEmpty drops, in place, the empty values kube would not store because
// it holds the object in a Go type whose JSON fields are omitempty:
//
//   - in the metadata of every kind (kube decodes even a custom resource's
//     metadata into its typed ObjectMeta): empty strings, maps and lists,
//     nulls, and generation 0 (not managedFields, whose empty list in a
//     request asks field tracking to start over);
//   - in a built-in kind, empty maps and lists of the fields its schema
//     does not require (Kubernetes' API conventions give every optional
//     map and slice omitempty): `data: {}`, `labels: {}` after a merge
//     patch removed the last label.
//
// Empty strings and zeros outside metadata are kept: the schema does not
// tell a Go string from a *string. A custom resource keeps everything else
// as sent, as kube's unstructured objects do.
func (r *Resource) omitEmpty(obj meta.Object) {
	if md, ok := obj["metadata"].(map[string]any); ok {
		for k, v := range md {
			if k != "managedFields" && k != "creationTimestamp" && (isEmptyValue(v) || k == "generation" && v == int64(0)) {
				delete(md, k)
			}
		}
	}
	if r.customResource || r.Schema == nil {
		return
	}
	for k, v := range obj {
		if ps, ok := r.Schema.Properties[k]; ok && k != "metadata" {
			if isEmptyCollection(v) && !slices.Contains(r.Schema.Required, k) && collectionSchema(ps) {
				delete(obj, k)
				continue
			}
			omitEmptyIn(v, ps)
		}
	}
}

// omitEmptyIn applies the built-in kinds' rule of omitEmpty below v.
func omitEmptyIn(v any, s *schema.Schema) {
	switch t := v.(type) {
	case map[string]any:
		if len(s.Properties) == 0 {
			if vs := s.AdditionalPropertiesSchema(); vs != nil {
				for _, e := range t {
					omitEmptyIn(e, vs)
				}
			}
			return
		}
		for k, e := range t {
			ps, ok := s.Properties[k]
			if !ok {
				continue
			}
			if isEmptyCollection(e) && !slices.Contains(s.Required, k) && collectionSchema(ps) {
				delete(t, k)
				continue
			}
			omitEmptyIn(e, ps)
		}
	case []any:
		if items := s.ItemSchema(); items != nil {
			for _, e := range t {
				omitEmptyIn(e, items)
			}
		}
	}
}

// collectionSchema reports a Go map or slice: an array, or an object whose
// keys are free (additionalProperties) rather than a struct's fields.
func collectionSchema(s *schema.Schema) bool {
	return s.Type == "array" || s.Type == "object" && len(s.Properties) == 0 && s.AdditionalPropertiesSchema() != nil
}

func isEmptyCollection(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

func isEmptyValue(v any) bool {
	if s, ok := v.(string); ok {
		return s == ""
	}
	return v == nil || isEmptyCollection(v)
}
