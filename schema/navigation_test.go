package schema

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNavigation(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"containers":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
			"x-kubernetes-patch-merge-key":"name","x-kubernetes-patch-strategy":"merge",
			"items":{"type":"object","required":["name"],"properties":{"name":{"type":"string"}}}},
		"selector":{"type":"object","x-kubernetes-map-type":"atomic","properties":{"a":{"type":"string"}}},
		"labels":{"type":"object","additionalProperties":{"type":"string"}}}}}}`)
	c := s.Property("spec").Property("containers")
	assert.Equal(t, "name", c.PatchMergeKey())
	assert.Equal(t, "merge", c.PatchStrategy())
	assert.Equal(t, "map", c.ListType())
	assert.Equal(t, []string{"name"}, c.ListMapKeys())
	assert.Equal(t, "string", c.ItemSchema().Property("name").Type)
	assert.Equal(t, "atomic", s.Property("spec").Property("selector").MapType())
	assert.Equal(t, "string", s.Property("spec").Property("labels").Property("anything").Type, "undeclared keys get the additionalProperties schema")
	assert.Equal(t, []string{"containers", "labels", "selector"}, s.Property("spec").PropertyNames())

	var missing *Schema = s.Property("nope").Property("deeper")
	assert.Nil(t, missing, "lookups chain through missing fields")
	assert.Empty(t, missing.ListType())
	assert.Nil(t, missing.ItemSchema())
	assert.False(t, missing.PreservesUnknownFields())
}

func TestDerivedValuesAreBuiltOncePerParsedSchema(t *testing.T) {
	type key struct{}
	s := MustParse(map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}})
	builds := 0
	build := func() any { builds++; return builds }
	assert.Equal(t, 1, s.Derived(key{}, build))
	assert.Equal(t, 1, s.Derived(key{}, build), "the value is kept with the schema")
	assert.Equal(t, 1, builds)
	type other struct{}
	assert.Equal(t, 2, s.Derived(other{}, build), "another key, another value")

	hand := &Schema{Type: "object"}
	assert.Equal(t, 3, hand.Derived(key{}, build), "a hand-built schema keeps nothing")
	assert.Equal(t, 4, hand.Derived(key{}, build))
}

func TestDerivedIsSafeForConcurrentFirstCalls(t *testing.T) {
	type key struct{}
	s := MustParse(map[string]any{"type": "object"})
	var wg sync.WaitGroup
	got := make([]any, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = s.Derived(key{}, func() any { return new(int) })
		}()
	}
	wg.Wait()
	for _, v := range got {
		assert.Same(t, got[0].(*int), v.(*int), "every caller gets the one value kept")
	}
}
