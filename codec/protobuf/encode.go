package protobuf

import (
	"encoding/base64"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/meta"
)

// encoder writes JSON-shaped values as protobuf, field by field in
// ascending field number, the way Kubernetes' generated marshallers do.
// Lengths of nested messages are written after their content: one byte is
// reserved and the content shifted when the length needs more.
type encoder struct {
	buf   []byte
	depth int
}

var encoderPool = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, 1024)} }}

func getEncoder() *encoder { return encoderPool.Get().(*encoder) }

func putEncoder(e *encoder) {
	if cap(e.buf) > 1<<20 {
		return
	}
	e.buf = e.buf[:0]
	e.depth = 0
	encoderPool.Put(e)
}

// bytes returns a copy of the buffer.
func (e *encoder) bytes() []byte { return slices.Clone(e.buf) }

func (e *encoder) beginLen(num protowire.Number) int {
	e.buf = protowire.AppendTag(e.buf, num, protowire.BytesType)
	e.buf = append(e.buf, 0)
	return len(e.buf) - 1
}

func (e *encoder) endLen(pos int) {
	n := len(e.buf) - pos - 1
	if n < 0x80 {
		e.buf[pos] = byte(n)
		return
	}
	var tmp [binaryMaxVarint]byte
	v := protowire.AppendVarint(tmp[:0], uint64(n))
	k := len(v)
	e.buf = append(e.buf, v[1:]...) // grow by k-1
	copy(e.buf[pos+k:], e.buf[pos+1:pos+1+n])
	copy(e.buf[pos:], v)
}

const binaryMaxVarint = 10

// message writes the fields of a plain message from the JSON object m.
func (e *encoder) message(p *msgPlan, m map[string]any) error {
	e.depth++
	if e.depth > maxDepth {
		e.depth--
		return errDepth
	}
	defer func() { e.depth-- }()
	for _, f := range p.fields {
		if f.skipJSON {
			if f.nonNull && !f.list && !f.isMap && f.kind != protoreflect.MessageKind && f.kind != protoreflect.BytesKind {
				e.buf = protowire.AppendTag(e.buf, f.num, f.wireType)
				e.zeroScalar(f.kind)
			}
			continue
		}
		if f.inline && !f.list {
			if !f.nonNull && !anyKeyPresent(f.msg, m) {
				continue
			}
			pos := e.beginLen(f.num)
			if err := e.message(f.msg, m); err != nil {
				return err
			}
			e.endLen(pos)
			continue
		}
		v, ok := m[f.key]
		if err := e.field(f, v, ok && v != nil); err != nil {
			return atField(f.key, err)
		}
	}
	return nil
}

// anyKeyPresent reports whether m holds any JSON key of p (a nullable
// inline message is written only then, as encoding/json allocates it).
func anyKeyPresent(p *msgPlan, m map[string]any) bool {
	for _, f := range p.fields {
		if f.skipJSON {
			continue
		}
		if f.inline && !f.list {
			if anyKeyPresent(f.msg, m) {
				return true
			}
			continue
		}
		if v, ok := m[f.key]; ok && v != nil {
			return true
		}
	}
	return false
}

func (e *encoder) field(f *fieldPlan, v any, present bool) error {
	switch {
	case f.isMap:
		if !present {
			return nil
		}
		return e.mapField(f, v)
	case f.list:
		if !present {
			return nil
		}
		return e.listField(f, v)
	case f.kind == protoreflect.MessageKind:
		if !present && !f.nonNull {
			return nil
		}
		pos := e.beginLen(f.num)
		if err := e.value(f.msg, v); err != nil {
			return err
		}
		e.endLen(pos)
		return nil
	case f.kind == protoreflect.BytesKind:
		if !present {
			return nil
		}
		e.buf = protowire.AppendTag(e.buf, f.num, protowire.BytesType)
		return e.bytesValue(v)
	default:
		if !present {
			if !f.nonNull {
				return nil
			}
			e.buf = protowire.AppendTag(e.buf, f.num, f.wireType)
			e.zeroScalar(f.kind)
			return nil
		}
		e.buf = protowire.AppendTag(e.buf, f.num, f.wireType)
		return e.scalar(f.kind, v)
	}
}

func (e *encoder) listField(f *fieldPlan, v any) error {
	var list []any
	switch l := v.(type) {
	case []any:
		list = l
	case []string:
		for i, s := range l {
			if err := e.element(f, s); err != nil {
				return atField(strconv.Itoa(i), err)
			}
		}
		return nil
	case []map[string]any:
		for i, m := range l {
			if err := e.element(f, m); err != nil {
				return atField(strconv.Itoa(i), err)
			}
		}
		return nil
	default:
		return fmt.Errorf("expected an array, got %s", jsonType(v))
	}
	if f.packed && f.wireType != protowire.BytesType {
		if len(list) == 0 {
			return nil
		}
		pos := e.beginLen(f.num)
		for i, el := range list {
			if el == nil {
				e.zeroScalar(f.kind)
				continue
			}
			if err := e.scalar(f.kind, el); err != nil {
				return atField(strconv.Itoa(i), err)
			}
		}
		e.endLen(pos)
		return nil
	}
	for i, el := range list {
		if err := e.element(f, el); err != nil {
			return atField(strconv.Itoa(i), err)
		}
	}
	return nil
}

// element writes one element of a repeated field (or a map entry's key or
// value): always, a null element being the zero value.
func (e *encoder) element(f *fieldPlan, v any) error {
	switch f.kind {
	case protoreflect.MessageKind:
		pos := e.beginLen(f.num)
		if err := e.value(f.msg, v); err != nil {
			return err
		}
		e.endLen(pos)
		return nil
	case protoreflect.BytesKind:
		e.buf = protowire.AppendTag(e.buf, f.num, protowire.BytesType)
		if v == nil {
			e.buf = append(e.buf, 0)
			return nil
		}
		return e.bytesValue(v)
	}
	e.buf = protowire.AppendTag(e.buf, f.num, f.wireType)
	if v == nil {
		e.zeroScalar(f.kind)
		return nil
	}
	return e.scalar(f.kind, v)
}

func (e *encoder) mapField(f *fieldPlan, v any) error {
	switch m := v.(type) {
	case map[string]string:
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := e.mapEntry(f, k, m[k]); err != nil {
				return atField(k, err)
			}
		}
		return nil
	case meta.Object:
		return e.mapField(f, map[string]any(m))
	case map[string]any:
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		if err := sortMapKeys(f.mapKey.kind, keys); err != nil {
			return err
		}
		for _, k := range keys {
			if err := e.mapEntry(f, k, m[k]); err != nil {
				return atField(k, err)
			}
		}
		return nil
	}
	return fmt.Errorf("expected an object, got %s", jsonType(v))
}

// sortMapKeys orders JSON object keys as gogo's sorted map marshalling
// orders the Go keys.
func sortMapKeys(k protoreflect.Kind, keys []string) error {
	switch k {
	case protoreflect.StringKind:
		sort.Strings(keys)
		return nil
	case protoreflect.BoolKind:
		for _, s := range keys {
			if _, err := strconv.ParseBool(s); err != nil {
				return fmt.Errorf("invalid bool map key %q", s)
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] == "false" && keys[j] == "true" })
		return nil
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		nums := make(map[string]uint64, len(keys))
		for _, s := range keys {
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return fmt.Errorf("invalid integer map key %q", s)
			}
			nums[s] = n
		}
		sort.Slice(keys, func(i, j int) bool { return nums[keys[i]] < nums[keys[j]] })
		return nil
	default:
		nums := make(map[string]int64, len(keys))
		for _, s := range keys {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return fmt.Errorf("invalid integer map key %q", s)
			}
			nums[s] = n
		}
		sort.Slice(keys, func(i, j int) bool { return nums[keys[i]] < nums[keys[j]] })
		return nil
	}
}

func (e *encoder) mapEntry(f *fieldPlan, k string, v any) error {
	pos := e.beginLen(f.num)
	// Key.
	e.buf = protowire.AppendTag(e.buf, 1, f.mapKey.wireType)
	if f.mapKey.kind == protoreflect.StringKind {
		e.buf = protowire.AppendString(e.buf, k)
	} else {
		var kv any
		switch f.mapKey.kind {
		case protoreflect.BoolKind:
			kv = k == "true"
		case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
			n, _ := strconv.ParseUint(k, 10, 64)
			kv = n
		default:
			n, _ := strconv.ParseInt(k, 10, 64)
			kv = n
		}
		if err := e.scalar(f.mapKey.kind, kv); err != nil {
			return err
		}
	}
	// Value: always, except a null []byte.
	vf := f.mapVal
	if !(vf.kind == protoreflect.BytesKind && v == nil) {
		if err := e.element(vf, v); err != nil {
			return err
		}
	}
	e.endLen(pos)
	return nil
}

// value writes the content of a message (no tag or length) from its JSON
// value v, which may be nil for the zero value.
func (e *encoder) value(p *msgPlan, v any) error {
	var err error
	switch p.special {
	case specTime:
		e.buf, err = appendTime(e.buf, v, false)
	case specMicroTime:
		e.buf, err = appendTime(e.buf, v, true)
	case specDuration:
		e.buf, err = appendDuration(e.buf, v)
	case specIntOrString:
		e.buf, err = appendIntOrString(e.buf, v)
	case specQuantity:
		e.buf, err = appendQuantity(e.buf, v)
	case specRawExtension, specFieldsV1:
		e.buf, err = appendRawJSON(e.buf, v)
	case specArray:
		if v == nil {
			return nil
		}
		return e.listField(p.items, v)
	case specSchemaOrBool, specSchemaOrArray, specSchemaOrStrings:
		m, err := unionMessage(p, v)
		if err != nil {
			return err
		}
		return e.message(p, m)
	default:
		switch m := v.(type) {
		case nil:
			return e.message(p, nil)
		case map[string]any:
			return e.message(p, m)
		case meta.Object:
			return e.message(p, m)
		}
		return fmt.Errorf("expected an object, got %s", jsonType(v))
	}
	return err
}

func (e *encoder) bytesValue(v any) error {
	s, ok := v.(string)
	if !ok {
		if b, ok := v.([]byte); ok {
			e.buf = protowire.AppendBytes(e.buf, b)
			return nil
		}
		return fmt.Errorf("expected a base64 string, got %s", jsonType(v))
	}
	n := base64.StdEncoding.DecodedLen(len(s))
	e.buf = protowire.AppendVarint(e.buf, uint64(n)) // provisional length
	lenPos := len(e.buf) - protowire.SizeVarint(uint64(n))
	start := len(e.buf)
	e.buf = slices.Grow(e.buf, n)[:start+n]
	w, err := base64.StdEncoding.Decode(e.buf[start:], []byte(s))
	if err != nil {
		e.buf = e.buf[:lenPos]
		return fmt.Errorf("illegal base64 data: %v", err)
	}
	if w == n {
		e.buf = e.buf[:start+n]
		return nil
	}
	// Fewer bytes than estimated (padding, newlines): rewrite the length.
	data := slices.Clone(e.buf[start : start+w])
	e.buf = protowire.AppendBytes(e.buf[:lenPos], data)
	return nil
}

func (e *encoder) zeroScalar(k protoreflect.Kind) {
	switch k {
	case protoreflect.StringKind, protoreflect.BytesKind:
		e.buf = append(e.buf, 0)
	case protoreflect.Fixed32Kind, protoreflect.Sfixed32Kind, protoreflect.FloatKind:
		e.buf = protowire.AppendFixed32(e.buf, 0)
	case protoreflect.Fixed64Kind, protoreflect.Sfixed64Kind, protoreflect.DoubleKind:
		e.buf = protowire.AppendFixed64(e.buf, 0)
	default:
		e.buf = append(e.buf, 0)
	}
}

// scalar writes one scalar value (its tag already written).
func (e *encoder) scalar(k protoreflect.Kind, v any) error {
	switch k {
	case protoreflect.StringKind:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("expected a string, got %s", jsonType(v))
		}
		e.buf = protowire.AppendString(e.buf, s)
	case protoreflect.BytesKind:
		return e.bytesValue(v)
	case protoreflect.BoolKind:
		b, ok := v.(bool)
		if !ok {
			return fmt.Errorf("expected a boolean, got %s", jsonType(v))
		}
		e.buf = protowire.AppendVarint(e.buf, protowire.EncodeBool(b))
	case protoreflect.Int32Kind, protoreflect.EnumKind:
		n, err := asInt(v, math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendVarint(e.buf, uint64(n))
	case protoreflect.Sint32Kind:
		n, err := asInt(v, math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendVarint(e.buf, protowire.EncodeZigZag(n))
	case protoreflect.Uint32Kind:
		n, err := asUint(v, math.MaxUint32)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendVarint(e.buf, n)
	case protoreflect.Int64Kind:
		n, err := asInt(v, math.MinInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendVarint(e.buf, uint64(n))
	case protoreflect.Sint64Kind:
		n, err := asInt(v, math.MinInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendVarint(e.buf, protowire.EncodeZigZag(n))
	case protoreflect.Uint64Kind:
		n, err := asUint(v, math.MaxUint64)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendVarint(e.buf, n)
	case protoreflect.Fixed32Kind:
		n, err := asUint(v, math.MaxUint32)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendFixed32(e.buf, uint32(n))
	case protoreflect.Sfixed32Kind:
		n, err := asInt(v, math.MinInt32, math.MaxInt32)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendFixed32(e.buf, uint32(n))
	case protoreflect.FloatKind:
		f, err := asFloat(v)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendFixed32(e.buf, math.Float32bits(float32(f)))
	case protoreflect.Fixed64Kind:
		n, err := asUint(v, math.MaxUint64)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendFixed64(e.buf, n)
	case protoreflect.Sfixed64Kind:
		n, err := asInt(v, math.MinInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendFixed64(e.buf, uint64(n))
	case protoreflect.DoubleKind:
		f, err := asFloat(v)
		if err != nil {
			return err
		}
		e.buf = protowire.AppendFixed64(e.buf, math.Float64bits(f))
	default:
		return fmt.Errorf("unsupported field kind %s", k)
	}
	return nil
}
