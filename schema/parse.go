package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// ParseOptions tune [ParseWithOptions]. The zero value parses a CRD's
// openAPIV3Schema with every check kube-apiserver applies to a new v1 CRD.
type ParseOptions struct {
	// FieldPath prefixes the paths of the returned field errors, e.g.
	// "spec.versions[0].schema.openAPIV3Schema" (kube-apiserver reports
	// "spec.validation.openAPIV3Schema" when every version has the same
	// schema). Empty: paths are relative ("properties[spec].type").
	FieldPath string
	// StructPath prefixes the Go-struct path in a [DecodeError]'s message,
	// e.g. "spec.versions.schema.openAPIV3Schema".
	StructPath string
	// NonStructural accepts any OpenAPI v3 schema whose $refs are already
	// resolved, such as kube-apiserver's published schemas of built-in
	// kinds: only the shape of each keyword and the patterns are checked.
	NonStructural bool
	// StatusSubresource applies the extra root restrictions kube has when
	// the CRD version enables the status subresource.
	StatusSubresource bool
	// Validated skips the CRD rules for a schema already checked when its
	// CRD was written (a stored CRD read again): it is only decoded and
	// compiled.
	Validated bool
}

// Parse reads a CRD's openAPIV3Schema (JSON-shaped: maps, slices, strings,
// bools, numbers) and checks it as kube-apiserver checks a v1 CRD: the
// structural-schema rules, the OpenAPI rules of CRDs (no $ref, no
// uniqueItems, list/map type extensions...), regular expressions, and
// defaults (pruned, valid against their schema). Errors are
// [meta.FieldErrors] worded as kube's (paths relative to the schema, see
// [ParseOptions.FieldPath]) or a *[DecodeError] when a keyword has the
// wrong JSON type (kube answers that one with 400 while decoding).
func Parse(openAPIV3Schema any) (*Schema, error) {
	s, _, err := ParseWithOptions(openAPIV3Schema, ParseOptions{})
	return s, err
}

// ParseWithOptions is [Parse] with options. It also returns the paths of
// the keywords it does not know (relative, dotted, e.g.
// "properties.spec.foo"), for which kube-apiserver warns
// `unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.foo"`.
func ParseWithOptions(v any, opts ParseOptions) (*Schema, []string, error) {
	d := &decoder{opts: opts, info: map[*Schema]*nodeInfo{}}
	root := d.schema(v, "", "")
	sort.Strings(d.unknown)
	if d.decodeErr != nil {
		d.decodeErr.prefix = opts.StructPath
		return nil, d.unknown, d.decodeErr
	}
	var errs meta.FieldErrors
	switch {
	case opts.Validated:
	case opts.NonStructural:
		errs = d.patternErrors(root, opts.FieldPath)
	default:
		errs = d.crdErrors(root, opts)
	}
	if len(errs) > 0 {
		return nil, d.unknown, errs
	}
	if root.c == nil { // the CRD rules compile a structural schema to check its defaults
		compileTree(root, map[*Schema]bool{})
	}
	pruneDefaults(root)
	return root, d.unknown, nil
}

// MustParse is [Parse] for schemas known to be valid (tests, built-ins); it
// panics on error.
func MustParse(openAPIV3Schema any) *Schema {
	s, err := Parse(openAPIV3Schema)
	if err != nil {
		panic(err)
	}
	return s
}

// DecodeError reports a keyword whose value has the wrong JSON type, worded
// as the JSON decoding error kube-apiserver answers with (400 BadRequest,
// "... cannot be handled as a CustomResourceDefinition: <this message>").
type DecodeError struct {
	// Path is the Go struct path of the keyword, e.g. "properties.type".
	Path string
	// Value is the JSON type found ("number", "string", "bool", "array", "object").
	Value string
	// Type is the Go type kube decodes the keyword into ("string", "int64", "[]string", ...).
	Type   string
	prefix string
}

func (e *DecodeError) Error() string {
	p := e.Path
	if e.prefix != "" {
		p = joinDot(e.prefix, p)
	}
	if p == "" {
		return fmt.Sprintf("json: cannot unmarshal %s into Go value of type %s", e.Value, e.Type)
	}
	return fmt.Sprintf("json: cannot unmarshal %s into Go struct field JSONSchemaProps.%s of type %s", e.Value, p, e.Type)
}

// nodeInfo is what the CRD checks need to know about how a node was
// written, beyond what Schema keeps.
type nodeInfo struct {
	ref, id, additionalItems, patternProperties, definitions, dependencies bool
	dollarSchema                                                           bool // $schema
	itemsArray                                                             bool
	preserveFalse                                                          bool // x-kubernetes-preserve-unknown-fields: false
	hasDefault                                                             bool // default given (even null)
	nullDefault                                                            bool
	typeGiven                                                              bool
	xValidations                                                           bool
	additionalPropsBool                                                    bool // additionalProperties given as a boolean
}

type decoder struct {
	opts      ParseOptions
	unknown   []string
	decodeErr *DecodeError
	info      map[*Schema]*nodeInfo
	refs      map[*Schema]string // $ref of each node, when parsing components
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "bool"
	case map[string]any, meta.Object:
		return "object"
	case []any:
		return "array"
	default:
		if _, ok := number(v); ok {
			return "number"
		}
		return fmt.Sprintf("%T", v)
	}
}

func (d *decoder) fail(goPath string, v any, typ string) {
	if d.decodeErr == nil {
		d.decodeErr = &DecodeError{Path: goPath, Value: jsonKind(v), Type: typ}
	}
}

// keyPath is a path and a key, joined (joinDot) only when a message or a
// child needs it: the decoder visits every keyword of every node.
type keyPath struct{ parent, key string }

func (k keyPath) String() string { return joinDot(k.parent, k.key) }

func joinDot(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// schema decodes one schema object. jsonPath is the strict-decoding path
// used for unknown-field warnings, goPath the Go struct path of decode
// errors.
func (d *decoder) schema(v any, jsonPath, goPath string) *Schema {
	m, ok := meta.AsMap(v)
	if !ok {
		if v == nil {
			return &Schema{}
		}
		t := "v1.JSONSchemaProps"
		d.fail(goPath, v, t)
		return &Schema{}
	}
	s := &Schema{}
	info := &nodeInfo{}
	d.info[s] = info
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		val := m[k]
		kp, jp := keyPath{goPath, k}, keyPath{jsonPath, k} // joined only when used
		switch k {
		case "type":
			info.typeGiven = val != nil
			s.Type = d.str(val, kp)
		case "format":
			s.Format = d.str(val, kp)
		case "title":
			s.Title = d.str(val, kp)
		case "description":
			s.Description = d.str(val, kp)
		case "pattern":
			s.Pattern = d.str(val, kp)
		case "nullable":
			s.Nullable = d.boolean(val, kp)
		case "uniqueItems":
			s.UniqueItems = d.boolean(val, kp)
		case "exclusiveMaximum":
			s.ExclusiveMaximum = d.boolean(val, kp)
		case "exclusiveMinimum":
			s.ExclusiveMinimum = d.boolean(val, kp)
		case "x-kubernetes-preserve-unknown-fields":
			if val != nil {
				s.XPreserveUnknownFields = d.boolean(val, kp)
				info.preserveFalse = !s.XPreserveUnknownFields
			}
		case "x-kubernetes-int-or-string":
			s.XIntOrString = d.boolean(val, kp)
		case "x-kubernetes-embedded-resource":
			s.XEmbeddedResource = d.boolean(val, kp)
		case "x-kubernetes-list-type":
			s.XListType = d.str(val, kp)
		case "x-kubernetes-map-type":
			s.XMapType = d.str(val, kp)
		case "x-kubernetes-list-map-keys":
			s.XListMapKeys = d.strings(val, kp)
		case "x-kubernetes-patch-merge-key":
			s.XPatchMergeKey = d.str(val, kp)
		case "x-kubernetes-patch-strategy":
			s.XPatchStrategy = d.str(val, kp)
		case "maximum":
			s.Maximum = d.float(val, kp)
		case "minimum":
			s.Minimum = d.float(val, kp)
		case "multipleOf":
			s.MultipleOf = d.float(val, kp)
		case "maxLength":
			s.MaxLength = d.int(val, kp)
		case "minLength":
			s.MinLength = d.int(val, kp)
		case "maxItems":
			s.MaxItems = d.int(val, kp)
		case "minItems":
			s.MinItems = d.int(val, kp)
		case "maxProperties":
			s.MaxProperties = d.int(val, kp)
		case "minProperties":
			s.MinProperties = d.int(val, kp)
		case "required":
			s.Required = d.strings(val, kp)
		case "enum":
			if val == nil {
				continue
			}
			list, ok := val.([]any)
			if !ok {
				d.fail(kp.String(), val, "[]v1.JSON")
				continue
			}
			s.Enum = make([]any, len(list))
			for i, e := range list {
				s.Enum[i] = normalizeJSON(e)
			}
		case "default":
			info.hasDefault = true
			info.nullDefault = val == nil
			s.DefaultValue = normalizeJSON(val)
		case "example":
			s.Example = normalizeJSON(val)
		case "properties":
			if val == nil {
				continue
			}
			pm, ok := meta.AsMap(val)
			if !ok {
				d.fail(kp.String(), val, "map[string]v1.JSONSchemaProps")
				continue
			}
			s.Properties = make(map[string]*Schema, len(pm))
			jps, kps := jp.String()+".", kp.String()
			for name, pv := range pm {
				s.Properties[name] = d.schema(pv, jps+name, kps)
			}
		case "additionalProperties":
			switch a := val.(type) {
			case nil:
			case bool:
				info.additionalPropsBool = true
				s.AdditionalProperties = &SchemaOrBool{Allows: a}
			default:
				if _, ok := meta.AsMap(val); !ok {
					d.fail(kp.String(), val, "v1.JSONSchemaPropsOrBool")
					continue
				}
				s.AdditionalProperties = &SchemaOrBool{Allows: true, Schema: d.schema(val, jp.String(), kp.String())}
			}
		case "items":
			switch it := val.(type) {
			case nil:
			case []any:
				info.itemsArray = true
				for i, e := range it {
					d.schema(e, fmt.Sprintf("%s[%d]", jp, i), kp.String())
				}
			default:
				if _, ok := meta.AsMap(val); !ok {
					d.fail(kp.String(), val, "v1.JSONSchemaPropsOrArray")
					continue
				}
				s.Items = d.schema(val, jp.String(), kp.String())
			}
		case "allOf", "anyOf", "oneOf":
			if val == nil {
				continue
			}
			list, ok := val.([]any)
			if !ok {
				d.fail(kp.String(), val, "[]v1.JSONSchemaProps")
				continue
			}
			subs := make([]*Schema, len(list))
			for i, e := range list {
				subs[i] = d.schema(e, fmt.Sprintf("%s[%d]", jp, i), kp.String())
			}
			switch k {
			case "allOf":
				s.AllOf = subs
			case "anyOf":
				s.AnyOf = subs
			default:
				s.OneOf = subs
			}
		case "not":
			if val != nil {
				s.Not = d.schema(val, jp.String(), kp.String())
			}
		case "$ref":
			info.ref = val != nil
			if ref, ok := val.(string); ok && d.refs != nil {
				d.refs[s] = ref
			}
		case "id":
			info.id = val != nil && val != ""
		case "additionalItems":
			info.additionalItems = val != nil
		case "patternProperties":
			pm, _ := meta.AsMap(val)
			info.patternProperties = len(pm) > 0
		case "definitions":
			pm, _ := meta.AsMap(val)
			info.definitions = len(pm) > 0
		case "dependencies":
			info.dependencies = val != nil
		case "$schema":
			info.dollarSchema = val != nil && val != ""
		case "externalDocs":
			// Accepted by kube, without effect on validation.
		case "x-kubernetes-validations":
			info.xValidations = val != nil
			d.extension(s, k, val)
		default:
			if strings.HasPrefix(k, "x-") {
				d.extension(s, k, val)
				continue
			}
			d.unknown = append(d.unknown, jp.String())
		}
	}
	return s
}

func (d *decoder) extension(s *Schema, k string, v any) {
	if s.Extensions == nil {
		s.Extensions = map[string]any{}
	}
	s.Extensions[k] = normalizeJSON(v)
}

func (d *decoder) str(v any, path keyPath) string {
	switch s := v.(type) {
	case nil:
		return ""
	case string:
		return s
	}
	d.fail(path.String(), v, "string")
	return ""
}

func (d *decoder) boolean(v any, path keyPath) bool {
	switch b := v.(type) {
	case nil:
		return false
	case bool:
		return b
	}
	d.fail(path.String(), v, "bool")
	return false
}

func (d *decoder) float(v any, path keyPath) *float64 {
	if v == nil {
		return nil
	}
	n, ok := number(v)
	if !ok {
		d.fail(path.String(), v, "float64")
		return nil
	}
	f := n.float()
	return &f
}

func (d *decoder) int(v any, path keyPath) *int64 {
	if v == nil {
		return nil
	}
	n, ok := number(v)
	if !ok || !n.isInt {
		d.fail(path.String(), v, "int64")
		return nil
	}
	i := n.i
	return &i
}

func (d *decoder) strings(v any, path keyPath) []string {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		if ss, ok := v.([]string); ok {
			return append([]string(nil), ss...)
		}
		d.fail(path.String(), v, "[]string")
		return nil
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			d.fail(path.String(), e, "string")
			return nil
		}
		out = append(out, s)
	}
	return out
}

// num is a JSON number: an int64 when it is integral and fits, else a
// float64.
type num struct {
	isInt bool
	i     int64
	f     float64
}

func (n num) float() float64 {
	if n.isInt {
		return float64(n.i)
	}
	return n.f
}

// number reads any numeric representation a JSON decoder may produce.
func number(v any) (num, bool) {
	switch n := v.(type) {
	case int64:
		return num{isInt: true, i: n}, true
	case int:
		return num{isInt: true, i: int64(n)}, true
	case int32:
		return num{isInt: true, i: int64(n)}, true
	case float64:
		if i, ok := integralFloat(n); ok {
			return num{isInt: true, i: i}, true
		}
		return num{f: n}, true
	case float32:
		return number(float64(n))
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return num{isInt: true, i: i}, true
		}
		f, err := n.Float64()
		if err != nil {
			return num{}, false
		}
		return num{f: f}, true
	}
	return num{}, false
}

func integralFloat(f float64) (int64, bool) {
	if f != math.Trunc(f) || math.IsInf(f, 0) || f < -9.223372036854775e18 || f >= 9.223372036854775e18 {
		return 0, false
	}
	return int64(f), true
}

// normalizeJSON deep-copies a JSON value, turning every integral number
// into int64 and every other number into float64, as kube's JSON decoding
// of schema values does.
func normalizeJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = normalizeJSON(e)
		}
		return out
	case meta.Object:
		return normalizeJSON(map[string]any(t))
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalizeJSON(e)
		}
		return out
	case nil, string, bool:
		return t
	}
	if n, ok := number(v); ok {
		if n.isInt {
			return n.i
		}
		return n.f
	}
	return v
}

// compileTree fills the derived data of every node, children first.
func compileTree(s *Schema, seen map[*Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	c := &compiled{}
	s.compileInto(c)
	c.hasEmbedded = s.XEmbeddedResource
	c.hasKeyedList = s.XListType == "set" || s.XListType == "map"
	below := func(n *Schema) {
		if n == nil {
			return
		}
		compileTree(n, seen)
		if n.c == nil { // a cycle: be conservative
			c.hasEmbedded, c.hasKeyedList = true, true
			return
		}
		c.hasEmbedded = c.hasEmbedded || n.c.hasEmbedded
		c.hasKeyedList = c.hasKeyedList || n.c.hasKeyedList
	}
	for _, p := range s.Properties {
		below(p)
	}
	if s.AdditionalProperties != nil {
		below(s.AdditionalProperties.Schema)
	}
	below(s.Items)
	for _, list := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
		for _, b := range list {
			compileTree(b, seen)
		}
	}
	compileTree(s.Not, seen)
	s.c = c
}

// withoutListChecks turns off Validate's uniqueness checks of list-type
// set and map items below s (the navigation methods still report the list
// types): for kube's published schemas of built-in kinds, which kube
// validates with Go code that allows, for example, duplicate finalizers.
func withoutListChecks(s *Schema, seen map[*Schema]bool) {
	if s == nil || seen[s] {
		return
	}
	seen[s] = true
	if s.c != nil {
		s.c.hasKeyedList = false
	}
	for _, p := range s.Properties {
		withoutListChecks(p, seen)
	}
	withoutListChecks(s.AdditionalPropertiesSchema(), seen)
	withoutListChecks(s.Items, seen)
}

// pruneDefaults drops from each default the fields its schema does not
// declare, as kube does once when it loads a CRD (a v1 CRD with unpruned
// defaults is rejected by Parse; this matters for NonStructural schemas).
func pruneDefaults(s *Schema) {
	walkStructural(s, func(n *Schema) {
		if n.DefaultValue == nil {
			return
		}
		switch n.DefaultValue.(type) {
		case map[string]any, []any:
			pruneValue(n.DefaultValue, n, n.XEmbeddedResource, nil)
		}
	})
}

// walkStructural calls f on every node reachable through properties,
// additionalProperties and items (not through allOf/anyOf/oneOf/not),
// once each.
func walkStructural(s *Schema, f func(*Schema)) {
	seen := map[*Schema]bool{}
	var walk func(*Schema)
	walk = func(n *Schema) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		f(n)
		for _, k := range n.comp().propNames {
			walk(n.Properties[k])
		}
		walk(n.AdditionalPropertiesSchema())
		walk(n.Items)
	}
	walk(s)
}

func quoteList(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
