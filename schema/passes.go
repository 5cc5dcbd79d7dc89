package schema

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// fpath builds kube field.Path strings: Child adds ".name", Key adds
// "[key]", Index adds "[i]".
type fpath []byte

// child, key and index never write into p's backing array (a sibling may
// share it): they copy.
func (p fpath) child(name string) fpath {
	out := make(fpath, 0, len(p)+1+len(name))
	out = append(out, p...)
	if len(p) > 0 {
		out = append(out, '.')
	}
	return append(out, name...)
}

func (p fpath) key(k string) fpath {
	out := make(fpath, 0, len(p)+2+len(k))
	out = append(append(append(out, p...), '['), k...)
	return append(out, ']')
}

func (p fpath) index(i int) fpath {
	out := make(fpath, 0, len(p)+8)
	out = append(append(out, p...), '[')
	out = strconv.AppendInt(out, int64(i), 10)
	return append(out, ']')
}

func (p fpath) String() string {
	if len(p) == 0 {
		return "<nil>"
	}
	return string(p)
}

// subtreeHas reports whether s or a node below it (through properties,
// additionalProperties, items) is an embedded resource (embedded=true) or
// a set/map list (embedded=false). Unknown for hand-built schemas: true.
func subtreeHas(s *Schema, embedded bool) bool {
	if s == nil {
		return false
	}
	if s.c == nil {
		return true
	}
	if embedded {
		return s.c.hasEmbedded
	}
	return s.c.hasKeyedList
}

// embedded validates the embedded resources below the value (kube's
// objectmeta.Validate, appended after the schema errors): apiVersion and
// kind present and well-formed, and the basic ObjectMeta rules for their
// metadata. The value itself is not treated as embedded unless its schema
// says so (a resource root is the server's business).
func (vd *validator) embedded(s *Schema, v any, prefix string) {
	if !subtreeHas(s, true) {
		return
	}
	vd.embeddedAt(s, v, fpath(prefix))
}

// relevantKeys returns, sorted, the keys of m whose schema has something
// below it for a pass (embedded resources or keyed lists), using buf when
// it is large enough.
func relevantKeys(s *Schema, m map[string]any, embedded bool, buf []string) []string {
	keys := buf[:0]
	ap := s.AdditionalPropertiesSchema()
	apRelevant := subtreeHas(ap, embedded)
	for k := range m {
		if prop, ok := s.Properties[k]; ok {
			if subtreeHas(prop, embedded) {
				keys = append(keys, k)
			}
		} else if apRelevant {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func (vd *validator) embeddedAt(s *Schema, v any, p fpath) {
	if s == nil || !subtreeHas(s, true) {
		return
	}
	switch x := v.(type) {
	case map[string]any, meta.Object:
		m, _ := meta.AsMap(x)
		if s.XEmbeddedResource {
			vd.errs = append(vd.errs, validateEmbeddedResource(p, m)...)
		}
		var buf [8]string
		for _, k := range relevantKeys(s, m, true, buf[:]) {
			if prop, ok := s.Properties[k]; ok {
				vd.embeddedAt(prop, m[k], p.child(k))
			} else {
				vd.embeddedAt(s.AdditionalPropertiesSchema(), m[k], p.key(k))
			}
		}
	case []any:
		for i, e := range x {
			vd.embeddedAt(s.Items, e, p.index(i))
		}
	}
}

func validateEmbeddedResource(p fpath, x map[string]any) meta.FieldErrors {
	var errs meta.FieldErrors
	if _, ok := x["apiVersion"]; !ok {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: p.child("apiVersion").String(), Detail: "must not be empty"})
	}
	if _, ok := x["kind"]; !ok {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: p.child("kind").String(), Detail: "must not be empty"})
	}
	for _, k := range sortedKeys(x) {
		v := x[k]
		switch k {
		case "apiVersion":
			f := p.child("apiVersion").String()
			s, ok := v.(string)
			switch {
			case !ok:
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: badValue(v), Detail: "must be a string"})
			case s == "":
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: s, Detail: "must not be empty"})
			case strings.Count(s, "/") > 1:
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: s, Detail: "unexpected GroupVersion string: " + s})
			}
		case "kind":
			f := p.child("kind").String()
			s, ok := v.(string)
			switch {
			case !ok:
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: badValue(v), Detail: "must be a string"})
			case s == "":
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: s, Detail: "must not be empty"})
			default:
				if msgs := DNS1035Label(strings.ToLower(s)); len(msgs) > 0 {
					errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: f, Value: s,
						Detail: "may have mixed case, but should otherwise match: " + strings.Join(msgs, ",")})
				}
			}
		case "metadata":
			errs = append(errs, validateEmbeddedMeta(p.child("metadata"), v)...)
		}
	}
	return errs
}

// badValue renders a value as kube's field errors do for values that are
// not scalars (a nil prints as "null").
func badValue(v any) any {
	if v == nil {
		return "null"
	}
	return v
}

// validateEmbeddedMeta checks the parts of ObjectMeta kube validates for an
// embedded resource that need no other package: the shape (decoding into
// ObjectMeta), the name and generateName as path segments, the namespace
// as a DNS label. Labels, annotations and owner references are not
// checked here.
func validateEmbeddedMeta(p fpath, v any) meta.FieldErrors {
	m, ok := meta.AsMap(v)
	if !ok {
		if v == nil {
			return nil
		}
		return meta.FieldErrors{{Type: meta.ErrorInvalid, Field: p.String(), Value: badValue(v),
			Detail: fmt.Sprintf("json: cannot unmarshal %s into Go value of type v1.ObjectMeta", jsonKind(v))}}
	}
	if errs := ObjectMeta().ValidateValue(m, p.String()); len(errs) > 0 {
		return errs
	}
	var errs meta.FieldErrors
	if gn, _ := m["generateName"].(string); gn != "" {
		for _, msg := range PathSegmentName(gn, true) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: p.child("generateName").String(), Value: gn, Detail: msg})
		}
	}
	if name, _ := m["name"].(string); name != "" {
		for _, msg := range PathSegmentName(name, false) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: p.child("name").String(), Value: name, Detail: msg})
		}
	}
	if ns, _ := m["namespace"].(string); ns != "" {
		for _, msg := range DNS1123Label(ns) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: p.child("namespace").String(), Value: ns, Detail: msg})
		}
	}
	return errs
}

// lists checks the uniqueness of list-type set items and map keys (kube's
// listtype.ValidateListSetsAndMaps, appended last).
func (vd *validator) lists(s *Schema, v any, prefix string) {
	if !subtreeHas(s, false) {
		return
	}
	m, ok := meta.AsMap(v)
	if !ok {
		// kube starts this check at an object.
		if list, isList := v.([]any); isList {
			vd.listsArray(s, list, fpath(prefix))
		}
		return
	}
	vd.listsObject(s, m, fpath(prefix))
}

func (vd *validator) listsObject(s *Schema, m map[string]any, p fpath) {
	if s == nil || !subtreeHas(s, false) {
		return
	}
	var buf [8]string
	keys := relevantKeys(s, m, false, buf[:])
	if ap := s.AdditionalPropertiesSchema(); ap != nil {
		for _, k := range keys {
			if _, declared := s.Properties[k]; !declared {
				vd.listsValue(ap, m[k], p.key(k))
			}
		}
	}
	for _, k := range keys {
		if prop, ok := s.Properties[k]; ok {
			vd.listsValue(prop, m[k], p.child(k))
		}
	}
}

func (vd *validator) listsValue(s *Schema, v any, p fpath) {
	switch x := v.(type) {
	case []any:
		vd.listsArray(s, x, p)
	case map[string]any:
		vd.listsObject(s, x, p)
	case meta.Object:
		vd.listsObject(s, x, p)
	}
}

func (vd *validator) listsArray(s *Schema, list []any, p fpath) {
	if s == nil || !subtreeHas(s, false) {
		return
	}
	switch s.XListType {
	case "set":
		for _, i := range secondOccurrences(list) {
			vd.errs = append(vd.errs, meta.FieldError{Type: meta.ErrorDuplicate, Field: p.index(i).String(), Value: badValue(list[i])})
		}
	case "map":
		vd.errs = append(vd.errs, listMapDuplicates(s, list, p)...)
	}
	if s.Items != nil {
		for i, e := range list {
			vd.listsValue(s.Items, e, p.index(i))
		}
	}
}

// secondOccurrences returns the index of the second occurrence of every
// value that occurs more than once (kube reports only that one). Scalars
// compare by Go value (int64 1 and float64 1 differ), objects and arrays by
// their JSON.
func secondOccurrences(list []any) []int {
	if len(list) <= 1 {
		return nil
	}
	seen := make(map[string]int, len(list))
	var out []int
	for i, x := range list {
		var k string
		switch x.(type) {
		case map[string]any, []any, meta.Object:
			b, err := json.Marshal(x)
			if err != nil {
				continue
			}
			k = "j" + string(b)
		default:
			k = canonicalKey(x)
		}
		seen[k]++
		if seen[k] == 2 {
			out = append(out, i)
		}
	}
	return out
}

type unspecifiedKey struct{}

func listMapDuplicates(s *Schema, list []any, p fpath) meta.FieldErrors {
	for i, x := range list {
		if _, ok := meta.AsMap(x); x != nil && !ok {
			return meta.FieldErrors{{Type: meta.ErrorInvalid, Field: p.index(i).String(), Value: x,
				Detail: "must be an object for an array of list-type map"}}
		}
	}
	if len(list) <= 1 {
		return nil
	}
	keys := make([]any, len(list))
	single := len(s.XListMapKeys) == 1
	for i, x := range list {
		m, _ := meta.AsMap(x)
		if single {
			if k, ok := m[s.XListMapKeys[0]]; ok && m != nil {
				keys[i] = k
			} else {
				keys[i] = unspecifiedKey{}
			}
			continue
		}
		key := map[string]any{}
		for _, f := range s.XListMapKeys {
			if k, ok := m[f]; ok {
				key[f] = k
			}
		}
		keys[i] = key
	}
	var errs meta.FieldErrors
	for _, i := range secondOccurrencesKeys(keys) {
		var v any
		switch k := keys[i].(type) {
		case unspecifiedKey:
			v = map[string]interface{}{}
		case map[string]any:
			v = k
		default:
			v = map[string]interface{}{s.XListMapKeys[0]: k}
		}
		errs = append(errs, meta.FieldError{Type: meta.ErrorDuplicate, Field: p.index(i).String(), Value: v})
	}
	return errs
}

func secondOccurrencesKeys(keys []any) []int {
	seen := make(map[string]int, len(keys))
	var out []int
	for i, x := range keys {
		var k string
		switch x.(type) {
		case unspecifiedKey:
			k = "u"
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				continue
			}
			k = "j" + string(b)
		default:
			k = canonicalKey(x)
		}
		seen[k]++
		if seen[k] == 2 {
			out = append(out, i)
		}
	}
	return out
}
