package schema

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kapi-dev/kapi/meta"
)

// fuzzSchema exercises every keyword the operations act on.
const fuzzSchema = `{"type":"object","properties":{
	"spec":{"type":"object","required":["size"],"minProperties":1,"maxProperties":30,"properties":{
		"size":{"type":"integer","minimum":1,"maximum":10,"multipleOf":2},
		"ratio":{"type":"number","multipleOf":0.5,"exclusiveMaximum":true,"maximum":5,"exclusiveMinimum":true,"minimum":-1},
		"name":{"type":"string","maxLength":5,"minLength":2,"pattern":"^[a-z]+$"},
		"color":{"type":"string","enum":["red","green",1,{"a":[1]}]},
		"when":{"type":"string","format":"date-time"},
		"ip":{"type":"string","format":"cidr"},
		"dur":{"type":"string","format":"duration"},
		"dflt":{"type":"string","default":"hello"},
		"nul":{"type":"object","nullable":true,"properties":{"a":{"type":"string","default":"x"}}},
		"port":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
		"tags":{"type":"array","items":{"type":"string","default":"t"},"maxItems":3,"minItems":1,"x-kubernetes-list-type":"set"},
		"objs":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"string"}}}},
		"items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name","n"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"n":{"type":"integer","default":0},"v":{"type":"integer","default":7}}}},
		"labels":{"type":"object","additionalProperties":{"type":"string","default":"v"}},
		"ap":{"type":"object","additionalProperties":false},
		"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"object","properties":{"a":{"type":"string"}}}}},
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"x":{"type":"string"}}}}},
		"either":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"oneOf":[{"required":["x"]},{"required":["y"]}],"not":{"required":["z"]},"allOf":[{"properties":{"x":{"maxLength":3}}}]},
		"nested":{"type":"array","items":{"type":"array","items":{"type":"object","properties":{"deep":{"type":"object","default":{},"properties":{"d":{"type":"integer","default":1}}}}}}}
	}},
	"status":{"type":"object","properties":{"phase":{"type":"string"}}}}}`

func fuzzDecode(data []byte, useNumber bool) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if useNumber {
		dec.UseNumber()
	}
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	if useNumber {
		v = normalizeJSON(v)
	}
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	return map[string]any{"spec": v}, true
}

func FuzzValidate(f *testing.F) {
	for _, seed := range []string{
		`{}`, `{"spec":{"size":2}}`, `{"spec":null}`, `[1,2]`, `"x"`,
		`{"apiVersion":"v1","kind":"K","metadata":{"name":"a","labels":{"a":"b"},"ownerReferences":[{"uid":"1","x":2}],"foo":1},"spec":{"size":"3","x":1}}`,
		`{"spec":{"size":3.5,"ratio":0.7,"name":"ABCDEFG","color":{"a":[1]},"when":"2020-01-01T00:00:00Z","ip":"10.0.0.01/8","dur":"3 days","nul":null,"port":1.5,"tags":["a","a",null],"objs":[{"a":"1"},{"a":"1"}],"items":[{"name":"a"},{"name":"a","n":0},{"v":1},null,3],"labels":{"a":null,"b":2},"ap":{"z":{"q":1}},"free":{"x":[{}],"known":{"a":1,"b":2}},"emb":{"kind":"9","apiVersion":"a/b/c","metadata":{"name":"..","namespace":"X","bogus":[]},"spec":{"y":1}},"either":{"x":"long","y":"b","z":1},"nested":[[{"deep":null},{}],null,[1]]}}`,
		`{"spec":{"size":9007199254740993,"ratio":1e308,"port":-0.0,"items":[{"name":"a","n":1.0},{"name":"a","n":1}]}}`,
	} {
		f.Add([]byte(seed), true)
		f.Add([]byte(seed), false)
	}
	s := MustParse(decodeString(fuzzSchema))
	f.Fuzz(func(t *testing.T, data []byte, useNumber bool) {
		obj, ok := fuzzDecode(data, useNumber)
		if !ok {
			return
		}
		s.Prune(obj, true)
		if again := s.Prune(obj, true); len(again) != 0 {
			t.Fatalf("pruning twice found more unknown fields: %v", again)
		}
		s.Default(obj)
		copied := meta.DeepCopyValue(obj)
		errs := s.Validate(obj)
		if !reflect.DeepEqual(copied, any(obj)) {
			t.Fatal("Validate changed the object")
		}
		if again := s.Validate(obj); !reflect.DeepEqual(messages(errs), messages(again)) {
			t.Fatalf("Validate is not deterministic:\n%v\n%v", errs, again)
		}
		for _, e := range errs {
			_ = e.Error()
		}
		if st := meta.Invalid(meta.GroupKind{Kind: "K"}, "n", errs); len(errs) > 0 && st.Details == nil {
			t.Fatal("no details")
		}
	})
}

func decodeString(src string) any {
	dec := json.NewDecoder(bytes.NewReader([]byte(src)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		panic(err)
	}
	return normalizeJSON(v)
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		fuzzSchema, `{}`, `null`, `[]`, `{"type":5}`, `{"type":"object","properties":{"a":{"$ref":"#/x"}}}`,
		`{"type":"object","properties":{"spec":{"properties":{"a":{"type":"array"},"b":{"type":"string","pattern":"["},"metadata":{"type":"object"}}},"metadata":{"type":"object","properties":{"name":{"type":"string"},"labels":{}}}}}`,
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"f":{"type":"string","default":5},"g":{"type":"object","default":{"x":1},"properties":{"y":{"type":"string"}}},"k":{"type":"array","items":{"type":"string","default":1}}}},"metadata":{"type":"object","default":{"name":"x"}}}}`,
		`{"properties":{"x":{"type":"object","x-kubernetes-embedded-resource":true,"default":{"kind":1}},"y":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true},"v":{"type":"array","items":{"type":"string","nullable":true},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","a"]}}}`,
		`{"type":"object","anyOf":[{"properties":{"q":{"items":{"not":{}}}}}],"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}],"items":[{}],"additionalProperties":{"additionalProperties":true}}`,
	} {
		f.Add([]byte(seed), false)
		f.Add([]byte(seed), true)
	}
	sample := []byte(`{"apiVersion":"v1","kind":"K","metadata":{"name":"a"},"spec":{"a":[1,"b",{"c":null}],"f":"x","x":{"kind":"k"}},"status":{}}`)
	f.Fuzz(func(t *testing.T, data []byte, nonStructural bool) {
		var v any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if dec.Decode(&v) != nil {
			return
		}
		s, _, err := ParseWithOptions(v, ParseOptions{NonStructural: nonStructural, FieldPath: "openAPIV3Schema"})
		if err != nil {
			_ = err.Error()
			if s != nil {
				t.Fatal("a schema with an error")
			}
			return
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if !nonStructural {
			var again Schema
			if err := json.Unmarshal(b, &again); err != nil {
				t.Fatalf("a parsed schema does not parse again: %v\n%s", err, b)
			}
		}
		for _, useNumber := range []bool{true, false} {
			obj, _ := fuzzDecode(sample, useNumber)
			s.Prune(obj, true)
			s.Default(obj)
			s.Validate(obj)
		}
		_ = s.Property("spec").ItemSchema().ListMapKeys()
	})
}
