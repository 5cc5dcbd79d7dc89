package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

// The expected messages below were observed on kube-apiserver v1.33.13
// (POST of custom resources, dryRun=All); kube lists them in a random order,
// kapi by the order documented on Validate.
func TestValidate(t *testing.T) {
	const spec = `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"size":{"type":"integer","minimum":1,"maximum":10,"format":"int32"},
		"ratio":{"type":"number","multipleOf":0.5,"exclusiveMaximum":true,"maximum":5},
		"name":{"type":"string","maxLength":5,"minLength":2,"pattern":"^[a-z]+$"},
		"color":{"type":"string","enum":["red","green"]},
		"num":{"type":"integer","enum":[1,2]},
		"when":{"type":"string","format":"date-time"},
		"day":{"type":"string","format":"date"},
		"raw":{"type":"string","format":"byte"},
		"uri":{"type":"string","format":"uri"},
		"mail":{"type":"string","format":"email"},
		"ip":{"type":"string","format":"ipv4"},
		"port":{"x-kubernetes-int-or-string":true},
		"flag":{"type":"boolean"},
		"tags":{"type":"array","items":{"type":"string"},"maxItems":2,"minItems":1,"x-kubernetes-list-type":"set"},
		"items":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"v":{"type":"integer","default":7}}}},
		"mk":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a","b"],"items":{"type":"object","required":["a"],"properties":{"a":{"type":"string"},"b":{"type":"integer","default":0}}}},
		"labels":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":2,"minProperties":1},
		"ap":{"type":"object","additionalProperties":false},
		"n":{"type":"number","minimum":1.5,"maximum":2,"exclusiveMinimum":true},
		"i":{"type":"integer","minimum":1,"multipleOf":3},
		"o":{"type":"object","properties":{"x":{"type":"string"}}},
		"e":{"type":"string","enum":["a",null],"nullable":true},
		"s":{"type":"string","minLength":3,"pattern":"^a"},
		"arr":{"type":"array","items":{"type":"string"},"minItems":2},
		"a":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"anyOf":[{"required":["x"]},{"required":["y"]}]},
		"b":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}},"oneOf":[{"required":["x"]},{"required":["y"]}]},
		"c":{"type":"string","not":{"enum":["bad"]}},
		"d":{"type":"string","allOf":[{"minLength":2},{"pattern":"^a"}]},
		"q":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}
	}},"status":{"type":"object","properties":{"phase":{"type":"string"}}}}}`
	s := mustSchema(t, spec)

	tests := []struct {
		name string
		obj  string
		want []string
	}{
		{"a valid object has no errors", `{"spec":{"size":3,"name":"abc","tags":["a","b"],"items":[{"name":"a","v":1},{"name":"b"}]}}`, nil},
		{"a string where an integer is expected is a type error naming the type found",
			`{"spec":{"size":"3"}}`,
			[]string{`spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`}},
		{"a float with an integral value is a valid integer", `{"spec":{"size":3.0}}`, nil},
		{"an integer is a valid number", `{"spec":{"n":2}}`, nil},
		{"a boolean where an int-or-string is expected names both types",
			`{"spec":{"port":true}}`,
			[]string{`spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"`}},
		{"bounds are checked, exclusive ones strictly", `{"spec":{"size":11,"n":1.5}}`, []string{
			`spec.n: Invalid value: 1.5: spec.n in body should be greater than 1.5`,
			`spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10`}},
		{"multipleOf is checked for integers and numbers", `{"spec":{"i":4,"ratio":0.7}}`, []string{
			`spec.i: Invalid value: 4: spec.i in body should be a multiple of 3`,
			`spec.ratio: Invalid value: 0.7: spec.ratio in body should be a multiple of 0.5`}},
		{"a long string is Too long in bytes though runes are counted, and other string checks stop there",
			`{"spec":{"name":"ABCDEFG"}}`, []string{`spec.name: Too long: may not be more than 5 bytes`}},
		{"multi-byte characters count once", `{"spec":{"name":"ééééé"}}`, []string{
			`spec.name: Invalid value: "ééééé": spec.name in body should match '^[a-z]+$'`}},
		{"a short string and a pattern mismatch are reported with the value", `{"spec":{"s":"b"}}`, []string{
			`spec.s: Invalid value: "b": spec.s in body should be at least 3 chars long`}},
		{"enum failures list the supported values, quoted", `{"spec":{"color":"blue","num":3}}`, []string{
			`spec.color: Unsupported value: "blue": supported values: "red", "green"`,
			`spec.num: Unsupported value: 3: supported values: "1", "2"`}},
		{"null never matches an enum, even a nullable one listing null", `{"spec":{"e":null}}`, []string{
			`spec.e: Unsupported value: "null": supported values: "a", "null"`}},
		{"formats kube validates are checked", `{"spec":{"when":"yesterday","day":"2020-13-01","raw":"!!","uri":"not a uri","mail":"x","ip":"1.2.3"}}`, []string{
			`spec.day: Invalid value: "2020-13-01": spec.day in body must be of type date: "2020-13-01"`,
			`spec.ip: Invalid value: "1.2.3": spec.ip in body must be of type ipv4: "1.2.3"`,
			`spec.mail: Invalid value: "x": spec.mail in body must be of type email: "x"`,
			`spec.raw: Invalid value: "!!": spec.raw in body must be of type byte: "!!"`,
			`spec.uri: Invalid value: "not a uri": spec.uri in body must be of type uri: "not a uri"`,
			`spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"`}},
		{"valid formats pass", `{"spec":{"when":"2024-01-02T03:04:05Z","day":"2024-02-29","raw":"aGVsbG8=","uri":"https://example.com/x","mail":"a@b.c","ip":"10.0.0.1"}}`, nil},
		{"a missing required field is Required value", `{"spec":{"items":[{"v":2}]}}`, []string{`spec.items[0].name: Required value`}},
		{"too many items and properties are Too many", `{"spec":{"tags":["a","b","c"],"labels":{"a":"1","b":"2","c":"3"}}}`, []string{
			`spec.labels: Too many: 3: must have at most 2 items`,
			`spec.tags: Too many: 3: must have at most 2 items`}},
		{"too few items and properties are Invalid value with the count", `{"spec":{"tags":[],"labels":{},"arr":["x"]}}`, []string{
			`spec.arr: Invalid value: 1: spec.arr in body should have at least 2 items`,
			`spec.labels: Invalid value: 0: spec.labels in body should have at least 1 properties`,
			`spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items`}},
		{"additionalProperties schemas check every value", `{"spec":{"labels":{"a":"1","b":2}}}`, []string{
			`spec.labels.b: Invalid value: "integer": spec.labels.b in body must be of type string: "integer"`}},
		{"additionalProperties false forbids every key", `{"spec":{"ap":{"z":1,"y":2}}}`, []string{
			`spec.ap: Invalid value: "y": spec.ap.y in body is a forbidden property`,
			`spec.ap: Invalid value: "z": spec.ap.z in body is a forbidden property`}},
		{"a null item is a type error", `{"spec":{"arr":["x",null]}}`, []string{
			`spec.arr[1]: Invalid value: "null": spec.arr[1] in body must be of type string: "null"`}},
		{"an object of the wrong type names the type found", `{"spec":{"o":"str"}}`, []string{
			`spec.o: Invalid value: "string": spec.o in body must be of type object: "string"`}},
		{"the root's properties are checked too", `{"spec":[1]}`, []string{
			`spec: Invalid value: "array": spec in body must be of type object: "array"`}},
		{"duplicate set items and map keys are Duplicate value, last", `{"spec":{"tags":["a","a"],"items":[{"name":"a"},{"name":"a"}],"mk":[{"a":"x","b":0},{"a":"x","b":0}]}}`, []string{
			`spec.items[1]: Duplicate value: map[string]interface {}{"name":"a"}`,
			`spec.mk[1]: Duplicate value: map[string]interface {}{"a":"x", "b":0}`,
			`spec.tags[1]: Duplicate value: "a"`}},
		{"anyOf, oneOf, allOf and not failures are reported on <nil> with the failing branch", `{"spec":{"a":{},"b":{"x":"1","y":"2"},"c":"bad","d":"b"}}`, []string{
			`<nil>: Invalid value: "": "spec.a" must validate at least one schema (anyOf)`,
			`spec.a.x: Required value`,
			`<nil>: Invalid value: "": "spec.b" must validate one and only one schema (oneOf). Found 2 valid alternatives`,
			`<nil>: Invalid value: "": "spec.c" must not validate the schema (not)`,
			`spec.d: Invalid value: "b": spec.d in body should be at least 2 chars long`,
			`spec.d: Invalid value: "b": spec.d in body should match '^a'`,
			`<nil>: Invalid value: "": "spec.d" must validate all the schemas (allOf). None validated`}},
		{"an int-or-string with its anyOf reports both type errors", `{"spec":{"q":1.5}}`, []string{
			`spec.q: Invalid value: "number": spec.q in body must be of type integer,string: "number"`,
			`<nil>: Invalid value: "": "spec.q" must validate at least one schema (anyOf)`,
			`spec.q: Invalid value: "number": spec.q in body must be of type integer: "number"`}},
		{"an embedded resource needs apiVersion and kind", `{"spec":{"emb":{"metadata":{"name":"a/b"}}}}`, []string{
			`spec.emb.apiVersion: Required value: must not be empty`,
			`spec.emb.kind: Required value: must not be empty`,
			`spec.emb.metadata.name: Invalid value: "a/b": may not contain '/'`}},
		{"an embedded resource's kind must look like a DNS-1035 label", `{"spec":{"emb":{"apiVersion":"a/b/c","kind":"9x"}}}`, []string{
			`spec.emb.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
			`spec.emb.kind: Invalid value: "9x": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			errs := s.Validate(object(t, tt.obj))
			assert.Equal(t, tt.want, nilIfEmpty(messages(errs)))
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestValidateCauses(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","required":["a"],"properties":{
		"a":{"type":"string"},"n":{"type":"integer","enum":[1]},"l":{"type":"string","maxLength":1},"m":{"type":"array","maxItems":1,"items":{"type":"string"}}}}}}`)
	errs := s.Validate(object(t, `{"spec":{"n":"x","l":"ab","m":["a","b"]}}`))
	st := meta.Invalid(meta.GroupKind{Group: "example.com", Kind: "Widget"}, "w", errs)
	var reasons []string
	for _, c := range st.Details.Causes {
		reasons = append(reasons, string(c.Type)+" "+c.Field)
	}
	assert.Equal(t, []string{
		"FieldValueTooLong spec.l",
		"FieldValueTooMany spec.m",
		"FieldValueTypeInvalid spec.n",
		"FieldValueNotSupported spec.n",
		"FieldValueRequired spec.a",
	}, reasons, "the cause reasons are those of kube's field errors")
}

func TestValidateValue(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"status":{"type":"object","properties":{"phase":{"type":"string"}}}}}`)
	status := s.Property("status")
	t.Run("a field path prefixes the fields, not the messages, as for the status subresource", func(t *testing.T) {
		errs := status.ValidateValue(decode(t, `{"phase":1}`), "status")
		assert.Equal(t, []string{`status.phase: Invalid value: "integer": phase in body must be of type string: "integer"`}, messages(errs))
	})
	t.Run("a scalar at the root is named by the prefix and the message starts with a blank name", func(t *testing.T) {
		errs := status.Property("phase").ValidateValue(int64(5), "x.default")
		assert.Equal(t, []string{`x.default: Invalid value: "integer":  in body must be of type string: "integer"`}, messages(errs))
	})
	t.Run("a nil schema accepts anything", func(t *testing.T) {
		var none *Schema
		assert.Empty(t, none.ValidateValue(map[string]any{"a": 1}, ""))
	})
}

func TestValidateNumberQuirks(t *testing.T) {
	tests := []struct {
		name, schema, value string
		want                []string
	}{
		{"integer bounds are truncated to integers, as kube compares them", `{"type":"integer","maximum":1.5}`, `2`,
			[]string{`x: Invalid value: 2: x in body should be less than or equal to 1`}},
		{"a multipleOf below one cannot divide an integer", `{"type":"integer","multipleOf":0.5}`, `2`,
			[]string{`x: Invalid value: 0: factor MultipleOf declared for x must be positive: 0`}},
		{"a float within bounds passes", `{"type":"number","minimum":0,"maximum":1}`, `0.5`, nil},
		{"int32 and int64 formats are not range-checked in 1.33", `{"type":"integer","format":"int32"}`, `99999999999`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := mustSchema(t, `{"type":"object","properties":{"x":`+tt.schema+`}}`)
			errs := root.Validate(object(t, `{"x":`+tt.value+`}`))
			assert.Equal(t, tt.want, nilIfEmpty(messages(errs)))
		})
	}
}

func TestValidateAcceptsEveryNumberType(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"i":{"type":"integer","minimum":1},"n":{"type":"number","maximum":3}}}`)
	for _, v := range []any{int(2), int32(2), int64(2), float64(2), float32(2)} {
		require.Empty(t, s.Validate(map[string]any{"i": v, "n": v}), "%T", v)
	}
}
