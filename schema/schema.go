package schema

import (
	"regexp"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Schema is one node of an OpenAPI v3 schema in the dialect of a
// CustomResourceDefinition's openAPIV3Schema. Build it with [Parse] (or
// [ParseWithOptions]); a parsed Schema is immutable and safe for concurrent
// use, and its sub-schemas may be shared by several parents. Read its fields
// freely; change none of them after parsing.
//
// Numbers in Default and Enum are normalized like objects: integers are
// int64, other numbers float64.
type Schema struct {
	// Type is "object", "array", "string", "integer", "number", "boolean",
	// or "" for "any type" (allowed in a structural schema only together
	// with XPreserveUnknownFields or XIntOrString).
	Type        string
	Format      string
	Title       string
	Description string
	Nullable    bool
	// DefaultValue is the "default" keyword: the value [Schema.Default]
	// applies where the field is absent; nil when there is no default (a
	// JSON null default counts as none, as in kube).
	DefaultValue any
	// Example is kept for the OpenAPI documents only.
	Example any
	Enum    []any

	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MultipleOf       *float64

	MaxLength *int64
	MinLength *int64
	Pattern   string

	MaxItems    *int64
	MinItems    *int64
	UniqueItems bool

	MaxProperties *int64
	MinProperties *int64
	Required      []string

	Properties           map[string]*Schema
	AdditionalProperties *SchemaOrBool
	Items                *Schema

	// AllOf, AnyOf, OneOf and Not are value validations only: they never
	// declare fields for pruning or defaulting (in a structural schema
	// their branches carry no type, default, or x-kubernetes extension).
	AllOf []*Schema
	AnyOf []*Schema
	OneOf []*Schema
	Not   *Schema

	XPreserveUnknownFields bool
	XIntOrString           bool
	XEmbeddedResource      bool
	XListType              string
	XListMapKeys           []string
	XMapType               string
	XPatchMergeKey         string
	XPatchStrategy         string

	// Extensions holds the other "x-…" vendor extensions as given
	// (x-kubernetes-group-version-kind, x-kubernetes-validations, …),
	// reproduced by ToOpenAPI but otherwise ignored.
	Extensions map[string]any

	// Component is set by [ParseComponents] on a node that is a named
	// component schema of an OpenAPI document, or a reference to one
	// ("$ref", or kube's allOf wrapper of one); nil for a schema written
	// in place (every CRD's). A reference's node holds the component's
	// fields with what the referring schema says beside the reference
	// (description, default, nullable, x-kubernetes-*) laid over them, so
	// navigation never looks a reference up; Component.Schema is the
	// component as declared, for consumers that keep named types apart
	// (the structured-merge-diff schema of fieldmanager).
	Component *Component

	c *compiled // derived by Parse; nil for hand-built values
}

// Component is one named schema of an OpenAPI document's components
// ("io.k8s.api.core.v1.PodSpec"), as [ParseComponents] resolved it.
type Component struct {
	Name   string
	Schema *Schema
}

// SchemaOrBool is the value of additionalProperties: `false`
// (Allows=false), `true` (Allows=true, Schema=nil) or a schema
// (Allows=true, Schema set).
type SchemaOrBool struct {
	Allows bool
	Schema *Schema
}

// compiled is what Parse derives once so that the operations need no
// per-call work: sorted property names, the compiled pattern, the type
// names the validator checks against.
type compiled struct {
	propNames []string       // sorted keys of Properties
	pattern   *regexp.Regexp // compiled Pattern
	types     []string       // types accepted by the type check ("integer","string" for int-or-string)
	typeText  string         // types joined by "," as in kube's messages
	format    string         // Format if it is one kube validates for custom resources, else ""

	defaulted []string // sorted names of the properties that have a default

	hasEmbedded  bool // this node or one below it is an embedded resource
	hasKeyedList bool // this node or one below it is a list of type set or map

	derived atomic.Pointer[sync.Map] // Derived's values, by key; nil until the first
}

func (s *Schema) comp() *compiled {
	if s.c != nil {
		return s.c
	}
	// A hand-built Schema: derive without caching (no data race).
	c := &compiled{}
	s.compileInto(c)
	return c
}

func (s *Schema) compileInto(c *compiled) {
	c.propNames = make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		c.propNames = append(c.propNames, k)
	}
	sort.Strings(c.propNames)
	for _, k := range c.propNames {
		if s.Properties[k].DefaultValue != nil {
			c.defaulted = append(c.defaulted, k)
		}
	}
	if s.Pattern != "" {
		c.pattern, _ = compilePattern(s.Pattern)
	}
	switch {
	case s.XIntOrString: // kube validates int-or-string as type [integer, string], whatever type says
		c.types = []string{"integer", "string"}
		c.typeText = "integer,string"
	case s.Type != "":
		c.types = []string{s.Type}
		c.typeText = s.Type
	}
	if s.Format != "" {
		if _, ok := formatCheckers[normalizeFormat(s.Format)]; ok {
			c.format = s.Format
		}
	}
}

// Derived returns the value build derives from s, built once and kept
// with s: a consumer that turns a parsed schema into a form of its own
// (fieldmanager's structured-merge-diff schema) asks for it through
// Derived, so the work is done once per parsed schema however many
// registrations, servers or managers ask. key names the value (a type of
// the consumer's own, as for context keys); build must depend on s alone,
// and its result must never change. Concurrent first calls may each build;
// all get the value kept. A hand-built Schema (not from a Parse function)
// keeps nothing: build runs on every call.
func (s *Schema) Derived(key any, build func() any) any {
	if s == nil || s.c == nil {
		return build()
	}
	m := s.c.derived.Load()
	if m == nil {
		s.c.derived.CompareAndSwap(nil, &sync.Map{})
		m = s.c.derived.Load()
	}
	if v, ok := m.Load(key); ok {
		return v
	}
	v, _ := m.LoadOrStore(key, build())
	return v
}

// Property returns the schema of field name in an object: the declared
// property, else the additionalProperties schema, else nil. It is nil-safe,
// so lookups chain: s.Property("spec").Property("template").
func (s *Schema) Property(name string) *Schema {
	if s == nil {
		return nil
	}
	if p, ok := s.Properties[name]; ok {
		return p
	}
	return s.AdditionalPropertiesSchema()
}

// AdditionalPropertiesSchema returns the schema of the values of a map
// (additionalProperties given as a schema), nil otherwise.
func (s *Schema) AdditionalPropertiesSchema() *Schema {
	if s == nil || s.AdditionalProperties == nil {
		return nil
	}
	return s.AdditionalProperties.Schema
}

// ItemSchema returns the schema of array items, nil when none. Nil-safe.
func (s *Schema) ItemSchema() *Schema {
	if s == nil {
		return nil
	}
	return s.Items
}

// ListType returns x-kubernetes-list-type ("atomic", "set", "map"), ""
// when unset (server-side apply treats an unset list type as atomic).
func (s *Schema) ListType() string {
	if s == nil {
		return ""
	}
	return s.XListType
}

// ListMapKeys returns x-kubernetes-list-map-keys (for list type "map").
func (s *Schema) ListMapKeys() []string {
	if s == nil {
		return nil
	}
	return slices.Clone(s.XListMapKeys)
}

// MapType returns x-kubernetes-map-type ("atomic", "granular"), "" when
// unset (granular).
func (s *Schema) MapType() string {
	if s == nil {
		return ""
	}
	return s.XMapType
}

// PatchStrategy returns x-kubernetes-patch-strategy for strategic merge
// patches ("merge", "retainKeys", "merge,retainKeys", "replace"), "" when
// unset.
func (s *Schema) PatchStrategy() string {
	if s == nil {
		return ""
	}
	return s.XPatchStrategy
}

// PatchMergeKey returns x-kubernetes-patch-merge-key, "" when unset.
func (s *Schema) PatchMergeKey() string {
	if s == nil {
		return ""
	}
	return s.XPatchMergeKey
}

// PreservesUnknownFields reports x-kubernetes-preserve-unknown-fields.
func (s *Schema) PreservesUnknownFields() bool { return s != nil && s.XPreserveUnknownFields }

// IsEmbeddedResource reports x-kubernetes-embedded-resource: the object is
// a whole Kubernetes object whose apiVersion, kind and metadata are always
// kept.
func (s *Schema) IsEmbeddedResource() bool { return s != nil && s.XEmbeddedResource }

// IsIntOrString reports x-kubernetes-int-or-string.
func (s *Schema) IsIntOrString() bool { return s != nil && s.XIntOrString }

// PropertyNames returns the declared property names, sorted.
func (s *Schema) PropertyNames() []string {
	if s == nil {
		return nil
	}
	return slices.Clone(s.comp().propNames)
}
