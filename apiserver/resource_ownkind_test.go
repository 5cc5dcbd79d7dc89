package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/schema"
)

// gadgetSchema is a kind of one's own, its schema written in YAML as in a
// CRD manifest.
const gadgetSchema = `
type: object
properties:
  spec:
    type: object
    properties:
      size: {type: integer, minimum: 1}
      color: {type: string, default: red}
  status:
    type: object
    properties:
      ready: {type: boolean, default: false}
`

// gadgets serves the kind at example.com/v1; component names an OpenAPI
// component, as apiserver/builtin does for kube's built-in kinds.
func gadgets(t *testing.T, component string) *testServer {
	t.Helper()
	srv, err := New(Config{Resources: []Resource{{
		Group: "example.com", Version: "v1", Kind: "Gadget", Plural: "gadgets", Namespaced: true,
		StatusSubresource: true, Schema: schema.MustParseYAML([]byte(gadgetSchema)), OpenAPIComponent: component,
	}}})
	require.NoError(t, err)
	return newTestServerFor(t, srv)
}

const gadgetsPath = "/apis/example.com/v1/namespaces/default/gadgets"

// A kind of one's own is served as kube serves a custom resource of a CRD
// with the same schema; a built-in kind keeps kube's typed behaviour.
func TestAKindOfOnesOwnIsServedAsACustomResource(t *testing.T) {
	t.Run("its YAML schema defaults, prunes and validates", func(t *testing.T) {
		ts := gadgets(t, "")
		r := ts.do("POST", gadgetsPath, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":2,"shape":"round"}}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.Equal(t, map[string]any{"size": float64(2), "color": "red"}, r.body["spec"])
		r = ts.do("POST", gadgetsPath, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"h"},"spec":{"size":0}}`)
		assert.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.raw))
		assert.Equal(t, `Gadget.example.com "h" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1`, r.body["message"])
	})
	t.Run("a create with the status subresource stores no status, as for a custom resource", func(t *testing.T) {
		ts := gadgets(t, "")
		r := ts.do("POST", gadgetsPath, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":2},"status":{"ready":true}}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.NotContains(t, r.body, "status")
		assert.NotContains(t, ts.do("GET", gadgetsPath+"/g", "").body, "status")
	})
	t.Run("a built-in kind's create resets its status to its schema's defaults", func(t *testing.T) {
		ts := gadgets(t, "io.example.Gadget")
		r := ts.do("POST", gadgetsPath, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"},"spec":{"size":2},"status":{"ready":true}}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.Equal(t, map[string]any{"ready": false}, r.body["status"])
	})
	t.Run("its table shows Age, as kube's for a CRD without printer columns", func(t *testing.T) {
		ts := gadgets(t, "")
		require.Equal(t, http.StatusCreated, ts.do("POST", gadgetsPath, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"}}`).code)
		cols := ts.do("GET", gadgetsPath, "", "Accept", tableAccept).body["columnDefinitions"].([]any)
		require.Len(t, cols, 2)
		assert.Equal(t, map[string]any{"name": "Age", "type": "date", "format": "", "priority": float64(0),
			"description": "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp"}, cols[1])
	})
	t.Run("a built-in kind's table shows kube's default Created At", func(t *testing.T) {
		ts := gadgets(t, "io.example.Gadget")
		require.Equal(t, http.StatusCreated, ts.do("POST", gadgetsPath, `{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g"}}`).code)
		cols := ts.do("GET", gadgetsPath, "", "Accept", tableAccept).body["columnDefinitions"].([]any)
		require.Len(t, cols, 2)
		assert.Equal(t, "Created At", cols[1].(map[string]any)["name"])
	})
}
