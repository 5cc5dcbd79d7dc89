package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/kapi-dev/kapi/meta"
)

// Validate checks obj, a whole object, against the schema and returns one
// field error per problem, worded as kube-apiserver's validation of custom
// resources (k8s.io/kube-openapi's validator as mapped by
// apiextensions-apiserver), e.g.
//
//	spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"
//	spec.name: Too long: may not be more than 5 bytes
//	spec.color: Unsupported value: "blue": supported values: "red", "green"
//	spec.items[2].name: Required value
//	spec.ports[1]: Duplicate value: map[string]interface {}{"name":"http"}
//
// The order is deterministic: the schema errors of a node in kube's
// validator order (type, allOf/anyOf/oneOf/not, string, format, number,
// array, enum, object), properties by name, then the checks of embedded
// resources, then the uniqueness of list-type set and map items, as kube
// appends them. Run it after [Schema.Prune] and [Schema.Default]. At the
// root of a resource only the metadata constraints the schema declares
// apply (for a CRD: metadata.name and generateName); apiVersion, kind and
// ObjectMeta are the server's business.
func (s *Schema) Validate(obj map[string]any) meta.FieldErrors {
	return s.ValidateValue(obj, "")
}

// ValidateValue validates any JSON value against the schema. fieldPath
// prefixes the field of every error (e.g. "status" when validating the
// status of a status-subresource write, or a default's path) while the
// messages keep paths relative to the value, as kube's do:
// `status.phase: Invalid value: "integer": phase in body must be of type string: "integer"`.
func (s *Schema) ValidateValue(v any, fieldPath string) meta.FieldErrors {
	if s == nil {
		return nil
	}
	vd := validator{prefix: fieldPath, path: make([]byte, 0, 128)}
	vd.node(s, v)
	vd.embedded(s, v, fieldPath)
	vd.lists(s, v, fieldPath)
	return vd.errs
}

type validator struct {
	prefix string
	errs   meta.FieldErrors
	path   []byte // kube-openapi's Name of the current value
}

// field maps a kube-openapi Name to the error's field the way
// apiextensions-apiserver does (a nil field path prints as "<nil>").
func (vd *validator) field(name string) string {
	if len(name) > 0 && name[0] == '.' {
		name = name[1:]
	}
	switch {
	case name != "":
		return joinDot(vd.prefix, name)
	case vd.prefix != "":
		return vd.prefix
	}
	return "<nil>"
}

func (vd *validator) name() string { return string(vd.path) }

func (vd *validator) add(t meta.ErrorType, name string, value any, detail string) {
	vd.errs = append(vd.errs, meta.FieldError{Type: t, Field: vd.field(name), Value: value, Detail: detail})
}

// typeInvalid is kube-openapi's InvalidType with a string value.
func (vd *validator) typeInvalid(typeName, value string) {
	n := vd.name()
	vd.add(meta.ErrorTypeInvalid, n, value, fmt.Sprintf("%s in body must be of type %s: %q", n, typeName, value))
}

// invalid is the default mapping: Invalid value: <value>: <message>.
func (vd *validator) invalid(name string, value any, msg string) {
	if value == nil {
		value = ""
	}
	vd.add(meta.ErrorInvalid, name, value, msg)
}

// composite is an anyOf/oneOf/allOf/not failure: kube reports it as a
// plain error on the root field path.
func (vd *validator) composite(msg string) {
	vd.errs = append(vd.errs, meta.FieldError{Type: meta.ErrorInvalid, Field: vd.field(""), Value: "", Detail: msg})
}

func (vd *validator) pushChild(name string) int {
	n := len(vd.path)
	if n > 0 {
		vd.path = append(vd.path, '.')
	}
	vd.path = append(vd.path, name...)
	return n
}

func (vd *validator) pushKey(name string) int {
	n := len(vd.path)
	vd.path = append(vd.path, '.')
	vd.path = append(vd.path, name...)
	return n
}

func (vd *validator) pushIndex(i int) int {
	n := len(vd.path)
	vd.path = append(vd.path, '[')
	vd.path = strconv.AppendInt(vd.path, int64(i), 10)
	vd.path = append(vd.path, ']')
	return n
}

func (vd *validator) pop(n int) { vd.path = vd.path[:n] }

// valueKind is kube-openapi's view of a Go value: its JSON schema type and
// the format it implies.
type valueKind int

const (
	kindNull valueKind = iota
	kindBool
	kindString
	kindInt
	kindFloat
	kindArray
	kindObject
	kindOther
)

func kindOf(v any) valueKind {
	switch v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBool
	case string:
		return kindString
	case int64, int, int32, json.Number:
		if n, ok := number(v); ok && !n.isInt {
			return kindFloat
		}
		return kindInt
	case float64, float32:
		return kindFloat
	case []any:
		return kindArray
	case map[string]any, meta.Object:
		return kindObject
	}
	return kindOther
}

func (k valueKind) schemaType() (string, string) {
	switch k {
	case kindBool:
		return "boolean", ""
	case kindString:
		return "string", ""
	case kindInt:
		return "integer", "int64"
	case kindFloat:
		return "number", "float64"
	case kindArray:
		return "array", ""
	case kindObject:
		return "object", ""
	}
	return "", ""
}

func asFloat(v any) float64 {
	n, _ := number(v)
	return n.float()
}

func asInt(v any) int64 {
	n, _ := number(v)
	if n.isInt {
		return n.i
	}
	return int64(n.f)
}

// isJSONInteger is go-openapi's IsFloat64AJSONInteger: integral (within
// a relative error of 1e-9) and within ±(2^53-1).
func isJSONInteger(f float64) bool {
	const maxJSON = float64(1<<53 - 1)
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSON || f > maxJSON {
		return false
	}
	g := math.Round(f)
	if f == g {
		return true
	}
	diff := math.Abs(f - g)
	return diff/math.Min(math.Abs(f)+math.Abs(g), math.MaxFloat64) < 1e-9
}

// node validates v against s at the current path.
func (vd *validator) node(s *Schema, v any) {
	c := s.comp()
	k := kindOf(v)
	if k == kindNull {
		if len(c.types) > 0 && !s.Nullable {
			vd.typeInvalid(c.typeText, "null")
		}
		vd.enum(s, v)
		return
	}
	vd.typeCheck(s, c, k, v)
	vd.schemaProps(s, v)
	if k == kindString {
		vd.stringChecks(s, c, v.(string))
		if c.format != "" && !formatCheckers[normalizeFormat(c.format)](v.(string)) {
			vd.typeInvalid(c.format, v.(string))
		}
	}
	if k == kindInt || k == kindFloat {
		vd.numberChecks(s, k, v)
	}
	if k == kindArray {
		vd.arrayChecks(s, v.([]any))
	}
	vd.enum(s, v)
	if k == kindObject {
		m, _ := meta.AsMap(v)
		vd.objectChecks(s, c, m)
	}
}

func (vd *validator) typeCheck(s *Schema, c *compiled, k valueKind, v any) {
	if len(c.types) == 0 && c.format == "" {
		return
	}
	schType, format := k.schemaType()
	contains := func(t string) bool { return slices.Contains(c.types, t) }
	isFloatInt := k == kindFloat && contains("integer") && isJSONInteger(asFloat(v))
	isIntFloat := k == kindInt && contains("number")
	if k != kindString && k != kindArray && c.format != "" &&
		!(contains(schType) || format == c.format || isFloatInt || isIntFloat) {
		vd.typeInvalid(c.format, format)
		return
	}
	if !(contains("number") || contains("integer")) && c.format != "" && (k == kindString || k == kindArray) {
		return
	}
	if len(c.types) > 0 && !(contains(schType) || isFloatInt || isIntFloat) {
		vd.typeInvalid(c.typeText, schType)
	}
}

// branch validates v against sub-schema b at the current path and returns
// its errors without keeping them.
func (vd *validator) branch(b *Schema, v any) meta.FieldErrors {
	saved := vd.errs
	vd.errs = nil
	vd.node(b, v)
	got := vd.errs
	vd.errs = saved
	return got
}

func (vd *validator) schemaProps(s *Schema, v any) {
	if len(s.AnyOf) > 0 {
		var best meta.FieldErrors
		ok := false
		for i, b := range s.AnyOf {
			errs := vd.branch(b, v)
			if len(errs) == 0 {
				ok = true
				break
			}
			if i == 0 || len(errs) < len(best) {
				best = errs
			}
		}
		if !ok {
			vd.composite(fmt.Sprintf("%q must validate at least one schema (anyOf)", vd.name()))
			vd.errs = append(vd.errs, best...)
		}
	}
	if len(s.OneOf) > 0 {
		var best meta.FieldErrors
		valid := 0
		for i, b := range s.OneOf {
			errs := vd.branch(b, v)
			if len(errs) == 0 {
				valid++
				continue
			}
			if valid == 0 && (i == 0 || best == nil || len(errs) < len(best)) {
				best = errs
			}
		}
		if valid != 1 {
			more := "Found none valid"
			if valid > 0 {
				more = fmt.Sprintf("Found %d valid alternatives", valid)
				best = nil
			}
			vd.composite(fmt.Sprintf("%q must validate one and only one schema (oneOf). %s", vd.name(), more))
			vd.errs = append(vd.errs, best...)
		}
	}
	if len(s.AllOf) > 0 {
		valid := 0
		for _, b := range s.AllOf {
			errs := vd.branch(b, v)
			if len(errs) == 0 {
				valid++
			}
			vd.errs = append(vd.errs, errs...)
		}
		if valid != len(s.AllOf) {
			more := ""
			if valid == 0 {
				more = ". None validated"
			}
			vd.composite(fmt.Sprintf("%q must validate all the schemas (allOf)%s", vd.name(), more))
		}
	}
	if s.Not != nil && len(vd.branch(s.Not, v)) == 0 {
		vd.composite(fmt.Sprintf("%q must not validate the schema (not)", vd.name()))
	}
}

func (vd *validator) stringChecks(s *Schema, c *compiled, str string) {
	if s.MaxLength != nil && int64(utf8.RuneCountInString(str)) > *s.MaxLength {
		vd.add(meta.ErrorTooLong, vd.name(), meta.NoValue, fmt.Sprintf("may not be more than %d bytes", *s.MaxLength))
		return
	}
	if s.MinLength != nil && int64(utf8.RuneCountInString(str)) < *s.MinLength {
		n := vd.name()
		vd.invalid(n, str, fmt.Sprintf("%s in body should be at least %d chars long", n, *s.MinLength))
		return
	}
	if s.Pattern != "" {
		re := c.pattern
		if re == nil {
			n := vd.name()
			vd.invalid(n, str, fmt.Sprintf("%s in body should match '%s, but pattern is invalid'", n, s.Pattern))
			return
		}
		if !re.MatchString(str) {
			n := vd.name()
			vd.invalid(n, str, fmt.Sprintf("%s in body should match '%s'", n, s.Pattern))
		}
	}
}

// numberChecks ports kube-openapi's numberValidator (kube 1.33 checks no
// range for int32/int64 formats): integer values are compared with the
// bounds truncated to integers, as kube does.
func (vd *validator) numberChecks(s *Schema, k valueKind, v any) {
	if s.MultipleOf != nil {
		f := *s.MultipleOf
		if k == kindInt {
			factor := int64(f)
			data := asInt(v)
			if factor <= 0 {
				n := vd.name()
				vd.invalid(n, factor, fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", n, factor))
			} else if data%factor != 0 {
				n := vd.name()
				vd.invalid(n, data, fmt.Sprintf("%s in body should be a multiple of %v", n, factor))
			}
		} else {
			data := asFloat(v)
			if f <= 0 {
				n := vd.name()
				vd.invalid(n, f, fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", n, f))
			} else {
				mult := data / f
				if f < 1 {
					mult = 1 / f * data
				}
				if !isJSONInteger(mult) {
					n := vd.name()
					vd.invalid(n, data, fmt.Sprintf("%s in body should be a multiple of %v", n, f))
				}
			}
		}
	}
	if s.Minimum != nil {
		vd.bound(k, v, *s.Minimum, s.ExclusiveMinimum, false)
	}
	if s.Maximum != nil {
		vd.bound(k, v, *s.Maximum, s.ExclusiveMaximum, true)
	}
}

func (vd *validator) bound(k valueKind, v any, limit float64, exclusive, isMax bool) {
	var fails bool
	var shown any
	var value any
	if k == kindInt {
		data, l := asInt(v), int64(limit)
		value, shown = data, l
		if isMax {
			fails = (!exclusive && data > l) || (exclusive && data >= l)
		} else {
			fails = (!exclusive && data < l) || (exclusive && data <= l)
		}
	} else {
		data := asFloat(v)
		value, shown = data, limit
		if isMax {
			fails = (!exclusive && data > limit) || (exclusive && data >= limit)
		} else {
			fails = (!exclusive && data < limit) || (exclusive && data <= limit)
		}
	}
	if !fails {
		return
	}
	var rel string
	switch {
	case isMax && exclusive:
		rel = "less than"
	case isMax:
		rel = "less than or equal to"
	case exclusive:
		rel = "greater than"
	default:
		rel = "greater than or equal to"
	}
	n := vd.name()
	vd.invalid(n, value, fmt.Sprintf("%s in body should be %s %v", n, rel, shown))
}

func (vd *validator) arrayChecks(s *Schema, list []any) {
	if s.Items != nil {
		for i, e := range list {
			p := vd.pushIndex(i)
			vd.node(s.Items, e)
			vd.pop(p)
		}
	}
	size := int64(len(list))
	if s.MinItems != nil && size < *s.MinItems {
		n := vd.name()
		vd.invalid(n, size, fmt.Sprintf("%s in body should have at least %d items", n, *s.MinItems))
	}
	if s.MaxItems != nil && size > *s.MaxItems {
		vd.add(meta.ErrorTooMany, vd.name(), int(size), fmt.Sprintf("must have at most %d items", *s.MaxItems))
	}
	if s.UniqueItems && hasDuplicates(list) {
		n := vd.name()
		vd.invalid(n, "", fmt.Sprintf("%s in body shouldn't contain duplicates", n))
	}
}

// hasDuplicates compares items by their canonical JSON, in O(n).
func hasDuplicates(list []any) bool {
	seen := make(map[string]struct{}, len(list))
	for _, e := range list {
		k := canonicalKey(e)
		if _, dup := seen[k]; dup {
			return true
		}
		seen[k] = struct{}{}
	}
	return false
}

// canonicalKey is a string that is equal for deeply equal JSON values of
// the same Go types (int64 1 and float64 1 differ, as with DeepEqual).
func canonicalKey(v any) string {
	switch t := v.(type) {
	case string:
		return "s" + t
	case bool:
		if t {
			return "t"
		}
		return "f"
	case nil:
		return "n"
	case int64:
		return "i" + strconv.FormatInt(t, 10)
	case float64:
		return "d" + strconv.FormatFloat(t, 'g', -1, 64)
	}
	b, err := json.Marshal(typedJSON(v))
	if err != nil {
		return fmt.Sprintf("?%p", &v)
	}
	return "j" + string(b)
}

// typedJSON tags numbers with their Go type so that canonical JSON keeps
// int64 and float64 apart.
func typedJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = typedJSON(e)
		}
		return out
	case meta.Object:
		return typedJSON(map[string]any(t))
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = typedJSON(e)
		}
		return out
	case float64:
		return map[string]any{"$f": strconv.FormatFloat(t, 'g', -1, 64)}
	}
	return v
}

// enum ports kube-openapi's basicCommonValidator: a value matches an enum
// value when converting it to the enum value's Go type gives an equal
// value (so 1.0 matches 1, and null never matches).
func (vd *validator) enum(s *Schema, v any) {
	if len(s.Enum) == 0 {
		return
	}
	for _, e := range s.Enum {
		if enumMatches(v, e) {
			return
		}
	}
	values := make([]string, len(s.Enum))
	for i, e := range s.Enum {
		if str, ok := e.(string); ok {
			values[i] = str
		} else {
			b, _ := json.Marshal(e)
			values[i] = string(b)
		}
	}
	var bad any = v
	if v == nil {
		bad = "null"
	}
	vd.add(meta.ErrorNotSupported, vd.name(), bad, "supported values: "+quoteList(values))
}

func enumMatches(v, e any) bool {
	if v == nil || e == nil {
		return false
	}
	switch ev := e.(type) {
	case string:
		switch t := v.(type) {
		case string:
			return t == ev
		case int64:
			return string(rune(t)) == ev // Go's int→string conversion, as reflect.Convert does
		}
	case int64:
		switch kindOf(v) {
		case kindInt:
			return asInt(v) == ev
		case kindFloat:
			return int64(asFloat(v)) == ev
		}
	case float64:
		switch kindOf(v) {
		case kindInt:
			return float64(asInt(v)) == ev
		case kindFloat:
			return asFloat(v) == ev
		}
	case bool:
		b, ok := v.(bool)
		return ok && b == ev
	case map[string]any, []any:
		switch v.(type) {
		case map[string]any, []any, meta.Object:
			return canonicalKey(normalizeJSON(v)) == canonicalKey(e)
		}
	}
	return false
}

func (vd *validator) objectChecks(s *Schema, c *compiled, m map[string]any) {
	size := int64(len(m))
	if s.MinProperties != nil && size < *s.MinProperties {
		n := vd.name()
		vd.invalid(n, size, fmt.Sprintf("%s in body should have at least %d properties", n, *s.MinProperties))
	}
	if s.MaxProperties != nil && size > *s.MaxProperties {
		vd.add(meta.ErrorTooMany, vd.name(), int(size), fmt.Sprintf("must have at most %d items", *s.MaxProperties))
	}
	var buf [16]string
	ap := s.AdditionalProperties
	if ap != nil && (!ap.Allows || ap.Schema != nil) {
		extra := buf[:0]
		for k := range m {
			if _, declared := s.Properties[k]; !declared {
				extra = append(extra, k)
			}
		}
		slices.Sort(extra)
		for _, k := range extra {
			if !ap.Allows {
				n := vd.name()
				vd.invalid(n, k, fmt.Sprintf("%s.%s in body is a forbidden property", n, k))
				continue
			}
			p := vd.pushKey(k)
			vd.node(ap.Schema, m[k])
			vd.pop(p)
		}
	}
	// Declared properties by name: walk whichever is smaller, the object
	// (sorted) or the schema's sorted names, so the cost follows the data.
	if len(m) < len(c.propNames) {
		present := buf[:0]
		for k := range m {
			if _, declared := s.Properties[k]; declared {
				present = append(present, k)
			}
		}
		slices.Sort(present)
		for _, k := range present {
			p := vd.pushChild(k)
			vd.node(s.Properties[k], m[k])
			vd.pop(p)
		}
	} else {
		for _, k := range c.propNames {
			if v, ok := m[k]; ok {
				p := vd.pushChild(k)
				vd.node(s.Properties[k], v)
				vd.pop(p)
			}
		}
	}
	for _, k := range s.Required {
		if _, ok := m[k]; !ok {
			vd.add(meta.ErrorRequired, vd.name()+"."+k, nil, "")
		}
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
