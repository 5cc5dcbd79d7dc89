package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const widgetCRD = `{
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.org"},
  "spec": {
    "group": "example.org", "scope": "Namespaced",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "shortNames": ["wd"], "categories": ["all"]},
    "versions": [
      {"name": "v1", "served": true, "storage": true,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "spec": {"type": "object", "required": ["size"], "properties": {
           "size": {"type": "integer", "minimum": 1}, "color": {"type": "string", "default": "blue"}}},
         "status": {"type": "object", "properties": {"ready": {"type": "boolean"}}}}}},
       "subresources": {"status": {}},
       "additionalPrinterColumns": [{"name": "Size", "type": "integer", "jsonPath": ".spec.size"}]},
      {"name": "v2", "served": true, "storage": false,
       "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}
    ]
  }
}`

const widgets = "/apis/example.org/v1/namespaces/default/widgets"

func TestCustomResourceDefinitionLifecycle(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusNotFound, ts.do("GET", widgets, "").code, "nothing is served before the CRD")

	crd := ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	require.Equal(t, http.StatusCreated, crd.code, string(crd.raw))
	conds := field(crd.body, "status.conditions").([]any)
	require.Len(t, conds, 2)
	assert.Equal(t, map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted",
		"message": "the initial names have been accepted", "lastTransitionTime": conds[1].(map[string]any)["lastTransitionTime"]}, conds[1])
	assert.Equal(t, "widgets", field(crd.body, "status.acceptedNames.plural"))
	assert.Equal(t, map[string]any{"strategy": "None"}, field(crd.body, "spec.conversion"))

	t.Run("the new type is served and discoverable at once", func(t *testing.T) {
		r := ts.do("GET", "/apis/example.org/v1", "")
		require.Equal(t, http.StatusOK, r.code)
		res := r.body["resources"].([]any)[0].(map[string]any)
		assert.Equal(t, "widgets", res["name"])
		assert.Equal(t, []any{"wd"}, res["shortNames"])
	})
	t.Run("custom resources are pruned, defaulted and validated", func(t *testing.T) {
		r := ts.do("POST", widgets, `{"apiVersion":"example.org/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":3,"extra":1},"status":{"ready":true}}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.Equal(t, "blue", field(r.body, "spec.color"))
		assert.Nil(t, field(r.body, "spec.extra"))
		assert.Nil(t, r.body["status"], "status is not set through create with a status subresource")
		assert.Equal(t, []string{`299 - "unknown field \"spec.extra\""`}, r.header.Values("Warning"))
		assert.EqualValues(t, 1, field(r.body, "metadata.generation"))

		bad := ts.do("POST", widgets, `{"apiVersion":"example.org/v1","kind":"Widget","metadata":{"name":"bad"},"spec":{"size":"big","color":1}}`)
		require.Equal(t, http.StatusUnprocessableEntity, bad.code, string(bad.raw))
		assert.Equal(t, "Widget", field(bad.body, "details.kind"))
		assert.Equal(t, "example.org", field(bad.body, "details.group"))
		assert.Len(t, field(bad.body, "details.causes"), 2)
	})
	t.Run("a custom resource needs its kind and a resourceVersion to update", func(t *testing.T) {
		r := ts.do("POST", widgets, `{"apiVersion":"example.org/v1","metadata":{"name":"nokind"},"spec":{"size":1}}`)
		assert.Equal(t, http.StatusBadRequest, r.code)
		r = ts.do("PUT", widgets+"/w1", `{"apiVersion":"example.org/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":4}}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.code)
		assert.Equal(t, `widgets.example.org "w1" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`, r.body["message"])
		r = ts.do("PATCH", widgets+"/w1", `{}`, "Content-Type", strategicPatchType)
		assert.Equal(t, http.StatusUnsupportedMediaType, r.code, "strategic merge patch is not for custom resources")
	})
	t.Run("every served version reads the same objects", func(t *testing.T) {
		r := ts.do("GET", "/apis/example.org/v2/namespaces/default/widgets/w1", "")
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "example.org/v2", r.body["apiVersion"])
		created := ts.do("POST", "/apis/example.org/v2/namespaces/default/widgets", `{"apiVersion":"example.org/v2","kind":"Widget","metadata":{"name":"w2"},"spec":{"size":2}}`)
		require.Equal(t, http.StatusCreated, created.code, string(created.raw))
		v1 := ts.do("GET", widgets+"/w2", "")
		assert.Equal(t, "example.org/v1", v1.body["apiVersion"])
	})
	t.Run("printer columns come from the CRD", func(t *testing.T) {
		r := ts.do("GET", widgets, "", "Accept", tableAccept)
		cols := r.body["columnDefinitions"].([]any)
		assert.Equal(t, "Size", cols[1].(map[string]any)["name"])
		assert.EqualValues(t, 3, r.body["rows"].([]any)[0].(map[string]any)["cells"].([]any)[1])
	})
	t.Run("an invalid CRD is refused", func(t *testing.T) {
		r := ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
			`{"metadata":{"name":"wrong.example.org"},"spec":{"group":"example.org","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.code)
		assert.Contains(t, r.body["message"], `metadata.name: Invalid value: "wrong.example.org": must be spec.names.plural+"."+spec.group`)
	})
	t.Run("deleting the CRD removes its custom resources and endpoints", func(t *testing.T) {
		r := ts.do("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org", "")
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.NotEmpty(t, field(r.body, "metadata.deletionTimestamp"))
		assert.Equal(t, http.StatusNotFound, ts.do("GET", widgets, "").code)
		assert.Equal(t, http.StatusNotFound, ts.do("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org", "").code)
		again := ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
		require.Equal(t, http.StatusCreated, again.code)
		list := ts.do("GET", widgets, "")
		assert.Empty(t, list.body["items"], "the old custom resources are gone")
	})
}

func TestScaleSubresource(t *testing.T) {
	ts := newTestServer(t)
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"pools.example.org"},
	 "spec":{"group":"example.org","scope":"Namespaced","names":{"plural":"pools","kind":"Pool"},
	 "versions":[{"name":"v1","served":true,"storage":true,
	   "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"replicas":{"type":"integer"},"selector":{"type":"string"}}},
	     "status":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}},
	   "subresources":{"status":{},"scale":{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas","labelSelectorPath":".spec.selector"}}}]}}`
	require.Equal(t, http.StatusCreated, ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd).code)
	pools := "/apis/example.org/v1/namespaces/default/pools"
	require.Equal(t, http.StatusCreated, ts.do("POST", pools, `{"apiVersion":"example.org/v1","kind":"Pool","metadata":{"name":"p"},"spec":{"replicas":1,"selector":"app=p"}}`).code)

	r := ts.do("GET", pools+"/p/scale", "")
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.Equal(t, "Scale", r.body["kind"])
	assert.Equal(t, "autoscaling/v1", r.body["apiVersion"])
	assert.EqualValues(t, 1, field(r.body, "spec.replicas"))
	assert.Equal(t, "app=p", field(r.body, "status.selector"))

	r = ts.do("PUT", pools+"/p/scale", `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"p"},"spec":{"replicas":5}}`)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.EqualValues(t, 5, field(r.body, "spec.replicas"))
	assert.EqualValues(t, 5, field(ts.do("GET", pools+"/p", "").body, "spec.replicas"))

	r = ts.do("PATCH", pools+"/p/scale", `{"spec":{"replicas":2}}`, "Content-Type", mergePatchType)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.EqualValues(t, 2, field(ts.do("GET", pools+"/p", "").body, "spec.replicas"))

	r = ts.do("PUT", pools+"/p/scale", `{"metadata":{"name":"p","resourceVersion":"1"},"spec":{"replicas":9}}`)
	assert.Equal(t, http.StatusConflict, r.code, "a stale Scale is a conflict")
}

func TestDefaultsOfANewerSchemaApplyOnRead(t *testing.T) {
	ts := newTestServer(t)
	crdPath := "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	crd := func(withDefault bool) string {
		shape := `{"type":"string"}`
		if withDefault {
			shape = `{"type":"string","default":"round"}`
		}
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gears.example.org"},
		 "spec":{"group":"example.org","scope":"Cluster","names":{"plural":"gears","kind":"Gear"},
		 "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
		   "spec":{"type":"object","properties":{"shape":` + shape + `}}}}}}]}}`
	}
	require.Equal(t, http.StatusCreated, ts.do("POST", crdPath, crd(false)).code)
	require.Equal(t, http.StatusCreated, ts.do("POST", "/apis/example.org/v1/gears", `{"apiVersion":"example.org/v1","kind":"Gear","metadata":{"name":"g"},"spec":{}}`).code)
	assert.Nil(t, field(ts.do("GET", "/apis/example.org/v1/gears/g", "").body, "spec.shape"))

	cur := ts.do("GET", crdPath+"/gears.example.org", "")
	next := crd(true)
	next = next[:len(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gears.example.org"`)] +
		`,"resourceVersion":"` + field(cur.body, "metadata.resourceVersion").(string) + `"` +
		next[len(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gears.example.org"`):]
	require.Equal(t, http.StatusOK, ts.do("PUT", crdPath+"/gears.example.org", next).code)
	got := ts.do("GET", "/apis/example.org/v1/gears/g", "")
	assert.Equal(t, "round", field(got.body, "spec.shape"), "an object stored before the default existed reads with it")
}

func TestACRDWhoseTypeIsAlreadyServedIsNotEstablished(t *testing.T) {
	srv, err := New(Config{Resources: []Resource{{Group: "example.org", Version: "v1", Kind: "Widget", Plural: "widgets", Namespaced: true}}})
	require.NoError(t, err)
	ts := newTestServerFor(t, srv)
	r := ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	conds := field(r.body, "status.conditions").([]any)
	require.Len(t, conds, 2)
	assert.Equal(t, "NamesAccepted", conds[0].(map[string]any)["type"])
	assert.Equal(t, "False", conds[0].(map[string]any)["status"])
	assert.Equal(t, `"widgets" is already in use`, conds[0].(map[string]any)["message"])
	assert.Equal(t, http.StatusNotFound, ts.do("GET", "/apis/example.org/v2/namespaces/default/widgets", "").code,
		"the CRD serves none of its versions")
}
