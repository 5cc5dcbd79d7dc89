package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestACRDsNestedSchemasAreKept holds the CRD kind's schema to kube's
// decoding of JSONSchemaProps: the schemas under items and
// additionalProperties (JSONSchemaPropsOrArray, JSONSchemaPropsOrBool,
// whose published schemas are untyped) are neither pruned nor reported as
// unknown fields, and the CRD is created with them; as kube-apiserver 1.33
// does, unknown keys there are dropped without a warning, even with
// fieldValidation=Strict (docs/kube-behaviour/08-fidelity.md).
func TestACRDsNestedSchemasAreKept(t *testing.T) {
	srv := newBuiltinServer(t)
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gadgets.nested.example.com"},
	"spec":{"group":"nested.example.com","scope":"Namespaced","names":{"plural":"gadgets","kind":"Gadget"},
	"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{
		"tags":{"type":"array","items":{"type":"string","bogus":1}},
		"labels":{"type":"object","additionalProperties":{"type":"string","bogus":true}},
		"open":{"type":"object","additionalProperties":true},
		"either":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}}}}}}}]}}`
	code, out := serve(t, srv, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict", "application/json", crd)
	require.Equal(t, http.StatusCreated, code, out)
	props := out["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, map[string]any{"type": "string"}, props["tags"].(map[string]any)["items"])
	assert.Equal(t, map[string]any{"type": "string"}, props["labels"].(map[string]any)["additionalProperties"])
	assert.Equal(t, true, props["open"].(map[string]any)["additionalProperties"])
}
