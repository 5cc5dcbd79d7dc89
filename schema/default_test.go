package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDefault(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"dflt":{"type":"string","default":"hello"},
		"nul":{"type":"string","nullable":true},
		"nonnul":{"type":"string"},
		"withDefault":{"type":"integer","default":5},
		"obj":{"type":"object","properties":{"inner":{"type":"object","default":{},"properties":{"d":{"type":"integer","default":3}}}}},
		"items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"},"v":{"type":"integer","default":7}}}},
		"list":{"type":"array","items":{"type":"string","default":"x"}},
		"labels":{"type":"object","additionalProperties":{"type":"string","default":"v"}}
	}}}}`)
	tests := []struct{ name, in, want string }{
		{"absent fields get their defaults", `{"spec":{}}`, `{"spec":{"dflt":"hello","withDefault":5}}`},
		{"a present field keeps its value", `{"spec":{"dflt":"mine","withDefault":1}}`, `{"spec":{"dflt":"mine","withDefault":1}}`},
		{"defaults apply inside defaults", `{"spec":{"obj":{}}}`, `{"spec":{"dflt":"hello","withDefault":5,"obj":{"inner":{"d":3}}}}`},
		{"defaults apply in list items", `{"spec":{"items":[{"name":"a"},{"name":"b","v":1}]}}`,
			`{"spec":{"dflt":"hello","withDefault":5,"items":[{"name":"a","v":7},{"name":"b","v":1}]}}`},
		{"a non-nullable null without default is dropped, a nullable one kept", `{"spec":{"nul":null,"nonnul":null}}`,
			`{"spec":{"dflt":"hello","withDefault":5,"nul":null}}`},
		{"a non-nullable null with a default gets the default", `{"spec":{"withDefault":null}}`, `{"spec":{"dflt":"hello","withDefault":5}}`},
		{"null items and map values get their schema's default", `{"spec":{"list":["a",null],"labels":{"k":null}}}`,
			`{"spec":{"dflt":"hello","withDefault":5,"list":["a","x"],"labels":{"k":"v"}}}`},
		{"a missing parent is not created", `{}`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, tt.in)
			s.Default(obj)
			assert.JSONEq(t, tt.want, toJSON(t, obj))
		})
	}
}

func TestDefaultCopiesTheDefault(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"o":{"type":"object","default":{"a":"b"},"properties":{"a":{"type":"string"}}}}}`)
	first, second := map[string]any{}, map[string]any{}
	s.Default(first)
	first["o"].(map[string]any)["a"] = "changed"
	s.Default(second)
	assert.Equal(t, "b", second["o"].(map[string]any)["a"], "changing a defaulted object does not change the schema")
	assert.Equal(t, map[string]any{"a": "b"}, s.Property("o").DefaultValue)
}

func TestPruneNullsDropsWhatGoTypesCannotHold(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"a":{"type":"string"},"b":{"type":"string","default":"x"},"c":{"type":"string","nullable":true},
		"m":{"type":"object","additionalProperties":{"type":"string","default":"v"}},
		"n":{"type":"object","additionalProperties":{"type":"string"}},
		"l":{"type":"array","items":{"type":"string"}}}}`)
	obj := object(t, `{"a":null,"b":null,"c":null,"m":{"k":null},"n":{"k":null},"l":[null]}`)
	s.PruneNulls(obj)
	assert.JSONEq(t, `{"c":null,"m":{"k":null},"n":{},"l":[null]}`, toJSON(t, obj),
		"map values with a default stay for Default; list items cannot be dropped")
	s.Default(obj)
	assert.JSONEq(t, `{"b":"x","c":null,"m":{"k":"v"},"n":{},"l":[null]}`, toJSON(t, obj))
}
