package apiserver

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

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

// jsonKind names a decoded JSON value as Go's decoder does in its errors.
func jsonKind(v any) string {
	switch n := v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case float64:
		return "number " + strconv.FormatFloat(n, 'g', -1, 64)
	}
	return "number"
}
