package protobuf

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/meta"
)

// maxDepth bounds message nesting, as codec's JSON decoder bounds JSON
// nesting.
const maxDepth = 10000

var (
	errUTF8  = errors.New("invalid UTF-8 in string field")
	errDepth = errors.New("exceeded max depth")
)

// wireError turns a protowire error code into an error.
func wireError(n int) error {
	err := protowire.ParseError(n)
	if err == nil {
		return errors.New("malformed protobuf")
	}
	return err
}

// pathError locates an error at a field path.
type pathError struct {
	path []string // innermost first
	err  error
}

func (e *pathError) Error() string {
	p := slices.Clone(e.path)
	slices.Reverse(p)
	return strings.Join(p, ".") + ": " + e.err.Error()
}

func (e *pathError) Unwrap() error { return e.err }

// atField prefixes err with a field name.
func atField(name string, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		pe.path = append(pe.path, name)
		return pe
	}
	return &pathError{path: []string{name}, err: err}
}

// kindError is a kind without a protobuf descriptor.
type kindError struct {
	gvk    meta.GroupVersionKind
	nested bool // in a RawExtension, not the body's kind
}

func (e *kindError) Error() string {
	return fmt.Sprintf("no protobuf type is known for kind %q in version %q", e.gvk.Kind, e.gvk.GroupVersion())
}

// descriptorError is a descriptor the transcoder cannot use: the server's
// fault, not the body's.
type descriptorError struct{ err error }

func (e *descriptorError) Error() string { return e.err.Error() }

// decoder turns protobuf messages into JSON-shaped values.
type decoder struct {
	c     *Codec
	depth int
}

// envelope decodes an enveloped object: magic, then Unknown.
func (d *decoder) envelope(data []byte) (map[string]any, error) {
	switch {
	case len(data) == 0:
		return nil, errors.New("empty data")
	case !hasMagic(data):
		return nil, fmt.Errorf("provided data does not appear to be a protobuf message, expected prefix %v", magic)
	}
	u, err := parseUnknown(data[len(magic):])
	if err != nil {
		return nil, err
	}
	if u.kind == "" {
		return nil, errors.New("Object 'Kind' is missing in protobuf envelope")
	}
	if u.apiVersion == "" {
		return nil, errors.New("Object 'apiVersion' is missing in protobuf envelope")
	}
	gv := meta.ParseGroupVersion(u.apiVersion)
	gvk := meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: u.kind}
	p, err := d.c.resolve(gvk)
	if err != nil {
		return nil, &descriptorError{err}
	}
	if p == nil {
		return nil, &kindError{gvk: gvk, nested: d.depth > 0}
	}
	obj := make(map[string]any, 4)
	if err := d.message(p, u.raw, obj); err != nil {
		return nil, err
	}
	obj["apiVersion"] = u.apiVersion
	obj["kind"] = u.kind
	return obj, nil
}

// unknown is a parsed runtime.Unknown.
type unknown struct {
	apiVersion, kind string
	raw              []byte
}

func parseUnknown(data []byte) (unknown, error) {
	var u unknown
	err := scanFields(data, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
		switch num {
		case 1:
			if err := wantType("typeMeta", typ, protowire.BytesType); err != nil {
				return err
			}
			return scanFields(b, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
				if num != 1 && num != 2 {
					return nil
				}
				if err := wantType("typeMeta", typ, protowire.BytesType); err != nil {
					return err
				}
				if !utf8.Valid(b) {
					return errUTF8
				}
				if num == 1 {
					u.apiVersion = string(b)
				} else {
					u.kind = string(b)
				}
				return nil
			})
		case 2:
			u.raw = b
			return wantType("raw", typ, protowire.BytesType)
		case 3:
			if err := wantType("contentEncoding", typ, protowire.BytesType); err != nil {
				return err
			}
			if len(b) != 0 {
				return fmt.Errorf("unsupported contentEncoding %q", b)
			}
		case 4:
			if err := wantType("contentType", typ, protowire.BytesType); err != nil {
				return err
			}
			if len(b) != 0 && string(b) != MediaType {
				return fmt.Errorf("unsupported contentType %q", b)
			}
		}
		return nil
	})
	return u, err
}

// message decodes the fields of a plain message into out, which may
// already hold the fields of an enclosing message (inline fields).
func (d *decoder) message(p *msgPlan, data []byte, out map[string]any) error {
	d.depth++
	if d.depth > maxDepth {
		d.depth--
		return errDepth
	}
	err := d.fields(p, data, out)
	d.depth--
	return err
}

// seenSet records which fields of a message were on the wire.
type seenSet struct {
	bits uint64
	more []bool
}

func (s *seenSet) has(i int) bool {
	if i < 64 {
		return s.bits&(1<<i) != 0
	}
	return s.more[i-64]
}

func (s *seenSet) set(i int) {
	if i < 64 {
		s.bits |= 1 << i
		return
	}
	s.more[i-64] = true
}

func (d *decoder) fields(p *msgPlan, data []byte, out map[string]any) error {
	var seen seenSet
	if len(p.fields) > 64 {
		seen.more = make([]bool, len(p.fields)-64)
	}
	// Occurrences of a message field merge: a field given more than once
	// is decoded once, from its occurrences concatenated, after the loop.
	// Decoding occurrences one by one and merging would redo work per
	// occurrence: quadratic time, exponential when nested.
	var merge []*fieldPlan
	if p.merging {
		var err error
		if merge, err = duplicates(p, data); err != nil {
			return err
		}
	}
	b := data
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return wireError(n)
		}
		b = b[n:]
		f := p.field(num)
		if f == nil || f.skipJSON || (merge != nil && slices.Contains(merge, f)) {
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return wireError(m)
			}
			b = b[m:]
			continue
		}
		m, err := d.field(f, typ, b, seen.has(f.index), out)
		if err != nil {
			return atField(f.name, err)
		}
		b = b[m:]
		seen.set(f.index)
	}
	for _, f := range merge {
		if err := d.setMessage(f, mergeOccurrences(data, f.num), out); err != nil {
			return atField(f.name, err)
		}
		seen.set(f.index)
	}
	for _, f := range p.fields {
		if seen.has(f.index) || f.skipJSON {
			continue
		}
		if err := d.absent(f, out); err != nil {
			return atField(f.name, err)
		}
	}
	return nil
}

// absent sets the JSON value of a field that was not on the wire: the JSON
// encoding of the Go field's zero value, unless the field is omitted.
func (d *decoder) absent(f *fieldPlan, out map[string]any) error {
	switch {
	case f.list || f.isMap || f.kind == protoreflect.BytesKind:
		if !f.omits() {
			out[f.key] = nil
		}
	case f.inline:
		if f.nonNull {
			return d.message(f.msg, nil, out)
		}
	case f.kind == protoreflect.MessageKind:
		if !f.nonNull {
			if !f.omits() {
				out[f.key] = nil
			}
			return nil
		}
		v, zero, err := d.value(f.msg, nil)
		if err != nil {
			return err
		}
		if f.omitZero && zero {
			return nil
		}
		out[f.key] = v
	default:
		if f.omits() {
			return nil
		}
		if f.nonNull {
			out[f.key] = zeroScalar(f.kind)
		} else {
			out[f.key] = nil
		}
	}
	return nil
}

func zeroScalar(k protoreflect.Kind) any {
	switch k {
	case protoreflect.BoolKind:
		return false
	case protoreflect.StringKind:
		return ""
	}
	return int64(0)
}

func isZeroScalar(v any) bool {
	switch v := v.(type) {
	case bool:
		return !v
	case string:
		return v == ""
	case int64:
		return v == 0
	case float64:
		return v == 0
	}
	return false
}

// mergesOnDuplicate reports whether a message field given twice is merged
// (generated Unmarshal) rather than replaced (custom Unmarshal).
func mergesOnDuplicate(p *msgPlan) bool {
	switch p.special {
	case specTime, specMicroTime, specQuantity:
		return false
	}
	return true
}

// field decodes one occurrence of f (its tag already consumed) from b and
// returns the bytes used. again says f was seen before in this message.
func (d *decoder) field(f *fieldPlan, typ protowire.Type, b []byte, again bool, out map[string]any) (int, error) {
	switch {
	case f.isMap:
		if typ != protowire.BytesType {
			return 0, fmt.Errorf("wrong wire type %d", typ)
		}
		entry, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return 0, wireError(n)
		}
		k, v, err := d.mapEntry(f, entry)
		if err != nil {
			return 0, err
		}
		m, _ := out[f.key].(map[string]any)
		if !again || m == nil {
			m = make(map[string]any)
			out[f.key] = m
		}
		m[k] = v
		return n, nil

	case f.list:
		var list []any
		if again {
			list, _ = out[f.key].([]any)
		}
		n := 0
		if typ == protowire.BytesType && f.wireType != protowire.BytesType {
			packed, m := protowire.ConsumeBytes(b)
			if m < 0 {
				return 0, wireError(m)
			}
			for len(packed) > 0 {
				v, k, err := d.scalar(f.kind, f.wireType, packed)
				if err != nil {
					return 0, err
				}
				list = append(list, v)
				packed = packed[k:]
			}
			n = m
		} else {
			if typ != f.wireType {
				return 0, fmt.Errorf("wrong wire type %d", typ)
			}
			v, m, err := d.element(f, b)
			if err != nil {
				return 0, err
			}
			list = append(list, v)
			n = m
		}
		switch {
		case len(list) > 0:
			out[f.key] = list
		case f.omits():
			// An empty packed field: no elements, as if absent.
			delete(out, f.key)
		default:
			out[f.key] = nil
		}
		return n, nil

	case f.kind == protoreflect.MessageKind:
		if typ != protowire.BytesType {
			return 0, fmt.Errorf("wrong wire type %d", typ)
		}
		sub, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return 0, wireError(n)
		}
		return n, d.setMessage(f, sub, out)

	default:
		if typ != f.wireType {
			return 0, fmt.Errorf("wrong wire type %d", typ)
		}
		if f.kind == protoreflect.BytesKind {
			raw, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return 0, wireError(n)
			}
			if len(raw) == 0 && f.omits() {
				delete(out, f.key)
			} else {
				out[f.key] = base64.StdEncoding.EncodeToString(raw)
			}
			return n, nil
		}
		v, n, err := d.scalar(f.kind, typ, b)
		if err != nil {
			return 0, err
		}
		if f.nonNull && f.omits() && isZeroScalar(v) {
			delete(out, f.key)
		} else {
			out[f.key] = v
		}
		return n, nil
	}
}

// duplicates returns the message fields of p given more than once in data
// whose occurrences merge (nil when none, the common case). It checks the
// wire types of those fields and leaves other errors to the caller's scan,
// which locates them.
func duplicates(p *msgPlan, data []byte) ([]*fieldPlan, error) {
	var once, twice seenSet
	if len(p.fields) > 64 {
		once.more = make([]bool, len(p.fields)-64)
		twice.more = make([]bool, len(p.fields)-64)
	}
	var dups []*fieldPlan
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return dups, nil
		}
		data = data[n:]
		m := protowire.ConsumeFieldValue(num, typ, data)
		if m < 0 {
			return dups, nil
		}
		data = data[m:]
		f := p.field(num)
		if f == nil || !f.merges {
			continue
		}
		if typ != protowire.BytesType {
			return nil, atField(f.name, fmt.Errorf("wrong wire type %d", typ))
		}
		switch {
		case !once.has(f.index):
			once.set(f.index)
		case !twice.has(f.index):
			twice.set(f.index)
			dups = append(dups, f)
		}
	}
	return dups, nil
}

// setMessage decodes the message of a (non-repeated) message field.
func (d *decoder) setMessage(f *fieldPlan, sub []byte, out map[string]any) error {
	if f.inline {
		return d.message(f.msg, sub, out)
	}
	v, zero, err := d.value(f.msg, sub)
	if err != nil {
		return err
	}
	switch {
	case f.msg.special == specArray && f.omitEmpty && len(v.([]any)) == 0:
		delete(out, f.key)
	case f.nonNull && f.omitZero && (zero || (f.msg.special == specNone && d.zeroMessage(f.msg, sub))):
		delete(out, f.key)
	default:
		out[f.key] = v
	}
	return nil
}

// mergeOccurrences concatenates the occurrences of field num in msg
// (already validated): protobuf merges a message field given more than
// once.
func mergeOccurrences(msg []byte, num protowire.Number) []byte {
	each := func(fn func(v []byte)) {
		for b := msg; len(b) > 0; {
			n, typ, k := protowire.ConsumeTag(b)
			b = b[k:]
			m := protowire.ConsumeFieldValue(n, typ, b)
			if n == num && typ == protowire.BytesType {
				v, _ := protowire.ConsumeBytes(b)
				fn(v)
			}
			b = b[m:]
		}
	}
	size := 0
	each(func(v []byte) { size += len(v) })
	buf := make([]byte, 0, size)
	each(func(v []byte) { buf = append(buf, v...) })
	return buf
}

// zeroMessage reports whether a plain message is its Go type's zero value
// (for omitzero): no repeated, map or bytes field present, and every
// scalar and message field absent or zero, the last occurrence of a scalar
// winning and occurrences of a message merging.
func (d *decoder) zeroMessage(p *msgPlan, data []byte) bool {
	nonZero := map[int]bool{}
	var msgs []*fieldPlan
	for b := data; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return false
		}
		val := b[:m]
		b = b[m:]
		f := p.field(num)
		if f == nil || f.skipJSON {
			continue
		}
		if f.list || f.isMap || f.kind == protoreflect.BytesKind {
			return false
		}
		switch typ {
		case protowire.VarintType:
			v, _ := protowire.ConsumeVarint(val)
			nonZero[f.index] = v != 0
		case protowire.Fixed32Type:
			v, _ := protowire.ConsumeFixed32(val)
			nonZero[f.index] = v != 0
		case protowire.Fixed64Type:
			v, _ := protowire.ConsumeFixed64(val)
			nonZero[f.index] = v != 0
		case protowire.BytesType:
			sub, _ := protowire.ConsumeBytes(val)
			switch {
			case f.kind == protoreflect.StringKind:
				nonZero[f.index] = len(sub) != 0
			case !mergesOnDuplicate(f.msg):
				_, zero, err := d.value(f.msg, sub)
				nonZero[f.index] = err != nil || !zero
			default:
				if _, ok := nonZero[f.index]; !ok {
					msgs = append(msgs, f)
				}
				nonZero[f.index] = false
			}
		default:
			return false
		}
	}
	for _, nz := range nonZero {
		if nz {
			return false
		}
	}
	for _, f := range msgs {
		sub := mergeOccurrences(data, f.num)
		if f.msg.special != specNone {
			if _, zero, err := d.value(f.msg, sub); err != nil || !zero {
				return false
			}
		} else if !d.zeroMessage(f.msg, sub) {
			return false
		}
	}
	return true
}

// value decodes a message as its JSON value and reports whether it is its
// Go type's zero value (for omitzero; always false for plain messages).
func (d *decoder) value(p *msgPlan, data []byte) (any, bool, error) {
	switch p.special {
	case specTime:
		return decodeTime(data, false)
	case specMicroTime:
		return decodeTime(data, true)
	case specDuration:
		return decodeDuration(data)
	case specIntOrString:
		return decodeIntOrString(data)
	case specQuantity:
		return decodeQuantity(data)
	case specRawExtension:
		d.depth++
		defer func() { d.depth-- }()
		if d.depth > maxDepth {
			return nil, false, errDepth
		}
		return d.decodeRawJSON(data, true)
	case specFieldsV1:
		return d.decodeRawJSON(data, false)
	case specSchemaOrBool, specSchemaOrArray, specSchemaOrStrings:
		tmp := make(map[string]any, 2)
		if err := d.message(p, data, tmp); err != nil {
			return nil, false, err
		}
		v, err := unionValue(p, tmp)
		return v, false, err
	case specArray:
		tmp := make(map[string]any, 1)
		if err := d.message(p, data, tmp); err != nil {
			return nil, false, err
		}
		// Generated code makes the slice when the message is present,
		// even empty: [] in JSON.
		if l, _ := tmp[p.items.key].([]any); len(l) > 0 {
			return l, false, nil
		}
		return []any{}, false, nil
	}
	m := make(map[string]any)
	if err := d.message(p, data, m); err != nil {
		return nil, false, err
	}
	return m, len(data) == 0, nil
}

// element decodes one element of a repeated field.
func (d *decoder) element(f *fieldPlan, b []byte) (any, int, error) {
	switch f.kind {
	case protoreflect.MessageKind:
		sub, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, 0, wireError(n)
		}
		v, _, err := d.value(f.msg, sub)
		return v, n, err
	case protoreflect.BytesKind:
		raw, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, 0, wireError(n)
		}
		return base64.StdEncoding.EncodeToString(raw), n, nil
	}
	return d.scalar(f.kind, f.wireType, b)
}

// mapEntry decodes one map entry: the key as a JSON object key, the value
// as the JSON encoding of a Go map value (absent values are zero).
func (d *decoder) mapEntry(f *fieldPlan, b []byte) (string, any, error) {
	var key, val any
	keySeen, valSeen := false, false
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", nil, wireError(n)
		}
		b = b[n:]
		var ef *fieldPlan
		switch num {
		case 1:
			ef = f.mapKey
		case 2:
			ef = f.mapVal
		default:
			m := protowire.ConsumeFieldValue(num, typ, b)
			if m < 0 {
				return "", nil, wireError(m)
			}
			b = b[m:]
			continue
		}
		if typ != ef.wireType {
			return "", nil, fmt.Errorf("wrong wire type %d in map entry", typ)
		}
		v, m, err := d.element(ef, b)
		if err != nil {
			return "", nil, err
		}
		b = b[m:]
		if num == 1 {
			key, keySeen = v, true
		} else {
			val, valSeen = v, true
		}
	}
	if !keySeen {
		key = zeroScalar(f.mapKey.kind)
	}
	if !valSeen {
		switch f.mapVal.kind {
		case protoreflect.BytesKind:
			val = nil
		case protoreflect.MessageKind:
			v, _, err := d.value(f.mapVal.msg, nil)
			if err != nil {
				return "", nil, err
			}
			val = v
		default:
			val = zeroScalar(f.mapVal.kind)
		}
	}
	var k string
	switch kv := key.(type) {
	case string:
		k = kv
	case bool:
		k = strconv.FormatBool(kv)
	case int64:
		k = strconv.FormatInt(kv, 10)
	case float64: // uint64 beyond int64
		k = strconv.FormatUint(uint64(kv), 10)
	}
	return k, val, nil
}

// scalar decodes one scalar value of kind k and wire type typ.
func (d *decoder) scalar(k protoreflect.Kind, typ protowire.Type, b []byte) (any, int, error) {
	switch typ {
	case protowire.VarintType:
		x, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, 0, wireError(n)
		}
		switch k {
		case protoreflect.BoolKind:
			return x != 0, n, nil
		case protoreflect.Int32Kind, protoreflect.EnumKind:
			return int64(int32(x)), n, nil
		case protoreflect.Sint32Kind:
			return int64(int32(protowire.DecodeZigZag(x & math.MaxUint32))), n, nil
		case protoreflect.Uint32Kind:
			return int64(uint32(x)), n, nil
		case protoreflect.Int64Kind:
			return int64(x), n, nil
		case protoreflect.Sint64Kind:
			return protowire.DecodeZigZag(x), n, nil
		case protoreflect.Uint64Kind:
			return uint64JSON(x), n, nil
		}
	case protowire.Fixed32Type:
		x, n := protowire.ConsumeFixed32(b)
		if n < 0 {
			return nil, 0, wireError(n)
		}
		switch k {
		case protoreflect.Fixed32Kind:
			return int64(x), n, nil
		case protoreflect.Sfixed32Kind:
			return int64(int32(x)), n, nil
		case protoreflect.FloatKind:
			v, err := float32JSON(math.Float32frombits(x))
			return v, n, err
		}
	case protowire.Fixed64Type:
		x, n := protowire.ConsumeFixed64(b)
		if n < 0 {
			return nil, 0, wireError(n)
		}
		switch k {
		case protoreflect.Fixed64Kind:
			return uint64JSON(x), n, nil
		case protoreflect.Sfixed64Kind:
			return int64(x), n, nil
		case protoreflect.DoubleKind:
			v, err := floatJSON(math.Float64frombits(x))
			return v, n, err
		}
	case protowire.BytesType:
		raw, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, 0, wireError(n)
		}
		switch k {
		case protoreflect.StringKind:
			if !utf8.Valid(raw) {
				return nil, 0, errUTF8
			}
			return string(raw), n, nil
		case protoreflect.BytesKind:
			return base64.StdEncoding.EncodeToString(raw), n, nil
		}
	}
	return nil, 0, fmt.Errorf("wrong wire type %d for %s", typ, k)
}

// uint64JSON is kapi's JSON model of an unsigned 64-bit integer: int64
// when it fits, float64 beyond.
func uint64JSON(x uint64) any {
	if x <= math.MaxInt64 {
		return int64(x)
	}
	return float64(x)
}

// magic starts every enveloped Kubernetes protobuf message: "k8s\x00".
var magic = []byte{0x6b, 0x38, 0x73, 0x00}

func hasMagic(data []byte) bool { return bytes.HasPrefix(data, magic) }
