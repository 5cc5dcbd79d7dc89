package builtin_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// serve sends one request to h and decodes the JSON answer.
func serve(t *testing.T, h http.Handler, method, path, contentType, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
	return rec.Code, out
}

// TestStatusWritesResetWhatKubesStatusStrategiesReset holds each kind's
// status strategy to what kube-apiserver 1.33 answered to the same merge
// patch of /status (docs/kube-behaviour/07-strategies.md): the stored spec
// always stays, metadata changes stay except the fields the kind resets.
func TestStatusWritesResetWhatKubesStatusStrategiesReset(t *testing.T) {
	cases := []struct {
		name, path, create, patch string
		labels, annotations       map[string]any
		ownerReferences           any
	}{
		{name: "a Deployment keeps its labels", path: "/apis/apps/v1/namespaces/default/deployments",
			create: `{"metadata":{"name":"d","labels":{"a":"1"}},"spec":{"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`,
			patch:  `{"metadata":{"labels":{"a":"2"},"annotations":{"x":"2"}},"spec":{"replicas":5},"status":{"replicas":3}}`,
			labels: map[string]any{"a": "1"}, annotations: map[string]any{"x": "2"}},
		{name: "a Pod keeps its owner references", path: "/api/v1/namespaces/default/pods",
			create: `{"metadata":{"name":"p","labels":{"a":"1"},"ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"x","uid":"u1"}]},"spec":{"containers":[{"name":"c","image":"nginx"}]}}`,
			patch:  `{"metadata":{"labels":{"a":"2"},"annotations":{"x":"2"},"ownerReferences":null},"spec":{"nodeName":"n"},"status":{"phase":"Running"}}`,
			labels: map[string]any{"a": "2"}, annotations: map[string]any{"x": "2"},
			ownerReferences: []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "uid": "u1"}}},
		{name: "a Namespace takes its metadata changes", path: "/api/v1/namespaces",
			create: `{"metadata":{"name":"n"}}`,
			patch:  `{"metadata":{"labels":{"a":"2"},"annotations":{"x":"2"}},"spec":{"finalizers":[]},"status":{"phase":"Active"}}`,
			labels: map[string]any{"a": "2", "kubernetes.io/metadata.name": "n"}, annotations: map[string]any{"x": "2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
			require.NoError(t, err)
			code, created := serve(t, srv, "POST", c.path, "application/json", c.create)
			require.Equal(t, http.StatusCreated, code, created)
			name := created["metadata"].(map[string]any)["name"].(string)
			code, out := serve(t, srv, "PATCH", c.path+"/"+name+"/status", "application/merge-patch+json", c.patch)
			require.Equal(t, http.StatusOK, code, out)
			md := out["metadata"].(map[string]any)
			assert.Equal(t, c.labels, md["labels"])
			assert.Equal(t, c.annotations, md["annotations"])
			assert.Equal(t, c.ownerReferences, md["ownerReferences"])
			assert.Equal(t, created["spec"], out["spec"], "the stored spec stays")
		})
	}
}

// TestADeploymentScalesThroughItsScaleSubresource holds deployments/scale
// to kube's answers (docs/kube-behaviour/07-strategies.md).
func TestADeploymentScalesThroughItsScaleSubresource(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
	require.NoError(t, err)
	const d = "/apis/apps/v1/namespaces/default/deployments"
	code, _ := serve(t, srv, "POST", d, "application/json", `{"metadata":{"name":"d2"},"spec":{"selector":{"matchLabels":{"app":"d","z":"1"},"matchExpressions":[{"key":"tier","operator":"In","values":["web","api"]},{"key":"x","operator":"DoesNotExist"}]},"template":{"metadata":{"labels":{"app":"d","z":"1","tier":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
	require.Equal(t, http.StatusCreated, code)

	code, scale := serve(t, srv, "GET", d+"/d2/scale", "", "")
	require.Equal(t, http.StatusOK, code, scale)
	assert.Equal(t, "Scale", scale["kind"])
	assert.Equal(t, "autoscaling/v1", scale["apiVersion"])
	assert.Equal(t, map[string]any{"replicas": float64(1)}, scale["spec"])
	assert.Equal(t, map[string]any{"replicas": float64(0), "selector": "app=d,tier in (api,web),!x,z=1"}, scale["status"])

	code, scale = serve(t, srv, "PUT", d+"/d2/scale", "application/json",
		`{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"d2","namespace":"default"},"spec":{"replicas":3}}`)
	require.Equal(t, http.StatusOK, code, scale)
	assert.Equal(t, map[string]any{"replicas": float64(3)}, scale["spec"])
	code, dep := serve(t, srv, "GET", d+"/d2", "", "")
	require.Equal(t, http.StatusOK, code)
	md := dep["metadata"].(map[string]any)
	assert.EqualValues(t, 2, md["generation"], "a scale is a spec change")
	var entry map[string]any
	for _, e := range md["managedFields"].([]any) {
		if e.(map[string]any)["subresource"] == "scale" {
			entry = e.(map[string]any)
		}
	}
	require.NotNil(t, entry, "the scale is tracked as the scale subresource's write: %v", md["managedFields"])
	assert.Equal(t, map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}}, entry["fieldsV1"])
}
