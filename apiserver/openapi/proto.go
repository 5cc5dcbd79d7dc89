package openapi

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"sigs.k8s.io/yaml"
)

// ProtobufV2MediaType is what kube-apiserver answers /openapi/v2 with when
// asked for "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
// (or the same with "." for "@"), as kubectl 1.27 and 1.28 do.
const ProtobufV2MediaType = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"

// SwaggerV2Protobuf encodes a /openapi/v2 document (from SwaggerV2) in the
// protobuf form kube-apiserver serves: gnostic's openapi.v2.Document
// (github.com/google/gnostic-models, OpenAPIv2.proto), with vendor
// extensions, defaults, enums and examples as YAML in Any.yaml. kube sends
// it with the Hash of the JSON document as ETag. Only the parts of Swagger
// 2.0 that SwaggerV2 produces are encoded.
func SwaggerV2Protobuf(v2 *Document) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(v2.JSON, &doc); err != nil {
		return nil, err
	}
	e := &pbEncoder{}
	b := e.document(doc)
	if e.err != nil {
		return nil, e.err
	}
	return b, nil
}

type pbEncoder struct{ err error }

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendMessage(b []byte, num protowire.Number, msg []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, msg)
}

func appendBool(b []byte, num protowire.Number, v any) []byte {
	if t, _ := v.(bool); t {
		b = protowire.AppendTag(b, num, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	return b
}

func appendInt(b []byte, num protowire.Number, v any) []byte {
	f, ok := v.(float64)
	if !ok || f == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(int64(f)))
}

func appendDouble(b []byte, num protowire.Number, v any) []byte {
	f, ok := v.(float64)
	if !ok || f == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(f))
}

func appendStrings(b []byte, num protowire.Number, v any) []byte {
	list, _ := v.([]any)
	for _, e := range list {
		if s, ok := e.(string); ok {
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendString(b, s)
		}
	}
	return b
}

// any encodes gnostic's Any: the value as YAML.
func (e *pbEncoder) any(v any) []byte {
	y, err := yaml.Marshal(v)
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("openapi: protobuf: %w", err)
	}
	return appendString(nil, 2, string(y))
}

// vendorExtensions encodes the x-… keys of m as repeated NamedAny.
func (e *pbEncoder) vendorExtensions(b []byte, num protowire.Number, m map[string]any) []byte {
	for _, k := range sortedKeys(m) {
		if !strings.HasPrefix(k, "x-") {
			continue
		}
		named := appendString(nil, 1, k)
		named = appendMessage(named, 2, e.any(m[k]))
		b = appendMessage(b, num, named)
	}
	return b
}

func (e *pbEncoder) document(d map[string]any) []byte {
	b := appendString(nil, 1, str(d, "swagger"))
	if info := obj(d["info"]); info != nil {
		ib := appendString(nil, 1, str(info, "title"))
		ib = appendString(ib, 2, str(info, "version"))
		b = appendMessage(b, 2, ib)
	}
	if paths := obj(d["paths"]); paths != nil {
		var pb []byte
		for _, p := range sortedKeys(paths) {
			named := appendString(nil, 1, p)
			named = appendMessage(named, 2, e.pathItem(obj(paths[p])))
			pb = appendMessage(pb, 2, named)
		}
		b = appendMessage(b, 8, pb)
	}
	if defs := obj(d["definitions"]); defs != nil {
		var db []byte
		for _, n := range sortedKeys(defs) {
			named := appendString(nil, 1, n)
			named = appendMessage(named, 2, e.schema(obj(defs[n])))
			db = appendMessage(db, 1, named)
		}
		b = appendMessage(b, 9, db)
	}
	security, _ := d["security"].([]any)
	for _, req := range security {
		var rb []byte
		rm := obj(req)
		for _, name := range sortedKeys(rm) {
			named := appendString(nil, 1, name)
			named = appendMessage(named, 2, appendStrings(nil, 1, rm[name]))
			rb = appendMessage(rb, 1, named)
		}
		b = appendMessage(b, 12, rb)
	}
	if sd := obj(d["securityDefinitions"]); sd != nil {
		var sb []byte
		for _, name := range sortedKeys(sd) {
			def := obj(sd[name])
			var item []byte
			if str(def, "type") == "apiKey" {
				ak := appendString(nil, 1, "apiKey")
				ak = appendString(ak, 2, str(def, "name"))
				ak = appendString(ak, 3, str(def, "in"))
				ak = appendString(ak, 4, str(def, "description"))
				item = appendMessage(nil, 2, ak)
			}
			named := appendString(nil, 1, name)
			named = appendMessage(named, 2, item)
			sb = appendMessage(sb, 1, named)
		}
		b = appendMessage(b, 13, sb)
	}
	return e.vendorExtensions(b, 16, d)
}

var pathMethods = []struct {
	name string
	num  protowire.Number
}{{"get", 2}, {"put", 3}, {"post", 4}, {"delete", 5}, {"options", 6}, {"head", 7}, {"patch", 8}}

func (e *pbEncoder) pathItem(it map[string]any) []byte {
	b := appendString(nil, 1, str(it, "$ref"))
	for _, m := range pathMethods {
		if op := obj(it[m.name]); op != nil {
			b = appendMessage(b, m.num, e.operation(op))
		}
	}
	b = e.parameters(b, 9, it["parameters"])
	return e.vendorExtensions(b, 10, it)
}

func (e *pbEncoder) operation(op map[string]any) []byte {
	b := appendStrings(nil, 1, op["tags"])
	b = appendString(b, 2, str(op, "summary"))
	b = appendString(b, 3, str(op, "description"))
	b = appendString(b, 5, str(op, "operationId"))
	b = appendStrings(b, 6, op["produces"])
	b = appendStrings(b, 7, op["consumes"])
	b = e.parameters(b, 8, op["parameters"])
	if rs := obj(op["responses"]); rs != nil {
		var rb []byte
		for _, code := range sortedKeys(rs) {
			if strings.HasPrefix(code, "x-") {
				continue
			}
			r := obj(rs[code])
			resp := appendString(nil, 1, str(r, "description"))
			if s := obj(r["schema"]); s != nil {
				resp = appendMessage(resp, 2, appendMessage(nil, 1, e.schema(s)))
			}
			value := appendMessage(nil, 1, resp)
			named := appendString(nil, 1, code)
			named = appendMessage(named, 2, value)
			rb = appendMessage(rb, 1, named)
		}
		rb = e.vendorExtensions(rb, 2, rs)
		b = appendMessage(b, 9, rb)
	}
	b = appendStrings(b, 10, op["schemes"])
	b = appendBool(b, 11, op["deprecated"])
	return e.vendorExtensions(b, 13, op)
}

// parameters encodes repeated ParametersItem.
func (e *pbEncoder) parameters(b []byte, num protowire.Number, v any) []byte {
	list, _ := v.([]any)
	for _, pv := range list {
		p := obj(pv)
		var item []byte
		if ref := str(p, "$ref"); ref != "" {
			item = appendMessage(nil, 2, appendString(nil, 1, ref))
		} else {
			item = appendMessage(nil, 1, e.parameter(p))
		}
		b = appendMessage(b, num, item)
	}
	return b
}

// parameter encodes gnostic's Parameter: a body parameter, or a query or
// path parameter (the only kinds SwaggerV2 declares).
func (e *pbEncoder) parameter(p map[string]any) []byte {
	in := str(p, "in")
	if in == "body" {
		bp := appendString(nil, 1, str(p, "description"))
		bp = appendString(bp, 2, str(p, "name"))
		bp = appendString(bp, 3, in)
		bp = appendBool(bp, 4, p["required"])
		if s := obj(p["schema"]); s != nil {
			bp = appendMessage(bp, 5, e.schema(s))
		}
		bp = e.vendorExtensions(bp, 6, p)
		return appendMessage(nil, 1, bp)
	}
	var sub []byte
	var which protowire.Number
	switch in {
	case "path": // PathParameterSubSchema: no allowEmptyValue, fields shifted by one
		which = 4
		sub = appendBool(nil, 1, p["required"])
		sub = appendString(sub, 2, in)
		sub = appendString(sub, 3, str(p, "description"))
		sub = appendString(sub, 4, str(p, "name"))
		sub = appendString(sub, 5, str(p, "type"))
		sub = appendString(sub, 6, str(p, "format"))
		sub = appendBool(sub, 19, p["uniqueItems"])
		sub = e.vendorExtensions(sub, 22, p)
	default: // query (and header/formData, declared by kube nowhere)
		which = 3
		sub = appendBool(nil, 1, p["required"])
		sub = appendString(sub, 2, in)
		sub = appendString(sub, 3, str(p, "description"))
		sub = appendString(sub, 4, str(p, "name"))
		sub = appendString(sub, 6, str(p, "type"))
		sub = appendString(sub, 7, str(p, "format"))
		sub = appendBool(sub, 20, p["uniqueItems"])
		sub = e.vendorExtensions(sub, 23, p)
	}
	nb := appendMessage(nil, which, sub)
	return appendMessage(nil, 2, nb)
}

func (e *pbEncoder) schema(s map[string]any) []byte {
	b := appendString(nil, 1, str(s, "$ref"))
	b = appendString(b, 2, str(s, "format"))
	b = appendString(b, 3, str(s, "title"))
	b = appendString(b, 4, str(s, "description"))
	if d, ok := s["default"]; ok {
		b = appendMessage(b, 5, e.any(d))
	}
	b = appendDouble(b, 6, s["multipleOf"])
	b = appendDouble(b, 7, s["maximum"])
	b = appendBool(b, 8, s["exclusiveMaximum"])
	b = appendDouble(b, 9, s["minimum"])
	b = appendBool(b, 10, s["exclusiveMinimum"])
	b = appendInt(b, 11, s["maxLength"])
	b = appendInt(b, 12, s["minLength"])
	b = appendString(b, 13, str(s, "pattern"))
	b = appendInt(b, 14, s["maxItems"])
	b = appendInt(b, 15, s["minItems"])
	b = appendBool(b, 16, s["uniqueItems"])
	b = appendInt(b, 17, s["maxProperties"])
	b = appendInt(b, 18, s["minProperties"])
	b = appendStrings(b, 19, s["required"])
	enum, _ := s["enum"].([]any)
	for _, v := range enum {
		b = appendMessage(b, 20, e.any(v))
	}
	switch ap := s["additionalProperties"].(type) {
	case bool:
		item := protowire.AppendTag(nil, 2, protowire.VarintType)
		item = protowire.AppendVarint(item, protowire.EncodeBool(ap))
		b = appendMessage(b, 21, item)
	case map[string]any:
		b = appendMessage(b, 21, appendMessage(nil, 1, e.schema(ap)))
	}
	switch t := s["type"].(type) {
	case string:
		b = appendMessage(b, 22, appendString(nil, 1, t))
	case []any:
		b = appendMessage(b, 22, appendStrings(nil, 1, t))
	}
	switch it := s["items"].(type) {
	case map[string]any:
		b = appendMessage(b, 23, appendMessage(nil, 1, e.schema(it)))
	case []any:
		var ib []byte
		for _, x := range it {
			ib = appendMessage(ib, 1, e.schema(obj(x)))
		}
		b = appendMessage(b, 23, ib)
	}
	all, _ := s["allOf"].([]any)
	for _, x := range all {
		b = appendMessage(b, 24, e.schema(obj(x)))
	}
	if props := obj(s["properties"]); props != nil {
		var pb []byte
		names := sortedKeys(props)
		sort.Strings(names)
		for _, n := range names {
			named := appendString(nil, 1, n)
			named = appendMessage(named, 2, e.schema(obj(props[n])))
			pb = appendMessage(pb, 1, named)
		}
		b = appendMessage(b, 25, pb)
	}
	b = appendBool(b, 27, s["readOnly"])
	if ex, ok := s["example"]; ok {
		b = appendMessage(b, 30, e.any(ex))
	}
	return e.vendorExtensions(b, 31, s)
}
