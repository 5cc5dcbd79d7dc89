package schema

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

const crdPath = "spec.validation.openAPIV3Schema"

func parseErrors(t *testing.T, src string) []string {
	t.Helper()
	_, _, err := ParseWithOptions(decode(t, src), ParseOptions{FieldPath: crdPath, StructPath: "spec.versions.schema.openAPIV3Schema"})
	if err == nil {
		return nil
	}
	var fe meta.FieldErrors
	require.True(t, errors.As(err, &fe), "%T: %v", err, err)
	return messages(fe)
}

// Expected errors observed on kube-apiserver v1.33.13 (POST of a v1 CRD
// whose versions share the schema, hence "spec.validation.openAPIV3Schema").
func TestParse(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		want   []string
	}{
		{"a complete structural schema parses", `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"array","items":{"type":"string"}}}}}}`, nil},
		{"structural errors come first, sorted, then the OpenAPI rules of CRDs",
			`{"type":"object","properties":{"spec":{"properties":{"a":{"type":"array"},"b":{"type":"string","pattern":"["},"e":{"type":"object","properties":{"q":{"type":"string"}},"additionalProperties":false},"n":{"type":"object","allOf":[{"properties":{"zz":{"type":"string"}}}]}, "o":{"type":"string","anyOf":[{"type":"string"}]},"metadata":{"type":"object"}}},"metadata":{"type":"object","properties":{"name":{"type":"string","maxLength":5},"labels":{"type":"object"}}}}}`,
			[]string{
				crdPath + ".properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
				crdPath + ".properties[spec].properties[a].items: Required value: must be specified",
				crdPath + ".properties[spec].properties[b].pattern: Invalid value: \"[\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[`",
				crdPath + ".properties[spec].properties[n].allOf[0].properties[zz].type: Forbidden: must be empty to be structural",
				crdPath + ".properties[spec].properties[o].anyOf[0].type: Forbidden: must be empty to be structural",
				crdPath + ".properties[spec].type: Required value: must not be empty for specified object fields",
				crdPath + ".properties[spec].properties[e].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive",
			}},
		{"the OpenAPI rules of CRDs: no uniqueItems, $ref, null type; list and map types well formed",
			`{"type":"object","properties":{"spec":{"properties":{"b":{"type":"string","uniqueItems":true},"c":{"type":"array","items":{"type":"string"},"x-kubernetes-list-map-keys":["a"]},"d":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"}}},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","z"]},"h":{"type":"null"},"i":{"type":"foo"},"j":{"$ref":"#/x"},"k":{"type":"object","x-kubernetes-map-type":"bogus"},"l":{"type":"array","items":{"type":"string"},"x-kubernetes-list-type":"bogus"},"m":{"x-kubernetes-preserve-unknown-fields":false,"type":"object"}}}}}`,
			[]string{
				crdPath + ".properties[spec].properties[b].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
				crdPath + ".properties[spec].properties[c].x-kubernetes-list-type: Required value: must be map if x-kubernetes-list-map-keys is non-empty",
				crdPath + `.properties[spec].properties[d].x-kubernetes-list-map-keys: Invalid value: []string{"k", "z"}: entries must all be names of item properties`,
				crdPath + ".properties[spec].properties[d].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
				crdPath + `.properties[spec].properties[h].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				crdPath + ".properties[spec].properties[h].type: Forbidden: type cannot be set to null, use nullable as an alternative",
				crdPath + `.properties[spec].properties[i].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`,
				crdPath + ".properties[spec].properties[j].$ref: Forbidden: $ref is not supported",
				crdPath + `.properties[spec].properties[k].x-kubernetes-map-type: Unsupported value: "bogus": supported values: "atomic", "granular"`,
				crdPath + `.properties[spec].properties[l].x-kubernetes-list-type: Unsupported value: "bogus": supported values: "atomic", "set", "map"`,
				crdPath + ".properties[spec].properties[m].x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined",
			}},
		{"the root must be an object and carry no additionalProperties",
			`{"type":"array","items":{"type":"string"},"additionalProperties":{"type":"string"}}`,
			[]string{
				crdPath + ".additionalProperties: Forbidden: must not be used at the root",
				crdPath + `.type: Invalid value: "array": must be object at the root`,
			}},
		{"extensions must agree with types",
			`{"properties":{"x":{"type":"object","x-kubernetes-embedded-resource":true},"y":{"x-kubernetes-int-or-string":true,"x-kubernetes-preserve-unknown-fields":true}, "z":{"type":"string","x-kubernetes-list-type":"set"},"w":{"type":"array","items":{"type":"object"},"x-kubernetes-list-type":"set"},"v":{"type":"array","items":{"type":"string","nullable":true},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["a"]}}}`,
			[]string{
				crdPath + ".properties[x].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
				crdPath + ".properties[y].x-kubernetes-preserve-unknown-fields: Invalid value: true: must be false if x-kubernetes-int-or-string is true",
				crdPath + ".type: Required value: must not be empty at the root",
				crdPath + `.properties[v].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
				crdPath + ".properties[v].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is map",
				crdPath + `.properties[w].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
				crdPath + `.properties[z].type: Invalid value: "string": must be array if x-kubernetes-list-type is specified`,
			}},
		{"apiVersion and kind must be strings at the root (and defaults are not checked while the schema is not structural)",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"f":{"type":"string","default":5}}},"apiVersion":{"type":"integer"}}}`,
			[]string{crdPath + `.properties[apiVersion].type: Invalid value: "integer": must be string`}},
		{"defaults must be pruned and valid, and are forbidden in top-level metadata",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"f":{"type":"string","default":5},"g":{"type":"object","default":{"x":1},"properties":{"y":{"type":"string"}}},"h":{"type":"integer","default":"s","minimum":3}, "i":{"type":"object","properties":{"j":{"type":"integer","minimum":3}},"default":{"j":1}},"k":{"type":"array","items":{"type":"string","default":1}}}},"metadata":{"type":"object","default":{"name":"x"}}}}`,
			[]string{
				crdPath + `.properties[spec].properties[f].default: Invalid value: "integer":  in body must be of type string: "integer"`,
				crdPath + `.properties[spec].properties[g].default: Invalid value: map[string]interface {}{"x":1}: must not have unknown fields`,
				crdPath + `.properties[spec].properties[h].default: Invalid value: "string":  in body must be of type integer: "string"`,
				crdPath + `.properties[spec].properties[i].default.j: Invalid value: 1: j in body should be greater than or equal to 3`,
				crdPath + `.properties[spec].properties[k].items.default: Invalid value: "integer":  in body must be of type string: "integer"`,
				crdPath + `.properties[metadata].default: Forbidden: must not be set in top-level metadata`,
			}},
		{"only the root's value validations must name declared properties",
			`{"type":"object","properties":{"spec":{"type":"object","anyOf":[{"properties":{"zz":{}}}]}},"anyOf":[{"properties":{"qq":{}}}]}`,
			[]string{crdPath + ".properties[qq]: Required value: because it is defined in " + crdPath + ".anyOf[0].properties[qq]"}},
		{"an embedded resource's metadata may have defaults",
			`{"type":"object","properties":{"spec":{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true,"properties":{"metadata":{"type":"object","properties":{"name":{"type":"string","default":"x"}}}}}}}}}`,
			nil},
		{"the int-or-string anyOf pattern is structural",
			`{"type":"object","properties":{"p":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`, nil},
		{"nullable is forbidden at the root", `{"type":"object","nullable":true}`,
			[]string{crdPath + ".nullable: Forbidden: nullable cannot be true at the root"}},
		{"$schema cannot be made structural, reported when nothing else is wrong", `{"type":"object","$schema":"x"}`,
			[]string{crdPath + `: Invalid value: "": OpenAPIV3Schema 'schema' is not supported`}},
		{"id is forbidden", `{"type":"object","properties":{"a":{"type":"string","id":"x"}}}`,
			[]string{crdPath + ".properties[a].id: Forbidden: id is not supported"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, parseErrors(t, tt.schema))
		})
	}
}

func TestParseKeywordOfTheWrongJSONTypeIsADecodeError(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"a number for a type", `{"type":"object","properties":{"spec":{"type":5}}}`,
			"json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.type of type string"},
		{"a string for required", `{"type":"object","properties":{"spec":{"type":"object","required":"a"}}}`,
			"json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.required of type []string"},
		{"a fraction for maxLength", `{"type":"string","maxLength":1.5}`,
			"json: cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.maxLength of type int64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseWithOptions(decode(t, tt.schema), ParseOptions{StructPath: "spec.versions.schema.openAPIV3Schema"})
			var de *DecodeError
			require.True(t, errors.As(err, &de), "%v", err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestParseReportsUnknownKeywords(t *testing.T) {
	s, unknown, err := ParseWithOptions(decode(t, `{"type":"object","foo":1,"properties":{"spec":{"type":"object","bar":2,"allOf":[{"baz":3}]}}}`), ParseOptions{})
	require.NoError(t, err)
	require.NotNil(t, s)
	assert.Equal(t, []string{"foo", "properties.spec.allOf[0].baz", "properties.spec.bar"}, unknown,
		"kube warns `unknown field \"spec.versions[0].schema.openAPIV3Schema.properties.spec.bar\"`")
}

func TestParseWithStatusSubresourceRestrictsTheRoot(t *testing.T) {
	_, _, err := ParseWithOptions(decode(t, `{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"string"}}}`),
		ParseOptions{StatusSubresource: true, FieldPath: "openAPIV3Schema"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "openAPIV3Schema: Invalid value: only [Description Type Format Title")
}

func TestParseNonStructuralAcceptsPublishedSchemas(t *testing.T) {
	s, _, err := ParseWithOptions(decode(t, `{"properties":{"a":{"uniqueItems":true,"items":{}},"q":{"oneOf":[{"type":"string"},{"type":"number"}]}}}`),
		ParseOptions{NonStructural: true})
	require.NoError(t, err)
	assert.Empty(t, s.Validate(object(t, `{"q":0.5}`)))
	assert.NotEmpty(t, s.Validate(object(t, `{"q":true}`)))

	_, _, err = ParseWithOptions(decode(t, `{"pattern":"("}`), ParseOptions{NonStructural: true})
	assert.ErrorContains(t, err, "pattern: Invalid value: \"(\": must be a valid regular expression")
}

func TestParseNormalizesNumbers(t *testing.T) {
	s := MustParse(map[string]any{"type": "object", "properties": map[string]any{
		"n": map[string]any{"type": "integer", "default": float64(3), "enum": []any{float64(3), 1.5}},
	}})
	n := s.Property("n")
	assert.Equal(t, int64(3), n.DefaultValue, "integral float64 defaults become int64, like decoded objects")
	assert.Equal(t, []any{int64(3), 1.5}, n.Enum)
}

func TestParseOfNothing(t *testing.T) {
	s, err := Parse(nil)
	require.Error(t, err, "an empty schema has no type at the root")
	assert.Nil(t, s)
	var fe meta.FieldErrors
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "type: Required value: must not be empty at the root", fe[0].Error())
}
