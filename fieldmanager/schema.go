package fieldmanager

import (
	"fmt"
	"slices"
	"strings"

	smd "sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/kapi-dev/kapi/schema"
)

// This file converts a parsed schema (package schema: a CRD version's
// openAPIV3Schema from schema.Parse, or a built-in kind's component from
// schema.ParseComponents) into the schema structured-merge-diff (SMD)
// understands. It follows kube-openapi's pkg/schemaconv
// (ToSchemaFromOpenAPI) rule for rule, plus the few changes
// apiextensions-apiserver's builder makes to a CRD schema before converting
// it (builder.buildKubeNative: metadata is ObjectMeta, apiVersion and kind
// are strings; addEmbeddedProperties for x-kubernetes-embedded-resource).
//
// Components stay named types, as schemaconv keeps $refs: a node with
// [schema.Schema.Component] becomes a reference to the type of that name,
// converted once from the component as declared.

// Names of the types every converted schema carries, as in schemaconv.
const (
	untypedName = "__untyped_atomic_"
	deducedName = "__untyped_deduced_"
	rootName    = "__kapi_root__"

	quantityName     = "io.k8s.apimachinery.pkg.api.resource.Quantity"
	rawExtensionName = "io.k8s.apimachinery.pkg.runtime.RawExtension"
	timeName         = "io.k8s.apimachinery.pkg.apis.meta.v1.Time"
)

func strPtr(s string) *string            { return &s }
func scalarPtr(s smd.Scalar) *smd.Scalar { return &s }
func named(name string) smd.TypeRef      { return smd.TypeRef{NamedType: strPtr(name)} }
func inlined(a smd.Atom) smd.TypeRef     { return smd.TypeRef{Inlined: a} }
func scalarAtom(s smd.Scalar) smd.Atom   { return smd.Atom{Scalar: scalarPtr(s)} }

var untypedDef = smd.TypeDef{
	Name: untypedName,
	Atom: smd.Atom{
		Scalar: scalarPtr(smd.Untyped),
		List:   &smd.List{ElementType: named(untypedName), ElementRelationship: smd.Atomic},
		Map:    &smd.Map{ElementType: named(untypedName), ElementRelationship: smd.Atomic},
	},
}

var deducedDef = smd.TypeDef{
	Name: deducedName,
	Atom: smd.Atom{
		Scalar: scalarPtr(smd.Untyped),
		List:   &smd.List{ElementType: named(untypedName), ElementRelationship: smd.Atomic},
		Map:    &smd.Map{ElementType: named(deducedName), ElementRelationship: smd.Separable},
	},
}

// convertSchema converts root into an SMD schema whose type rootName is
// the object's type. The metadata of a root whose metadata is not a
// component (a CRD's) and of every embedded resource is
// schema.ObjectMeta().
func convertSchema(root *schema.Schema) (*smd.Schema, error) {
	c := &schemaConverter{queued: map[string]bool{}}
	c.out = append(c.out, smd.TypeDef{Name: rootName, Atom: c.atom(rootName, root, false, true, true)})
	for len(c.queue) > 0 {
		comp := c.queue[0]
		c.queue = c.queue[1:]
		switch comp.Name {
		case quantityName:
			// Hard-coded in schemaconv: a scalar of any type.
			c.out = append(c.out, smd.TypeDef{Name: comp.Name, Atom: scalarAtom(smd.Untyped)})
		case rawExtensionName:
			c.out = append(c.out, smd.TypeDef{Name: comp.Name, Atom: untypedDef.Atom})
		default:
			// As in schemaconv, a named type starts without inherited
			// preserve-unknown-fields.
			c.out = append(c.out, smd.TypeDef{Name: comp.Name, Atom: c.atom(comp.Name, comp.Schema, false, false, false)})
		}
	}
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("fieldmanager: converting the OpenAPI schema: %s", strings.Join(c.errs, "; "))
	}
	c.out = append(c.out, untypedDef, deducedDef)
	return &smd.Schema{Types: c.out}, nil
}

type schemaConverter struct {
	queued map[string]bool
	queue  []*schema.Component
	out    []smd.TypeDef
	errs   []string
}

func (c *schemaConverter) errorf(where, format string, args ...any) {
	c.errs = append(c.errs, where+": "+fmt.Sprintf(format, args...))
}

// component returns a reference to the named type of a component,
// converting the component once.
func (c *schemaConverter) component(comp *schema.Component) smd.TypeRef {
	if !c.queued[comp.Name] {
		c.queued[comp.Name] = true
		c.queue = append(c.queue, comp)
	}
	return named(comp.Name)
}

// ref returns the SMD type reference for a property, item or
// additionalProperties schema: a named type for a component (with the
// map-type override and nullability the referring schema gives it), else
// the type inlined. native carries apiextensions' changes (embedded
// resources) down the root's inline schemas.
func (c *schemaConverter) ref(where string, s *schema.Schema, preserve, native bool) smd.TypeRef {
	if comp := s.Component; comp != nil {
		tr := c.component(comp)
		tr.Nullable = s.Nullable
		if s.XMapType != comp.Schema.XMapType { // said beside the reference
			if rel := c.mapRelationship(where, s); rel != "" {
				tr.ElementRelationship = &rel
			}
		}
		return tr
	}
	tr := inlined(c.atom("inlined in "+where, s, preserve, native, false))
	tr.Nullable = s.Nullable
	return tr
}

// atom converts one schema node (schemaconv's visitSpec + parseSchema).
// native marks the resource's root and the schemas inlined below it,
// where apiextensions gives the root (isRoot) and every embedded resource
// kube's apiVersion, kind and metadata.
func (c *schemaConverter) atom(where string, s *schema.Schema, preserve, native, isRoot bool) smd.Atom {
	if s.XPreserveUnknownFields {
		preserve = true
	}
	typ := s.Type
	if s.XIntOrString && (s.Type != "string" || s.Format != "int-or-string") {
		// A structural int-or-string has no type (its anyOf says integer
		// or string), nor has the published IntOrString: schemaconv makes
		// it untyped. (ParseComponents marks every format int-or-string
		// so; one typed string stays what schemaconv makes of a string of
		// that format, an untyped scalar.)
		typ = ""
	}
	switch typ {
	case "":
		return smd.Atom{
			Scalar: scalarPtr(smd.Untyped),
			List:   c.list(where, s, preserve, native),
			Map:    c.object(where, s, preserve, native, isRoot),
		}
	case "object":
		return smd.Atom{Map: c.object(where, s, preserve, native, isRoot)}
	case "array":
		return smd.Atom{List: c.list(where, s, preserve, native)}
	case "integer", "number":
		return scalarAtom(smd.Numeric)
	case "boolean":
		return scalarAtom(smd.Boolean)
	case "string":
		switch s.Format {
		case "", "byte":
			return scalarAtom(smd.String)
		default: // date-time, int-or-string, ...
			return scalarAtom(smd.Untyped)
		}
	default:
		c.errorf(where, "unrecognized type: '%v'", typ)
		return scalarAtom(smd.Untyped)
	}
}

// object converts the fields of an object. In native schemas, the root
// and embedded resources get kube's apiVersion and kind (strings) and
// metadata (ObjectMeta, unless the root's metadata already is a
// component: a built-in kind's).
func (c *schemaConverter) object(where string, s *schema.Schema, preserve, native, isRoot bool) *smd.Map {
	kubeFields := native && (isRoot || s.XEmbeddedResource)
	names := s.PropertyNames()
	if kubeFields {
		for _, k := range []string{"apiVersion", "kind", "metadata"} {
			if _, ok := s.Properties[k]; !ok {
				names = append(names, k)
			}
		}
		slices.Sort(names)
	}
	fields := make([]smd.StructField, 0, len(names))
	for _, name := range names {
		member := s.Properties[name]
		f := smd.StructField{Name: name}
		switch {
		case kubeFields && (name == "apiVersion" || name == "kind"):
			f.Type = inlined(scalarAtom(smd.String))
		case kubeFields && name == "metadata" && !(isRoot && member != nil && member.Component != nil):
			f.Type = c.component(schema.ObjectMeta().Component)
		default:
			f.Type = c.ref(where+"."+name, member, preserve, native)
			f.Default = member.DefaultValue
		}
		fields = append(fields, f)
	}
	var elem smd.TypeRef
	switch ap := s.AdditionalProperties; {
	case ap == nil:
		// An object without properties is free-form; with properties, unknown
		// fields are only allowed under preserve-unknown-fields.
		if preserve || len(fields) == 0 {
			elem = named(deducedName)
		}
	case ap.Schema != nil:
		elem = c.ref(where+".additionalProperties", ap.Schema, preserve, native)
	case ap.Allows:
		elem = named(deducedName)
	}
	return &smd.Map{
		Fields:              fields,
		ElementType:         elem,
		ElementRelationship: c.mapRelationship(where, s),
	}
}

func (c *schemaConverter) mapRelationship(where string, s *schema.Schema) smd.ElementRelationship {
	switch s.XMapType {
	case "":
		return ""
	case "atomic":
		return smd.Atomic
	case "granular":
		return smd.Separable
	default:
		c.errorf(where, "unknown map type %v", s.XMapType)
		return ""
	}
}

func (c *schemaConverter) list(where string, s *schema.Schema, preserve, native bool) *smd.List {
	rel, keys := c.listRelationship(where, s)
	var elem smd.TypeRef
	if s.Items != nil {
		elem = c.ref(where+"[]", s.Items, preserve, native)
	} else {
		if s.Type != "" {
			c.errorf(where, "`items` must be specified on arrays")
		}
		elem = named(untypedName)
	}
	return &smd.List{ElementRelationship: rel, Keys: keys, ElementType: elem}
}

// listRelationship reads x-kubernetes-list-type (and -list-map-keys), or
// for built-in kinds without it the strategic-merge-patch markers
// (x-kubernetes-patch-strategy, -patch-merge-key); lists are atomic
// otherwise.
func (c *schemaConverter) listRelationship(where string, s *schema.Schema) (smd.ElementRelationship, []string) {
	switch s.XListType {
	case "":
	case "atomic":
		return smd.Atomic, nil
	case "set":
		return smd.Associative, nil
	case "map":
		if len(s.XListMapKeys) == 0 {
			c.errorf(where, "missing map keys")
			return smd.Associative, nil
		}
		return smd.Associative, s.ListMapKeys()
	default:
		c.errorf(where, "unknown list type %v", s.XListType)
		return smd.Atomic, nil
	}
	switch s.XPatchStrategy {
	case "":
		return smd.Atomic, nil
	case "merge", "merge,retainKeys":
		if s.XPatchMergeKey != "" {
			return smd.Associative, []string{s.XPatchMergeKey}
		}
		return smd.Associative, nil
	case "retainKeys":
		return smd.Atomic, nil
	default:
		c.errorf(where, "unknown patch strategy %v", s.XPatchStrategy)
		return smd.Atomic, nil
	}
}

// derivedKey names what this package derives from a parsed schema
// (schema.Schema.Derived).
type derivedKey struct{}

// derived is what every Manager of one parsed schema shares: its SMD type
// and the zero value of its kind (zero.go). Both are read-only.
type derived struct {
	typed typed.ParseableType
	zero  map[string]any
	err   error
}

// fromSchema returns what a Manager needs of its kind's schema: the SMD
// type of its objects (the deduced type kube uses for kinds without a
// schema) and its zero value. It is derived once per parsed schema.
func fromSchema(root *schema.Schema) derived {
	if root == nil {
		return derived{typed: typed.DeducedParseableType}
	}
	return root.Derived(derivedKey{}, func() any {
		s, err := convertSchema(root)
		if err != nil {
			return derived{err: err}
		}
		return derived{typed: typed.ParseableType{Schema: s, TypeRef: named(rootName)}, zero: zeroTemplate(root)}
	}).(derived)
}
