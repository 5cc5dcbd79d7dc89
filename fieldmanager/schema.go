package fieldmanager

import (
	_ "embed"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kapi-dev/kapi/codec"
)

// This file converts an OpenAPI v3 schema (a CRD's openAPIV3Schema, or a
// built-in kind's component schema with its components) into the schema
// structured-merge-diff understands. It follows kube-openapi's
// pkg/schemaconv (ToSchemaFromOpenAPI) rule for rule, plus the few changes
// apiextensions-apiserver's builder makes to a CRD schema before converting
// it (builder.buildKubeNative: metadata is ObjectMeta, apiVersion and kind
// are strings; addEmbeddedProperties for x-kubernetes-embedded-resource).

// Names of the types every converted schema carries, as in schemaconv.
const (
	untypedName = "__untyped_atomic_"
	deducedName = "__untyped_deduced_"
	rootName    = "__kapi_root__"

	objectMetaName   = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
	quantityName     = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	rawExtensionName = "io.k8s.apimachinery.pkg.runtime.RawExtension"
)

func strPtr(s string) *string                  { return &s }
func scalarPtr(s schema.Scalar) *schema.Scalar { return &s }

var untypedDef = schema.TypeDef{
	Name: untypedName,
	Atom: schema.Atom{
		Scalar: scalarPtr(schema.Untyped),
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: strPtr(untypedName)}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: strPtr(untypedName)}, ElementRelationship: schema.Atomic},
	},
}

var deducedDef = schema.TypeDef{
	Name: deducedName,
	Atom: schema.Atom{
		Scalar: scalarPtr(schema.Untyped),
		List:   &schema.List{ElementType: schema.TypeRef{NamedType: strPtr(untypedName)}, ElementRelationship: schema.Atomic},
		Map:    &schema.Map{ElementType: schema.TypeRef{NamedType: strPtr(deducedName)}, ElementRelationship: schema.Separable},
	},
}

// metaComponentsJSON holds the apimachinery schemas a CRD's metadata
// refers to (ObjectMeta, OwnerReference, ManagedFieldsEntry, FieldsV1,
// Time), as kube-apiserver 1.33 publishes them, with descriptions removed.
// They are used when the caller's components do not define them.
//
//go:embed meta_components.json
var metaComponentsJSON []byte

var metaComponents = func() map[string]any {
	v, err := codec.DecodeValue(metaComponentsJSON)
	if err != nil {
		panic("fieldmanager: meta_components.json: " + err.Error())
	}
	return v.(map[string]any)
}()

// convertSchema converts root (resolving $ref through components) into an
// SMD schema whose type rootName is the object's type.
func convertSchema(root, components map[string]any) (*schema.Schema, error) {
	c := &schemaConverter{components: map[string]any{}, done: map[string]bool{}}
	maps.Copy(c.components, metaComponents)
	maps.Copy(c.components, components)

	root = kubeNative(root)
	c.convertNamed(rootName, root)
	for len(c.queue) > 0 {
		name := c.queue[0]
		c.queue = c.queue[1:]
		switch name {
		case quantityName:
			// Hard-coded in schemaconv: a scalar of any type.
			c.out = append(c.out, schema.TypeDef{Name: name, Atom: schema.Atom{Scalar: scalarPtr(schema.Untyped)}})
			continue
		case rawExtensionName:
			c.out = append(c.out, schema.TypeDef{Name: name, Atom: untypedDef.Atom})
			continue
		}
		s, ok := c.components[name].(map[string]any)
		if !ok {
			c.errorf(name, "no schema for $ref %q in components", name)
			continue
		}
		c.convertNamed(name, s)
	}
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("fieldmanager: converting the OpenAPI schema: %s", strings.Join(c.errs, "; "))
	}
	c.out = append(c.out, untypedDef, deducedDef)
	return &schema.Schema{Types: c.out}, nil
}

// kubeNative returns root as apiextensions-apiserver hands a CRD's schema
// to the converter: metadata is a reference to ObjectMeta (unless it already
// is a reference, as in a built-in kind's schema), apiVersion and kind are
// strings, and every x-kubernetes-embedded-resource object gets the same
// three properties. root is not modified.
func kubeNative(root map[string]any) map[string]any {
	out := maps.Clone(root)
	props, _ := root["properties"].(map[string]any)
	props = maps.Clone(props)
	if props == nil {
		props = map[string]any{}
	}
	if md, _ := props["metadata"].(map[string]any); refOf(md) == "" {
		props["metadata"] = map[string]any{"$ref": "#/components/schemas/" + objectMetaName}
	}
	props["apiVersion"] = map[string]any{"type": "string"}
	props["kind"] = map[string]any{"type": "string"}
	out["properties"] = props
	return addEmbeddedProperties(out)
}

// addEmbeddedProperties copies s, giving every object marked
// x-kubernetes-embedded-resource the apiVersion, kind and metadata
// properties of a Kubernetes object.
func addEmbeddedProperties(s map[string]any) map[string]any {
	if s == nil {
		return nil
	}
	out := maps.Clone(s)
	if props, ok := s["properties"].(map[string]any); ok {
		np := make(map[string]any, len(props))
		for k, v := range props {
			if m, ok := v.(map[string]any); ok {
				np[k] = addEmbeddedProperties(m)
			} else {
				np[k] = v
			}
		}
		out["properties"] = np
	}
	if items, ok := s["items"].(map[string]any); ok {
		out["items"] = addEmbeddedProperties(items)
	}
	if ap, ok := s["additionalProperties"].(map[string]any); ok {
		out["additionalProperties"] = addEmbeddedProperties(ap)
	}
	if s["x-kubernetes-embedded-resource"] == true {
		props, _ := out["properties"].(map[string]any)
		props = maps.Clone(props)
		if props == nil {
			props = map[string]any{}
		}
		props["apiVersion"] = map[string]any{"type": "string"}
		props["kind"] = map[string]any{"type": "string"}
		props["metadata"] = map[string]any{"$ref": "#/components/schemas/" + objectMetaName}
		out["properties"] = props
	}
	return out
}

// refOf returns the $ref of s, or of the single schema of its allOf (the
// form OpenAPI v3 uses to give a reference a description or default).
func refOf(s map[string]any) string {
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

type schemaConverter struct {
	components map[string]any
	done       map[string]bool
	queue      []string
	out        []schema.TypeDef
	errs       []string
}

func (c *schemaConverter) errorf(where, format string, args ...any) {
	c.errs = append(c.errs, where+": "+fmt.Sprintf(format, args...))
}

// convertNamed converts a top-level (named) schema. As in schemaconv, a
// named type starts without inherited preserve-unknown-fields.
func (c *schemaConverter) convertNamed(name string, s map[string]any) {
	c.done[name] = true
	if r, _ := s["$ref"].(string); r != "" {
		// schemaconv skips top-level references; a reference to such a
		// type cannot be resolved.
		c.errorf(name, "a top-level schema may not be a $ref")
		return
	}
	a := c.atom(name, s, false)
	c.out = append(c.out, schema.TypeDef{Name: name, Atom: a})
}

// ref returns the SMD type reference for a property, item or
// additionalProperties schema: a named type for a $ref (with the map-type
// override and nullability of the referring schema), else the type inlined.
func (c *schemaConverter) ref(where string, s map[string]any, preserve bool) schema.TypeRef {
	nullable, _ := s["nullable"].(bool)
	if r := refOf(s); r != "" {
		_, name := path.Split(r)
		if name == "" {
			c.errorf(where, "invalid $ref %q", r)
			return schema.TypeRef{NamedType: strPtr(deducedName)}
		}
		if !c.done[name] {
			c.done[name] = true
			c.queue = append(c.queue, name)
		}
		tr := schema.TypeRef{NamedType: &name, Nullable: nullable}
		if rel := c.mapRelationship(where, s); rel != "" {
			tr.ElementRelationship = &rel
		}
		return tr
	}
	return schema.TypeRef{Inlined: c.atom("inlined in "+where, s, preserve), Nullable: nullable}
}

// atom converts one schema node (schemaconv's visitSpec + parseSchema).
func (c *schemaConverter) atom(where string, s map[string]any, preserve bool) schema.Atom {
	if s["x-kubernetes-preserve-unknown-fields"] == true {
		preserve = true
	}
	typ := ""
	switch t := s["type"].(type) {
	case string:
		typ = t
	case []any:
		if len(t) > 0 {
			typ, _ = t[0].(string)
		}
	}
	if s["x-kubernetes-int-or-string"] == true {
		// A structural int-or-string has no type (its anyOf says integer
		// or string); schemaconv then makes it untyped.
		typ = ""
	}
	switch typ {
	case "":
		return schema.Atom{
			Scalar: scalarPtr(schema.Untyped),
			List:   c.list(where, s, preserve),
			Map:    c.object(where, s, preserve),
		}
	case "object":
		return schema.Atom{Map: c.object(where, s, preserve)}
	case "array":
		return schema.Atom{List: c.list(where, s, preserve)}
	case "integer", "number":
		return schema.Atom{Scalar: scalarPtr(schema.Numeric)}
	case "boolean":
		return schema.Atom{Scalar: scalarPtr(schema.Boolean)}
	case "string":
		switch f, _ := s["format"].(string); f {
		case "", "byte":
			return schema.Atom{Scalar: scalarPtr(schema.String)}
		default: // int-or-string, date-time, ...
			return schema.Atom{Scalar: scalarPtr(schema.Untyped)}
		}
	default:
		c.errorf(where, "unrecognized type: '%v'", typ)
		return schema.Atom{Scalar: scalarPtr(schema.Untyped)}
	}
}

func (c *schemaConverter) object(where string, s map[string]any, preserve bool) *schema.Map {
	props, _ := s["properties"].(map[string]any)
	names := slices.Sorted(maps.Keys(props))
	fields := make([]schema.StructField, 0, len(names))
	for _, name := range names {
		member, ok := props[name].(map[string]any)
		if !ok {
			c.errorf(where, "property %q is not a schema", name)
			continue
		}
		fields = append(fields, schema.StructField{
			Name:    name,
			Type:    c.ref(where+"."+name, member, preserve),
			Default: member["default"],
		})
	}
	var elem schema.TypeRef
	switch ap := s["additionalProperties"].(type) {
	case nil:
		// An object without properties is free-form; with properties, unknown
		// fields are only allowed under preserve-unknown-fields.
		if preserve || len(props) == 0 {
			elem = schema.TypeRef{NamedType: strPtr(deducedName)}
		}
	case map[string]any:
		elem = c.ref(where+".additionalProperties", ap, preserve)
	case bool:
		if ap {
			elem = schema.TypeRef{NamedType: strPtr(deducedName)}
		}
	default:
		c.errorf(where, "additionalProperties must be a schema or a boolean")
	}
	return &schema.Map{
		Fields:              fields,
		ElementType:         elem,
		ElementRelationship: c.mapRelationship(where, s),
	}
}

func (c *schemaConverter) mapRelationship(where string, s map[string]any) schema.ElementRelationship {
	v, ok := s["x-kubernetes-map-type"]
	if !ok {
		return ""
	}
	switch v {
	case "atomic":
		return schema.Atomic
	case "granular":
		return schema.Separable
	default:
		c.errorf(where, "unknown map type %v", v)
		return ""
	}
}

func (c *schemaConverter) list(where string, s map[string]any, preserve bool) *schema.List {
	rel, keys := c.listRelationship(where, s)
	var elem schema.TypeRef
	switch items := s["items"].(type) {
	case map[string]any:
		elem = c.ref(where+"[]", items, preserve)
	case nil:
		if t, _ := s["type"].(string); t != "" {
			c.errorf(where, "`items` must be specified on arrays")
		}
		elem = schema.TypeRef{NamedType: strPtr(untypedName)}
	default:
		c.errorf(where, "structural schema arrays must have exactly one member subtype")
		elem = schema.TypeRef{NamedType: strPtr(deducedName)}
	}
	return &schema.List{ElementRelationship: rel, Keys: keys, ElementType: elem}
}

// listRelationship reads x-kubernetes-list-type (and -list-map-keys), or
// for built-in kinds without it the strategic-merge-patch markers
// (x-kubernetes-patch-strategy, -patch-merge-key); lists are atomic
// otherwise.
func (c *schemaConverter) listRelationship(where string, s map[string]any) (schema.ElementRelationship, []string) {
	if v, ok := s["x-kubernetes-list-type"]; ok {
		switch v {
		case "atomic":
			return schema.Atomic, nil
		case "set":
			return schema.Associative, nil
		case "map":
			keys, ok := s["x-kubernetes-list-map-keys"]
			if !ok {
				c.errorf(where, "missing map keys")
				return schema.Associative, nil
			}
			names, ok := stringSlice(keys)
			if !ok {
				c.errorf(where, "uninterpreted map keys: %#v", keys)
				return schema.Associative, nil
			}
			return schema.Associative, names
		default:
			c.errorf(where, "unknown list type %v", v)
			return schema.Atomic, nil
		}
	}
	if v, ok := s["x-kubernetes-patch-strategy"]; ok {
		switch v {
		case "merge", "merge,retainKeys":
			if key, ok := s["x-kubernetes-patch-merge-key"]; ok {
				name, ok := key.(string)
				if !ok {
					c.errorf(where, "uninterpreted merge key: %#v", key)
					return schema.Associative, nil
				}
				return schema.Associative, []string{name}
			}
			return schema.Associative, nil
		case "retainKeys":
			return schema.Atomic, nil
		default:
			c.errorf(where, "unknown patch strategy %v", v)
			return schema.Atomic, nil
		}
	}
	return schema.Atomic, nil
}

func stringSlice(v any) ([]string, bool) {
	switch t := v.(type) {
	case []any:
		var out []string
		for _, e := range t {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out, true
	case []string:
		return t, true
	}
	return nil, false
}

// parseableType returns the SMD type of objects of the kind: the converted
// schema, or the deduced type kube uses for kinds without one.
func parseableType(root, components map[string]any) (typed.ParseableType, error) {
	if root == nil {
		return typed.DeducedParseableType, nil
	}
	s, err := convertSchema(root, components)
	if err != nil {
		return typed.ParseableType{}, err
	}
	return typed.ParseableType{Schema: s, TypeRef: schema.TypeRef{NamedType: strPtr(rootName)}}, nil
}
