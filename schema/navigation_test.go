package schema

import (
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
