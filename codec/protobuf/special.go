package protobuf

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/quantity"
)

// Wire forms of the special types (see apimachinery's time_proto.go,
// micro_time_proto.go, intstr and quantity_proto.go):
//
//	Time        {seconds=1 int64, nanos=2 int32}  "2006-01-02T15:04:05Z" (nanos are neither written nor read)
//	MicroTime   {seconds=1 int64, nanos=2 int32}  "2006-01-02T15:04:05.000000Z"
//	Duration    {duration=1 int64}                "1h0m0s"
//	IntOrString {type=1 int64, intVal=2 int32, strVal=3 string}  number or string
//	Quantity    {string=1 string}                 "100Mi"
//	RawExtension{raw=1 bytes}                     the JSON held in raw
//	FieldsV1    {Raw=1 bytes}                     the JSON held in Raw
//
// A zero Time or MicroTime is an empty message and JSON null.

// microTimeFormat is the JSON format of metav1.MicroTime.
const microTimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// Seconds since the Unix epoch of 0000-01-01T00:00:00Z and
// 9999-12-31T23:59:59Z: times outside cannot be written in RFC 3339.
const (
	minTimeSec = -62167219200
	maxTimeSec = 253402300799
)

var errTimeRange = errors.New("time outside years 0000-9999")

// scanFields walks the fields of a small fixed-layout message, calling fn
// for each varint (v) or length-delimited (b) field; others are skipped.
func scanFields(data []byte, fn func(num protowire.Number, typ protowire.Type, v uint64, b []byte) error) error {
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return wireError(n)
		}
		data = data[n:]
		var v uint64
		var b []byte
		switch typ {
		case protowire.VarintType:
			v, n = protowire.ConsumeVarint(data)
		case protowire.BytesType:
			b, n = protowire.ConsumeBytes(data)
		default:
			n = protowire.ConsumeFieldValue(num, typ, data)
		}
		if n < 0 {
			return wireError(n)
		}
		data = data[n:]
		if typ == protowire.VarintType || typ == protowire.BytesType {
			if err := fn(num, typ, v, b); err != nil {
				return err
			}
		}
	}
	return nil
}

func wantType(name string, got, want protowire.Type) error {
	if got != want {
		return fmt.Errorf("wrong wire type %d for field %s", got, name)
	}
	return nil
}

func decodeTimestamp(data []byte) (sec int64, nanos int32, err error) {
	err = scanFields(data, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
		switch num {
		case 1:
			sec = int64(v)
			return wantType("seconds", typ, protowire.VarintType)
		case 2:
			nanos = int32(v)
			return wantType("nanos", typ, protowire.VarintType)
		}
		return nil
	})
	return sec, nanos, err
}

// decodeTime returns the JSON form of a Time or MicroTime message and
// whether it is the zero time.
func decodeTime(data []byte, micro bool) (any, bool, error) {
	if len(data) == 0 {
		return nil, true, nil
	}
	sec, nanos, err := decodeTimestamp(data)
	if err != nil {
		return nil, false, err
	}
	if sec < minTimeSec || sec > maxTimeSec {
		return nil, false, errTimeRange
	}
	var t time.Time
	if micro {
		t = time.Unix(sec, int64(time.Duration(nanos).Truncate(time.Microsecond))).UTC()
	} else {
		t = time.Unix(sec, 0).UTC()
	}
	if t.IsZero() {
		return nil, true, nil
	}
	if y := t.Year(); y < 0 || y > 9999 {
		return nil, false, errTimeRange
	}
	if micro {
		return t.Format(microTimeFormat), false, nil
	}
	return t.Format(meta.TimeFormat), false, nil
}

// appendTime appends a Time or MicroTime message (without tag and length)
// for the JSON value v (a string or nil).
func appendTime(b []byte, v any, micro bool) ([]byte, error) {
	if v == nil {
		return b, nil
	}
	s, ok := v.(string)
	if !ok {
		return b, fmt.Errorf("expected an RFC 3339 time string, got %s", jsonType(v))
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return b, fmt.Errorf("invalid time %q: %v", s, err)
	}
	if t.IsZero() {
		return b, nil
	}
	var nanos int64
	if micro {
		nanos = int64(time.Duration(t.Nanosecond()).Truncate(time.Microsecond))
	}
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(t.Unix()))
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(nanos)), nil
}

func decodeDuration(data []byte) (any, bool, error) {
	var d int64
	err := scanFields(data, func(num protowire.Number, typ protowire.Type, v uint64, _ []byte) error {
		if num == 1 {
			d = int64(v)
			return wantType("duration", typ, protowire.VarintType)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	return time.Duration(d).String(), d == 0, nil
}

func appendDuration(b []byte, v any) ([]byte, error) {
	var d time.Duration
	switch v := v.(type) {
	case nil:
	case string:
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			return b, fmt.Errorf("invalid duration %q: %v", v, err)
		}
	default:
		return b, fmt.Errorf("expected a duration string, got %s", jsonType(v))
	}
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(d)), nil
}

func decodeIntOrString(data []byte) (any, bool, error) {
	var typ, intVal int64
	var strVal string
	err := scanFields(data, func(num protowire.Number, wt protowire.Type, v uint64, b []byte) error {
		switch num {
		case 1:
			typ = int64(v)
			return wantType("type", wt, protowire.VarintType)
		case 2:
			intVal = int64(int32(v))
			return wantType("intVal", wt, protowire.VarintType)
		case 3:
			if err := wantType("strVal", wt, protowire.BytesType); err != nil {
				return err
			}
			if !utf8.Valid(b) {
				return errUTF8
			}
			strVal = string(b)
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	zero := typ == 0 && intVal == 0 && strVal == ""
	switch typ {
	case 0:
		return intVal, zero, nil
	case 1:
		return strVal, zero, nil
	}
	return nil, false, fmt.Errorf("invalid IntOrString type %d", typ)
}

func appendIntOrString(b []byte, v any) ([]byte, error) {
	var typ, intVal int64
	var strVal string
	switch x := v.(type) {
	case nil:
	case string:
		typ, strVal = 1, x
	default:
		n, err := asInt(v, math.MinInt32, math.MaxInt32)
		if err != nil {
			return b, fmt.Errorf("expected an integer or a string: %v", err)
		}
		intVal = n
	}
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(typ))
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(intVal))
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendString(b, strVal), nil
}

func decodeQuantity(data []byte) (any, bool, error) {
	s, found := "", false
	err := scanFields(data, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
		if num == 1 {
			if err := wantType("string", typ, protowire.BytesType); err != nil {
				return err
			}
			s, found = string(b), true
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if !found {
		return "0", true, nil
	}
	q, err := quantity.Parse(s)
	if err != nil {
		return nil, false, fmt.Errorf("invalid quantity %q", s)
	}
	return s, q.Sign() == 0, nil
}

func appendQuantity(b []byte, v any) ([]byte, error) {
	var s string
	switch x := v.(type) {
	case nil:
		s = "0"
	case string:
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		n, err := asInt(v, math.MinInt64, math.MaxInt64)
		if err != nil {
			return b, fmt.Errorf("expected a quantity string, got %s", jsonType(v))
		}
		s = strconv.FormatInt(n, 10)
	}
	if _, err := quantity.Parse(s); err != nil {
		return b, fmt.Errorf("invalid quantity %q", s)
	}
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendString(b, s), nil
}

// decodeRawJSON returns the JSON value held in a RawExtension or FieldsV1
// message. A RawExtension may hold an enveloped protobuf object instead
// (watch events do): d decodes it.
func (d *decoder) decodeRawJSON(data []byte, allowProto bool) (any, bool, error) {
	var raw []byte
	found := false
	err := scanFields(data, func(num protowire.Number, typ protowire.Type, _ uint64, b []byte) error {
		if num == 1 {
			if err := wantType("raw", typ, protowire.BytesType); err != nil {
				return err
			}
			raw, found = b, true
		}
		return nil
	})
	if err != nil {
		return nil, false, err
	}
	if !found || len(raw) == 0 {
		return nil, !found, nil
	}
	if allowProto && hasMagic(raw) {
		obj, err := d.envelope(raw)
		if err != nil {
			return nil, false, err
		}
		return obj, false, nil
	}
	v, err := codec.DecodeJSONValue(raw)
	if err != nil {
		return nil, false, fmt.Errorf("embedded JSON: %v", err)
	}
	return v, false, nil
}

func appendRawJSON(b []byte, v any) ([]byte, error) {
	if v == nil {
		return b, nil
	}
	raw, err := codec.AppendJSON(nil, v)
	if err != nil {
		return b, fmt.Errorf("embedded JSON: %v", err)
	}
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendBytes(b, raw), nil
}

// jsonType names the JSON type of v for errors.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any, meta.Object:
		return "object"
	case []any:
		return "array"
	case int64, int, int32, float64, float32, json.Number, uint64, uint32, int16, int8, uint16, uint8, uint:
		return "number"
	}
	return fmt.Sprintf("%T", v)
}

// asInt reads an integer in [lo, hi] from a JSON number.
func asInt(v any, lo, hi int64) (int64, error) {
	var n int64
	switch x := v.(type) {
	case int64:
		n = x
	case int:
		n = int64(x)
	case int32:
		n = int64(x)
	case int16:
		n = int64(x)
	case int8:
		n = int64(x)
	case uint8:
		n = int64(x)
	case uint16:
		n = int64(x)
	case uint32:
		n = int64(x)
	case uint:
		if uint64(x) > math.MaxInt64 {
			return 0, fmt.Errorf("number %d out of range", x)
		}
		n = int64(x)
	case uint64:
		if x > math.MaxInt64 {
			return 0, fmt.Errorf("number %d out of range", x)
		}
		n = int64(x)
	case float64:
		if x != math.Trunc(x) || x < -(1<<63) || x >= 1<<63 {
			return 0, fmt.Errorf("number %v is not an integer", x)
		}
		n = int64(x)
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			return 0, fmt.Errorf("number %s is not an integer", x)
		}
		n = i
	default:
		return 0, fmt.Errorf("expected a number, got %s", jsonType(v))
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("number %d out of range", n)
	}
	return n, nil
}

// asUint reads an unsigned integer up to hi.
func asUint(v any, hi uint64) (uint64, error) {
	switch x := v.(type) {
	case uint64:
		if x > hi {
			return 0, fmt.Errorf("number %d out of range", x)
		}
		return x, nil
	case float64:
		if x != math.Trunc(x) || x < 0 || x > 1<<64 {
			return 0, fmt.Errorf("number %v is not an unsigned integer", x)
		}
		if x == 1<<64 {
			// float64(math.MaxUint64) rounds up to 2^64: kapi's JSON model
			// holds integers beyond int64 as float64.
			if hi != math.MaxUint64 {
				return 0, fmt.Errorf("number %v out of range", x)
			}
			return math.MaxUint64, nil
		}
		if uint64(x) > hi {
			return 0, fmt.Errorf("number %v out of range", x)
		}
		return uint64(x), nil
	case json.Number:
		u, err := strconv.ParseUint(x.String(), 10, 64)
		if err != nil || u > hi {
			return 0, fmt.Errorf("number %s out of range", x)
		}
		return u, nil
	}
	n, err := asInt(v, 0, math.MaxInt64)
	if err != nil {
		return 0, err
	}
	if uint64(n) > hi {
		return 0, fmt.Errorf("number %d out of range", n)
	}
	return uint64(n), nil
}

// asFloat reads a JSON number as float64.
func asFloat(v any) (float64, error) {
	switch x := v.(type) {
	case float64:
		return x, nil
	case float32:
		return float64(x), nil
	case json.Number:
		return x.Float64()
	}
	n, err := asInt(v, math.MinInt64, math.MaxInt64)
	if err != nil {
		if u, ok := v.(uint64); ok {
			return float64(u), nil
		}
		return 0, err
	}
	return float64(n), nil
}

// float32JSON is floatJSON for a float field: encoding/json prints it
// with 32-bit precision.
func float32JSON(f float32) (any, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return nil, fmt.Errorf("unsupported number %v", f)
	}
	g, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return floatJSON(g)
}

// floatJSON is the value kapi's JSON decoder would produce for the JSON
// encoding of f: int64 when it prints as an integer that fits, else float64.
func floatJSON(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("unsupported number %v", f)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, nil
		}
	}
	return f, nil
}
