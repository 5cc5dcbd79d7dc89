package meta

import (
	"encoding/json"
	"maps"
	"reflect"
	"strconv"
	"time"
)

// Object is an API object as decoded from JSON: objects are
// map[string]any, arrays []any, strings string, booleans bool, integers
// int64 and other numbers float64. See the package documentation for the
// immutability rule.
type Object map[string]any

// TimeFormat is the wire format of metav1.Time: RFC 3339 in UTC, seconds.
const TimeFormat = "2006-01-02T15:04:05Z"

// FormatTime renders t as a metav1.Time string.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// APIVersion returns .apiVersion.
func (o Object) APIVersion() string { s, _ := o["apiVersion"].(string); return s }

// Kind returns .kind.
func (o Object) Kind() string { s, _ := o["kind"].(string); return s }

// Metadata returns .metadata, or nil when it is absent or not an object.
func (o Object) Metadata() map[string]any { m, _ := o["metadata"].(map[string]any); return m }

func (o Object) metaString(field string) string {
	s, _ := o.Metadata()[field].(string)
	return s
}

// Name returns .metadata.name.
func (o Object) Name() string { return o.metaString("name") }

// GenerateName returns .metadata.generateName.
func (o Object) GenerateName() string { return o.metaString("generateName") }

// Namespace returns .metadata.namespace.
func (o Object) Namespace() string { return o.metaString("namespace") }

// UID returns .metadata.uid.
func (o Object) UID() string { return o.metaString("uid") }

// ResourceVersion returns .metadata.resourceVersion.
func (o Object) ResourceVersion() string { return o.metaString("resourceVersion") }

// CreationTimestamp returns .metadata.creationTimestamp as sent.
func (o Object) CreationTimestamp() string { return o.metaString("creationTimestamp") }

// DeletionTimestamp returns .metadata.deletionTimestamp as sent.
func (o Object) DeletionTimestamp() string { return o.metaString("deletionTimestamp") }

// Generation returns .metadata.generation, 0 when absent.
func (o Object) Generation() int64 { n, _ := AsInt64(o.Metadata()["generation"]); return n }

// Labels returns .metadata.labels; values that are not strings are skipped.
func (o Object) Labels() map[string]string { return stringMap(o.Metadata()["labels"]) }

// Annotations returns .metadata.annotations; values that are not strings
// are skipped.
func (o Object) Annotations() map[string]string { return stringMap(o.Metadata()["annotations"]) }

// Finalizers returns .metadata.finalizers.
func (o Object) Finalizers() []string {
	list, _ := o.Metadata()["finalizers"].([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func stringMap(v any) map[string]string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// MetadataForWrite returns .metadata, creating it when absent. Only for an
// object the caller owns (see the package documentation).
func (o Object) MetadataForWrite() map[string]any {
	m, ok := o["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		o["metadata"] = m
	}
	return m
}

// SetMetadataField sets .metadata.<field>, or removes it when v is nil.
func (o Object) SetMetadataField(field string, v any) {
	m := o.MetadataForWrite()
	if v == nil {
		delete(m, field)
		return
	}
	m[field] = v
}

// WithResourceVersion returns a shallow copy of o whose metadata (itself a
// shallow copy) carries rv. It leaves o untouched, so it is safe on a
// published version.
func (o Object) WithResourceVersion(rv int64) Object {
	out := maps.Clone(o)
	m := maps.Clone(o.Metadata())
	if m == nil {
		m = map[string]any{}
	}
	m["resourceVersion"] = strconv.FormatInt(rv, 10)
	out["metadata"] = m
	return out
}

// DeepCopy returns a copy of o that shares nothing with it.
func (o Object) DeepCopy() Object {
	if o == nil {
		return nil
	}
	return DeepCopyValue(map[string]any(o)).(map[string]any)
}

// DeepCopyValue copies a JSON-shaped value (maps, slices and scalars).
func DeepCopyValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = DeepCopyValue(e)
		}
		return out
	case Object:
		return Object(DeepCopyValue(map[string]any(v)).(map[string]any))
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = DeepCopyValue(e)
		}
		return out
	default:
		return v
	}
}

// EqualValues reports whether two JSON-shaped values (maps, slices and
// scalars, as DeepCopyValue copies them) are deeply equal, as
// reflect.DeepEqual would, without allocating: comparing whole objects is
// on the path of every update. Values of other types are compared by
// reflect.DeepEqual.
func EqualValues(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			if bo, isObj := b.(Object); isObj {
				bm, ok = map[string]any(bo), true
			}
		}
		return ok && equalMaps(a, bm)
	case Object:
		return EqualValues(map[string]any(a), b)
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) || (a == nil) != (bl == nil) {
			return false
		}
		for i := range a {
			if !EqualValues(a[i], bl[i]) {
				return false
			}
		}
		return true
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case int64:
		bi, ok := b.(int64)
		return ok && a == bi
	case float64:
		bf, ok := b.(float64)
		return ok && a == bf
	case nil:
		return b == nil
	}
	return reflect.DeepEqual(a, b)
}

func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !EqualValues(av, bv) {
			return false
		}
	}
	return true
}

// AsMap reads a JSON object, which decoding gives as either a
// map[string]any or an Object.
func AsMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case Object:
		return m, true
	}
	return nil, false
}

// AsList reads a JSON list: nil when v is not one.
func AsList(v any) []any {
	l, _ := v.([]any)
	return l
}

// AsString reads a JSON string: "" when v is not one.
func AsString(v any) string {
	s, _ := v.(string)
	return s
}

// AsStrings reads the strings of a JSON list, skipping the items that are
// not strings: nil when there are none.
func AsStrings(v any) []string {
	var out []string
	for _, e := range AsList(v) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// AsMaps reads the objects of a JSON list, skipping the items that are not
// objects: nil when there are none.
func AsMaps(v any) []map[string]any {
	var out []map[string]any
	for _, e := range AsList(v) {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// AsInt64 reads an integer from a JSON-shaped value of any numeric type.
func AsInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, true
	case int:
		return int64(n), true
	case int32:
		return int64(n), true
	case float64:
		if n == float64(int64(n)) {
			return int64(n), true
		}
	case json.Number:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// NestedField walks maps along path and returns the value found.
func NestedField(obj map[string]any, path ...string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}
