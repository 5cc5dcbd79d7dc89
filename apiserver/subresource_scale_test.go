package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWritesThroughACustomResourcesScaleAnswerAsKubes replays what
// kube-apiserver 1.37.2 answered to writes of a custom resource's /scale
// (docs/kube-behaviour/20-controller-runtime-suites.md): a merge patch is
// tracked on the Scale (its entry owns the replica count, without a
// time); a server-side apply conflicts as on a Deployment's Scale, but
// fails with kube's 500 when it would change the object or finds the
// Scale untracked, and succeeds when it changes nothing.
func TestWritesThroughACustomResourcesScaleAnswerAsKubes(t *testing.T) {
	ts := newTestServer(t)
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"pools.ex.com"},
	 "spec":{"group":"ex.com","scope":"Namespaced","names":{"plural":"pools","kind":"Pool"},
	 "versions":[{"name":"v1","served":true,"storage":true,"subresources":{"scale":{"specReplicasPath":".spec.size","statusReplicasPath":".status.n"}},
	   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"},"color":{"type":"string"}}},"status":{"type":"object","properties":{"n":{"type":"integer"}}}}}}},
	  {"name":"v2","served":true,"storage":false,
	   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"},"color":{"type":"string"}}},"status":{"type":"object","properties":{"n":{"type":"integer"}}}}}}}]}}`
	require.Equal(t, http.StatusCreated, ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).code)
	const pools = "/apis/ex.com/v1/namespaces/default/pools"
	for _, body := range []string{
		`{"apiVersion":"ex.com/v1","kind":"Pool","metadata":{"name":"p"},"spec":{"size":2,"color":"red"}}`,
		`{"apiVersion":"ex.com/v1","kind":"Pool","metadata":{"name":"q"},"spec":{"color":"red"}}`,
	} {
		r := ts.do("POST", pools+"?fieldManager=creator", body)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	}
	apply := func(name, query, body string) response {
		return ts.do("PATCH", pools+"/"+name+"/scale?"+query, body, "Content-Type", applyPatchType)
	}
	scale := func(n string) string {
		return `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":` + n + `}}`
	}
	const convert = " (/; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1"

	r := apply("p", "fieldManager=foo", scale("3"))
	assert.Equal(t, http.StatusConflict, r.code, string(r.raw))
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas`, r.body["message"])

	r = apply("p", "fieldManager=foo&force=true", scale("3"))
	assert.Equal(t, http.StatusInternalServerError, r.code, string(r.raw))
	assert.Equal(t, "failed to convert new object"+convert, r.body["message"])
	assert.Nil(t, r.body["reason"])

	r = apply("q", "fieldManager=foo", scale("3"))
	assert.Equal(t, http.StatusInternalServerError, r.code, string(r.raw))
	assert.Equal(t, "failed to create manager for existing fields: failed to convert live object"+convert, r.body["message"])
	r = apply("q", "fieldManager=foo", `{"spec":{"replicas":3}}`)
	assert.Equal(t, http.StatusBadRequest, r.code, string(r.raw))
	assert.Equal(t, "invalid object type: /, Kind=", r.body["message"])

	r = ts.do("PATCH", pools+"/p/scale?fieldManager=bar", `{"spec":{"replicas":4}}`, "Content-Type", mergePatchType)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	r = apply("p", "fieldManager=yod", scale("4"))
	require.Equal(t, http.StatusOK, r.code, "an apply that changes nothing: %s", r.raw)

	p := ts.do("GET", pools+"/p", "")
	assert.EqualValues(t, 4, field(p.body, "spec.size"))
	var got []any
	for _, e := range field(p.body, "metadata.managedFields").([]any) {
		m := e.(map[string]any)
		got = append(got, []any{m["manager"], m["operation"], m["subresource"], m["time"] != nil, m["fieldsV1"]})
	}
	size := map[string]any{"f:spec": map[string]any{"f:size": map[string]any{}}}
	assert.Equal(t, []any{
		[]any{"yod", "Apply", "scale", false, size},
		[]any{"bar", "Update", "scale", false, size},
		[]any{"creator", "Update", nil, true, map[string]any{"f:spec": map[string]any{".": map[string]any{}, "f:color": map[string]any{}}}},
	}, got)
}
