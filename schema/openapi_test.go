package schema

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToOpenAPIRoundTrips(t *testing.T) {
	src := `{"type":"object","description":"d","required":["spec"],"properties":{"spec":{"type":"object","properties":{
		"n":{"type":"number","minimum":1.5,"maximum":3,"exclusiveMaximum":true,"multipleOf":0.5},
		"s":{"type":"string","maxLength":10,"minLength":1,"pattern":"^2","format":"date","enum":["2020-01-01"],"nullable":true,"default":"2020-01-01"},
		"l":{"type":"array","maxItems":2,"items":{"type":"object","properties":{"k":{"type":"string"}},"required":["k"]},"x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"]},
		"m":{"type":"object","additionalProperties":{"type":"integer"},"minProperties":1},
		"p":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]},
		"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"v":{"type":"string","x-kubernetes-validations":[{"rule":"self.size() > 1"}]}}}}}`
	s := mustSchema(t, src)
	b, err := json.Marshal(s)
	require.NoError(t, err)
	assert.JSONEq(t, src, string(b))

	var again Schema
	require.NoError(t, json.Unmarshal(b, &again))
	assert.Equal(t, s.ToOpenAPI(), again.ToOpenAPI())
}

func TestParseComponents(t *testing.T) {
	comps := map[string]any{
		"a.Thing": decode(t, `{"type":"object","properties":{
			"meta":{"description":"wrapped","default":{},"x-kubernetes-patch-strategy":"retainKeys","allOf":[{"$ref":"#/components/schemas/a.Meta"}]},
			"port":{"$ref":"#/components/schemas/x.IntOrString"},
			"raw":{"$ref":"#/components/schemas/io.k8s.apimachinery.pkg.runtime.RawExtension"},
			"self":{"$ref":"#/components/schemas/a.Thing"}}}`),
		"a.Meta":        decode(t, `{"type":"object","description":"plain","properties":{"name":{"type":"string"}}}`),
		"x.IntOrString": decode(t, `{"format":"int-or-string","oneOf":[{"type":"integer"},{"type":"string"}]}`),
		"io.k8s.apimachinery.pkg.runtime.RawExtension": decode(t, `{"type":"object"}`),
	}
	parsed, err := ParseComponents(comps)
	require.NoError(t, err)
	thing := parsed["a.Thing"]
	m := thing.Property("meta")
	assert.Equal(t, "wrapped", m.Description, "the wrapper's description wins")
	assert.Equal(t, map[string]any{}, m.DefaultValue)
	assert.Equal(t, "retainKeys", m.PatchStrategy(), "the wrapper's extensions are kept")
	assert.Equal(t, "string", m.Property("name").Type)
	assert.Equal(t, "plain", parsed["a.Meta"].Description, "the referenced component is not changed")
	assert.True(t, thing.Property("port").IsIntOrString())
	assert.True(t, thing.Property("raw").PreservesUnknownFields())
	assert.Same(t, thing.Property("self").Property("meta").Property("name"), m.Property("name"), "references share nodes, recursion included")

	obj := object(t, `{"meta":{"name":"n","x":1},"port":true,"raw":{"anything":[1]},"self":{"self":{"meta":{"y":2}}}}`)
	assert.Equal(t, []string{"meta.x", "self.self.meta.y"}, thing.Prune(obj, false))
	assert.Equal(t, []string{`port: Invalid value: "boolean": port in body must be of type integer,string: "boolean"`}, messages(thing.Validate(obj)))
	out := thing.ToOpenAPI()
	assert.Equal(t, map[string]any{"x-kubernetes-preserve-unknown-fields": true}, out["properties"].(map[string]any)["self"].(map[string]any)["properties"].(map[string]any)["self"],
		"ToOpenAPI cuts cycles")

	_, err = ParseComponents(map[string]any{"a": decode(t, `{"$ref":"#/components/schemas/missing"}`)})
	assert.ErrorContains(t, err, `unknown component "#/components/schemas/missing"`)
}
