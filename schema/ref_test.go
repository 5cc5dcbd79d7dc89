package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRefNameReadsOnlyComponentReferences(t *testing.T) {
	for ref, want := range map[string]struct {
		name string
		ok   bool
	}{
		"#/components/schemas/io.k8s.api.core.v1.Pod": {"io.k8s.api.core.v1.Pod", true},
		"#/definitions/io.k8s.api.core.v1.Pod":        {"", false},
		"#/components/schemas/":                       {"", false},
		"":                                            {"", false},
	} {
		name, ok := RefName(ref)
		assert.Equal(t, want.ok, ok, ref)
		if ok {
			assert.Equal(t, want.name, name, ref)
		}
	}
	assert.Equal(t, "#/components/schemas/X", Ref("X"), "Ref is RefName's inverse")
}

func TestRefOfFindsAReferenceOrKubesAllOfWrapperOfOne(t *testing.T) {
	for name, tc := range map[string]struct {
		schema map[string]any
		want   string
	}{
		"a reference":               {map[string]any{"$ref": "#/components/schemas/A"}, "#/components/schemas/A"},
		"an allOf wrapper":          {map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/A"}}, "default": map[string]any{}}, "#/components/schemas/A"},
		"an allOf of two schemas":   {map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/A"}, map[string]any{}}}, ""},
		"a schema written in place": {map[string]any{"type": "string"}, ""},
		"no schema":                 {nil, ""},
	} {
		assert.Equal(t, tc.want, RefOf(tc.schema), name)
	}
}

func TestRefsListsEveryComponentReferredToOnceSorted(t *testing.T) {
	doc := map[string]any{
		"properties": map[string]any{
			"b": map[string]any{"$ref": "#/components/schemas/B"},
			"a": map[string]any{"allOf": []any{map[string]any{"$ref": "#/components/schemas/A"}}},
			"l": map[string]any{"items": map[string]any{"$ref": "#/components/schemas/B"}},
			"x": map[string]any{"$ref": "#/definitions/NotAComponent"},
		},
	}
	assert.Equal(t, []string{"A", "B"}, Refs(doc))
	assert.Empty(t, Refs(map[string]any{"type": "object"}))
}
