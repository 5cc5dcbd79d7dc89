package cel

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// intOf is the CEL int of a JSON number that is integral. kapi keeps
// integral JSON numbers as int64; a float64 was written as such (1.0),
// and kube's decoder reads it as an int, as it reads every integral
// number.
func intOf(v any) (types.Int, bool) {
	switch t := v.(type) {
	case int64:
		return types.Int(t), true
	case int:
		return types.Int(t), true
	case int32:
		return types.Int(t), true
	case float64:
		if t == float64(int64(t)) {
			return types.Int(int64(t)), true
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return types.Int(i), true
		}
	}
	return 0, false
}

// valueOf is the CEL value of JSON data v of schema s, as kube presents
// data to rules: objects and maps are read lazily (a rule that reads one
// field converts one field), lists of type set and map compare as sets
// and maps, strings of format date, date-time, duration and byte are
// timestamps, durations and bytes, int-or-string is an int or a string,
// and a value of no type that preserves unknown fields is opaque.
func valueOf(v any, s *schema.Schema) ref.Val {
	if v == nil {
		if s.Nullable {
			return types.NullValue
		}
		return types.NewErr("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		if str, ok := v.(string); ok {
			return types.String(str)
		}
		if i, ok := intOf(v); ok {
			return i
		}
		return types.NewErr("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := asMap(v)
		if !ok {
			return types.NewErr("invalid data, expected a map for the provided schema with type=object")
		}
		if s.XEmbeddedResource || s.Properties != nil {
			if s.XEmbeddedResource {
				s = withTypeAndObjectMeta(s)
			}
			return &mapValue{value: m, schema: s, object: true}
		}
		return &mapValue{value: m, schema: s}
	case "array":
		l, ok := v.([]any)
		if !ok {
			return types.NewErr("invalid data, expected an array for the provided schema with type=array")
		}
		if s.Items == nil {
			return types.NewErr("invalid array type, expected Items with a non-empty Schema")
		}
		list := listValue{elements: l, items: s.Items}
		switch s.XListType {
		case "map":
			keys := make([]string, len(s.XListMapKeys))
			copy(keys, s.XListMapKeys)
			return &mapListValue{listValue: list, keys: keys}
		case "set":
			return &setListValue{listValue: list}
		case "", "atomic":
			return &list
		}
		return types.NewErr("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", s.XListType)
	case "string":
		str, ok := v.(string)
		if !ok {
			return types.NewErr("invalid data, expected string, got %T", v)
		}
		switch s.Format {
		case "duration":
			d, err := schema.ParseDuration(str)
			if err != nil {
				return types.NewErr("Invalid duration %s: %v", str, err)
			}
			return types.Duration{Duration: d}
		case "date":
			d, err := time.Parse(time.DateOnly, str)
			if err != nil {
				return types.NewErr("Invalid date formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "date-time":
			d, err := parseDateTime(str)
			if err != nil {
				return types.NewErr("Invalid date-time formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "byte":
			b, err := base64.StdEncoding.DecodeString(str)
			if err != nil {
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
		return types.String(str)
	case "number":
		switch t := v.(type) {
		case float64:
			return types.Double(t)
		case int64:
			return types.Double(t)
		case int:
			return types.Double(t)
		case int32:
			return types.Double(t)
		case float32:
			return types.Double(t)
		case json.Number:
			if f, err := t.Float64(); err == nil {
				return types.Double(f)
			}
		}
		return types.NewErr("invalid data, expected float, got %T", v)
	case "integer":
		if i, ok := intOf(v); ok {
			return i
		}
		return types.NewErr("invalid data, expected int, got %T", v)
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return types.NewErr("invalid data, expected bool, got %T", v)
		}
		return types.Bool(b)
	}
	if s.XPreserveUnknownFields {
		return &opaqueValue{v: v}
	}
	return types.NewErr("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

func asMap(v any) (map[string]any, bool) {
	switch t := v.(type) {
	case map[string]any:
		return t, true
	case meta.Object:
		return t, true
	}
	return nil, false
}

// opaqueValue is data kept by x-kubernetes-preserve-unknown-fields under
// a node without a type: rules can only compare it.
type opaqueValue struct{ v any }

func (o *opaqueValue) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t)
}

func (o *opaqueValue) ConvertToType(t ref.Type) ref.Val {
	return types.NewErr("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t.TypeName())
}

func (o *opaqueValue) Equal(other ref.Val) ref.Val {
	return types.Bool(meta.EqualValues(o.v, other.Value()))
}

func (o *opaqueValue) Type() ref.Type { return types.UnknownType }
func (o *opaqueValue) Value() any     { return o.v }

// listValue is an array of x-kubernetes-list-type atomic (or none).
type listValue struct {
	elements []any
	items    *schema.Schema
}

var _ traits.Lister = (*listValue)(nil)

func (l *listValue) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Slice {
		if l.items.Type == "string" {
			out := make([]string, 0, len(l.elements))
			for _, e := range l.elements {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("expected all elements to be of type string, but got %T", e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		return l.elements, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", l.Type(), t)
}

func (l *listValue) ConvertToType(t ref.Type) ref.Val { return convertAggregate(l, t) }

// convertAggregate converts a list or map to its own type or to type; CEL
// converts them to nothing else.
func convertAggregate(v ref.Val, t ref.Type) ref.Val {
	switch t {
	case v.Type():
		return v
	case types.TypeType:
		return v.Type().(ref.Val)
	}
	return types.NewErr("type conversion error from '%s' to '%s'", v.Type(), t.TypeName())
}

func (l *listValue) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	n := types.Int(len(l.elements))
	if n != o.Size() {
		return types.False
	}
	for i := types.Int(0); i < n; i++ {
		if eq := l.Get(i).Equal(o.Get(i)); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *listValue) Type() ref.Type { return types.ListType }
func (l *listValue) Value() any     { return l.elements }

func (l *listValue) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := append([]any(nil), l.elements...)
	for it := o.Iterator(); it.HasNext() == types.True; {
		elements = append(elements, it.Next().Value())
	}
	return &listValue{elements: elements, items: l.items}
}

func (l *listValue) Contains(v ref.Val) ref.Val {
	if types.IsUnknownOrError(v) {
		return v
	}
	var err ref.Val
	for _, e := range l.elements {
		cmp := valueOf(e, l.items).Equal(v)
		b, ok := cmp.(types.Bool)
		if !ok && err == nil {
			err = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if err != nil {
		return err
	}
	return types.False
}

func (l *listValue) Get(idx ref.Val) ref.Val {
	i, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	if i < 0 || int(i) >= len(l.elements) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return valueOf(l.elements[i], l.items)
}

func (l *listValue) Iterator() traits.Iterator {
	return &indexIterator{n: len(l.elements), at: func(i int) ref.Val { return valueOf(l.elements[i], l.items) }}
}

func (l *listValue) Size() ref.Val { return types.Int(len(l.elements)) }

// setListValue is an array of x-kubernetes-list-type set: equal to a list
// with the same items in any order; + adds the new items only.
type setListValue struct {
	listValue
	set map[any]struct{}
}

func (l *setListValue) members() map[any]struct{} {
	if l.set == nil {
		l.set = make(map[any]struct{}, len(l.elements))
		for _, e := range l.elements {
			if isHashable(e) {
				l.set[e] = struct{}{}
			}
		}
	}
	return l.set
}

func (l *setListValue) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(l.elements)) != o.Size() {
		return types.False
	}
	set := l.members()
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next().Value()
		if !isHashable(v) {
			return types.False
		}
		if _, ok := set[v]; !ok {
			return types.False
		}
	}
	return types.True
}

func (l *setListValue) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := append([]any(nil), l.elements...)
	seen := make(map[any]struct{}, len(elements))
	for k := range l.members() {
		seen[k] = struct{}{}
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next().Value()
		if !isHashable(v) {
			elements = append(elements, v)
			continue
		}
		if _, dup := seen[v]; !dup {
			seen[v] = struct{}{}
			elements = append(elements, v)
		}
	}
	return &setListValue{listValue: listValue{elements: elements, items: l.items}}
}

// isHashable reports whether v can be a Go map key (sets are of scalars).
func isHashable(v any) bool {
	switch v.(type) {
	case map[string]any, []any, meta.Object:
		return false
	}
	return true
}

// mapListValue is an array of x-kubernetes-list-type map: equal to a list
// with the same items by key in any order; + replaces the items whose
// keys it has and appends the others.
type mapListValue struct {
	listValue
	keys   []string
	byKey  map[string]any
	keyBuf []any
}

func (l *mapListValue) keyOf(e any) string {
	m, ok := asMap(e)
	if !ok {
		return fmt.Sprintf("\x00%T", e)
	}
	vals := make([]any, len(l.keys))
	for i, k := range l.keys {
		vals[i] = m[k]
	}
	b, _ := json.Marshal(vals)
	return string(b)
}

func (l *mapListValue) index() map[string]any {
	if l.byKey == nil {
		l.byKey = make(map[string]any, len(l.elements))
		for _, e := range l.elements {
			l.byKey[l.keyOf(e)] = e
		}
	}
	return l.byKey
}

func (l *mapListValue) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(len(l.elements)) != o.Size() {
		return types.False
	}
	idx := l.index()
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		mine, found := idx[l.keyOf(v.Value())]
		if !found {
			return types.False
		}
		if eq := valueOf(mine, l.items).Equal(v); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *mapListValue) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elements := append([]any(nil), l.elements...)
	pos := make(map[string]int, len(elements))
	for i, e := range elements {
		pos[l.keyOf(e)] = i
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next().Value()
		k := l.keyOf(v)
		if i, ok := pos[k]; ok {
			elements[i] = v
		} else {
			pos[k] = len(elements)
			elements = append(elements, v)
		}
	}
	return &mapListValue{listValue: listValue{elements: elements, items: l.items}, keys: l.keys}
}

// mapValue is an object (object true: fields by escaped name, null fields
// absent) or a map of additionalProperties.
type mapValue struct {
	value  map[string]any
	schema *schema.Schema
	object bool
}

var _ traits.Mapper = (*mapValue)(nil)

// propSchema is the schema of key's value; false for keys rules cannot
// see (undeclared fields of objects, any key of a map without a value
// schema).
func (m *mapValue) propSchema(key string) (*schema.Schema, bool) {
	if m.object {
		p, ok := m.schema.Properties[key]
		return p, ok
	}
	if ap := m.schema.AdditionalPropertiesSchema(); ap != nil {
		return ap, true
	}
	return nil, false
}

func (m *mapValue) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Map {
		return m.value, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", m.Type(), t)
}

func (m *mapValue) ConvertToType(t ref.Type) ref.Val { return convertAggregate(m, t) }

func (m *mapValue) Equal(other ref.Val) ref.Val {
	o, ok := other.(traits.Mapper)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if m.Size() != o.Size() {
		return types.False
	}
	for k, v := range m.value {
		if ps, ok := m.propSchema(k); ok {
			ov, found := o.Find(types.String(k))
			if !found {
				return types.False
			}
			if eq := valueOf(v, ps).Equal(ov); eq != types.True {
				return eq
			}
			continue
		}
		om, ok := other.(*mapValue)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		if ov, ok := om.value[k]; ok && !meta.EqualValues(v, ov) {
			return types.False
		}
	}
	return types.True
}

func (m *mapValue) Type() ref.Type { return types.MapType }
func (m *mapValue) Value() any     { return m.value }

func (m *mapValue) Contains(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (m *mapValue) Get(key ref.Val) ref.Val {
	if v, found := m.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (m *mapValue) Find(key ref.Val) (ref.Val, bool) {
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	if m.object {
		if k, ok = unescapeName(k); !ok {
			return nil, false
		}
	}
	v, ok := m.value[k]
	if !ok || m.object && v == nil {
		return nil, false
	}
	if ps, ok := m.propSchema(k); ok {
		return valueOf(v, ps), true
	}
	return nil, false
}

func (m *mapValue) Iterator() traits.Iterator {
	keys := make([]ref.Val, 0, len(m.value))
	for _, k := range sortedKeys(m.value) {
		if _, ok := m.propSchema(k); !ok {
			continue
		}
		name := k
		if m.object {
			if escaped, ok := escapeName(k); ok {
				name = escaped
			}
		}
		keys = append(keys, types.String(name))
	}
	return &indexIterator{n: len(keys), at: func(i int) ref.Val { return keys[i] }}
}

func (m *mapValue) Size() ref.Val { return types.Int(len(m.value)) }

// indexIterator walks n values, the i-th of which at returns.
type indexIterator struct {
	n, i int
	at   func(i int) ref.Val
}

func (it *indexIterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (it *indexIterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }
func (it *indexIterator) Equal(ref.Val) ref.Val          { return types.NewErr("no such overload") }
func (it *indexIterator) Type() ref.Type                 { return types.IteratorType }
func (it *indexIterator) Value() any                     { return nil }
func (it *indexIterator) HasNext() ref.Val               { return types.Bool(it.i < it.n) }
func (it *indexIterator) Next() ref.Val {
	v := it.at(it.i)
	it.i++
	return v
}
