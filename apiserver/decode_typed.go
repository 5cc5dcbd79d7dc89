package apiserver

import (
	"encoding/base64"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/strategicpatch"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// problem is one field validation finding, placed in the body it was
// found in.
type problem struct {
	offset int // byte offset of the field's key; -1 when unknown
	path   string
	text   string
}

// bodyProblems prunes the fields obj's type does not declare and returns,
// with the duplicate fields the decoder found, what field validation
// reports, in the body's document order as kube's strict decoder does.
// body gives the document (nil: none); it is called only to order two
// problems or more.
func (r *Resource) bodyProblems(obj meta.Object, body func() []byte, duplicates []codec.Field) []string {
	var ps []problem
	for _, d := range duplicates {
		ps = append(ps, problem{offset: d.Offset, path: d.Path, text: fmt.Sprintf("duplicate field %q", d.Path)})
	}
	if r.Schema != nil {
		for _, p := range r.Schema.Prune(obj, true) {
			ps = append(ps, problem{offset: -1, path: p, text: fmt.Sprintf("unknown field %q", p)})
		}
	}
	if len(ps) > 1 && body != nil {
		if offsets := codec.FieldOffsets(body()); offsets != nil {
			for i := range ps {
				if off, ok := offsets[ps[i].path]; ok && ps[i].offset < 0 {
					ps[i].offset = off
				}
			}
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].offset < ps[j].offset })
		}
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.text
	}
	return out
}

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

// typedDecodeError is how kube-apiserver answers a value of the wrong JSON
// type in a built-in kind: its typed decoding fails (400) before any
// validation, naming the Go field and type. kapi words it from the schema.
func (r *Resource) typedDecodeError(errs meta.FieldErrors) error {
	if r.customResource || r.Schema == nil {
		return nil
	}
	return r.cannotHandle(r.typedDecodeCause(errs))
}

// typedDecodeCause words the first value of the wrong JSON type among
// errs as Go's decoder does; "" when there is none.
func (r *Resource) typedDecodeCause(errs meta.FieldErrors) string {
	for _, e := range errs {
		if e.Type != meta.ErrorTypeInvalid {
			continue
		}
		if b, ok := e.Value.(base64Error); ok {
			return b.Error()
		}
		got, _ := e.Value.(string)
		jsonType := map[string]string{"integer": "number", "number": "number", "boolean": "bool"}[got]
		if jsonType == "" {
			jsonType = got
		}
		field, goType := r.goField(e.Field)
		return fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s of type %s", jsonType, field, goType)
	}
	return ""
}

// cannotHandle is kube's answer to a body of the kind that its decoder
// cannot read (cause); nil when there is no cause.
func (r *Resource) cannotHandle(cause string) error {
	if cause == "" {
		return nil
	}
	return meta.BadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", r.Kind, r.Version, r.Kind, cause))
}

// typedDecodeCheck finds, before anything else is done with a request's
// object of a built-in kind, what kube's decoding into its Go type refuses
// (400): metadata that is not an object, and, when types is set, any value
// of the wrong JSON type (an update reports it before looking up the
// object; a create finds it while defaulting). Nulls the Go types cannot
// hold are dropped on the way, as applyDefaults would.
func (r *Resource) typedDecodeCheck(obj meta.Object, types bool) error {
	return r.cannotHandle(r.typedDecodeFailure(obj, types))
}

// typedDecodeFailure is typedDecodeCheck's cause, the decoder's words
// without the kind it decoded; "" when the object decodes.
func (r *Resource) typedDecodeFailure(obj meta.Object, types bool) string {
	if r.customResource || r.Schema == nil {
		return ""
	}
	if md, ok := obj["metadata"]; ok && md != nil {
		if _, isMap := md.(map[string]any); !isMap {
			return fmt.Sprintf("json: cannot unmarshal %s into Go struct field %s.metadata of type v1.ObjectMeta", jsonKind(md), r.Kind)
		}
	}
	if !types {
		return ""
	}
	r.typedNulls(obj)
	return r.typedDecodeCause(r.typedFormatErrors(obj, r.Schema.Validate(obj)))
}

// goField names a field path as Go's JSON decoder names the struct field
// (the innermost struct holding it, then the path with map keys and list
// indices dropped) and the Go type its schema maps to. The structs are
// the schema's named components (io.k8s.api.core.v1.PodSpec is a
// v1.PodSpec); a schema without them names the kind, or ObjectMeta.
func (r *Resource) goField(path string) (string, string) {
	s := r.Schema
	owner := r.Kind
	var names []string
	for _, part := range strings.Split(path, ".") {
		if s == nil {
			break
		}
		if len(names) > 0 && isStruct(s) {
			owner = s.Component.Name[strings.LastIndexByte(s.Component.Name, '.')+1:] // without its package
		}
		name, _, _ := strings.Cut(part, "[")
		if next, declared := s.Properties[name]; declared {
			s = next
			names = append(names, name)
		} else if next := s.AdditionalPropertiesSchema(); next != nil {
			s = next // a map value: Go names the map field
		}
		if strings.Contains(part, "[") {
			s = s.ItemSchema()
		}
	}
	if len(names) > 1 && names[0] == "metadata" && owner == r.Kind {
		owner = "ObjectMeta"
	}
	goType := "string"
	if s != nil {
		goType = goTypeOf(s)
	}
	return owner + "." + strings.Join(names, "."), goType
}

// isStruct reports a schema of a named object type: a Go struct.
func isStruct(s *schema.Schema) bool {
	return s.Component != nil && s.Type == "object" && s.AdditionalPropertiesSchema() == nil
}

// goTypeName names a component's Go type as Go's errors print it, by its
// package's last element ("v1.PodSpec").
func goTypeName(c *schema.Component) string {
	parts := strings.Split(c.Name, ".")
	if len(parts) < 2 {
		return c.Name
	}
	return parts[len(parts)-2] + "." + parts[len(parts)-1]
}

// goTypeOf is the Go type kube's types give a schema, as Go's errors print
// it.
func goTypeOf(s *schema.Schema) string {
	switch s.Type {
	case "string":
		if s.Format == "byte" {
			return "[]uint8"
		}
		return "string"
	case "integer":
		if s.Format == "int32" {
			return "int32"
		}
		return "int64"
	case "number":
		return "float64"
	case "boolean":
		return "bool"
	case "object":
		if isStruct(s) {
			return goTypeName(s.Component)
		}
		if v := s.AdditionalPropertiesSchema(); v != nil && v.Type != "" {
			return "map[string]" + goTypeOf(v)
		}
		return "map[string]interface {}"
	case "array":
		if it := s.ItemSchema(); it != nil && it.Type != "" {
			return "[]" + goTypeOf(it)
		}
		return "[]interface {}"
	}
	return "interface {}"
}

// strategicMerge applies a strategic merge patch to the current object
// using the type's schema patch metadata (x-kubernetes-patch-strategy and
// -merge-key); without a schema, maps merge and lists are replaced.
func (s *Server) strategicMerge(res *Resource, current, patch meta.Object) (meta.Object, error) {
	out, err := strategicpatch.Apply(current, patch, patchSchema(res.Schema))
	if err == nil {
		dropPatchDirectives(out)
	}
	if err != nil {
		code := strategicpatch.StatusCode(err)
		switch code {
		case 400:
			return nil, meta.BadRequest(err.Error())
		case 422:
			return nil, meta.Invalid(meta.GroupKind{}, "", meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "patch", Value: meta.NoValue, Detail: err.Error()}})
		}
		return nil, &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Code: int32(code), Message: err.Error()}
	}
	return out, nil
}

// dropPatchDirectives removes the directive keys ($patch, $retainKeys,
// $setElementOrder/..., $deleteFromPrimitiveList/...) a strategic merge can
// leave in values it copied through, which kube drops when it decodes the
// result into its types.
func dropPatchDirectives(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if strings.HasPrefix(k, "$") {
				delete(v, k)
				continue
			}
			dropPatchDirectives(e)
		}
	case []any:
		for _, e := range v {
			dropPatchDirectives(e)
		}
	}
}

// patchSchemaView adapts a structural schema to the patch's navigation.
type patchSchemaView struct{ s *schema.Schema }

func patchSchema(s *schema.Schema) strategicpatch.Schema {
	if s == nil {
		return nil // a nil interface, not a typed nil
	}
	return patchSchemaView{s}
}

func (p patchSchemaView) Property(n string) strategicpatch.Schema {
	return patchSchema(p.s.Property(n))
}
func (p patchSchemaView) ItemSchema() strategicpatch.Schema { return patchSchema(p.s.ItemSchema()) }
func (p patchSchemaView) PatchStrategy() string             { return p.s.PatchStrategy() }
func (p patchSchemaView) PatchMergeKey() string             { return p.s.PatchMergeKey() }
