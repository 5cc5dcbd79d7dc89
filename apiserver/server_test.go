package apiserver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testResources are the types most tests serve.
var testResources = []Resource{
	{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, ShortNames: []string{"cm"}, WithoutGeneration: true},
	{Version: "v1", Kind: "Lease", Plural: "leases", Namespaced: true, AllowCreateOnUpdate: true, WithoutGeneration: true},
	{Group: "apps", Version: "v1", Kind: "Deployment", Plural: "deployments", Namespaced: true,
		ShortNames: []string{"deploy"}, Categories: []string{"all"}, StatusSubresource: true},
	{Group: "example.com", Version: "v1", Kind: "Widget", Plural: "widgets", ReturnDeletedObject: true},
}

type testServer struct {
	t   *testing.T
	srv *Server
	url string
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	srv, err := New(Config{Resources: testResources})
	require.NoError(t, err)
	return newTestServerFor(t, srv)
}

// newTestServerFor serves srv on a loopback listener for the test.
func newTestServerFor(t *testing.T, srv *Server) *testServer {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &testServer{t: t, srv: srv, url: hs.URL}
}

type response struct {
	code   int
	header http.Header
	raw    []byte
	body   map[string]any
}

// do sends a request; body may be "" for none. Extra headers come in pairs.
func (ts *testServer) do(method, path, body string, headers ...string) response {
	ts.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ts.url+path, rd)
	require.NoError(ts.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(ts.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(ts.t, err)
	out := response{code: resp.StatusCode, header: resp.Header, raw: raw}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		require.NoError(ts.t, json.Unmarshal(raw, &out.body), string(raw))
	}
	return out
}

// field reads a dotted path from a decoded body.
func field(body map[string]any, path string) any {
	var cur any = body
	for _, p := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

const cmPath = "/api/v1/namespaces/default/configmaps"

func TestCreateSetsServerOwnedMetadata(t *testing.T) {
	ts := newTestServer(t)
	r := ts.do("POST", cmPath, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","uid":"u"},"data":{"a":"b"}}`)
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	assert.Equal(t, "x", field(r.body, "metadata.name"))
	assert.Equal(t, "default", field(r.body, "metadata.namespace"))
	assert.NotEqual(t, "u", field(r.body, "metadata.uid"))
	assert.Len(t, field(r.body, "metadata.uid"), 36)
	assert.NotEmpty(t, field(r.body, "metadata.resourceVersion"))
	assert.NotEmpty(t, field(r.body, "metadata.creationTimestamp"))
	assert.Nil(t, field(r.body, "metadata.generation"), "configmaps have no generation")
	assert.Equal(t, "b", field(r.body, "data.a"))
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	assert.True(t, strings.HasSuffix(string(r.raw), "}\n"), "JSON bodies end with a newline")

	d := ts.do("POST", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"d"},"spec":{"replicas":1},"status":{"replicas":5}}`)
	require.Equal(t, http.StatusCreated, d.code, string(d.raw))
	assert.EqualValues(t, 1, field(d.body, "metadata.generation"))
	assert.Equal(t, "apps/v1", d.body["apiVersion"], "a missing apiVersion takes the endpoint's")
	assert.Equal(t, "Deployment", d.body["kind"])
	assert.Nil(t, d.body["status"], "status is not set through create on a type with a status subresource")
}

func TestGenerateNameAppendsFiveCharacters(t *testing.T) {
	ts := newTestServer(t)
	r := ts.do("POST", cmPath, `{"metadata":{"generateName":"gen-"}}`)
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	name, _ := field(r.body, "metadata.name").(string)
	require.Len(t, name, len("gen-")+5)
	assert.True(t, strings.HasPrefix(name, "gen-"))
	assert.Equal(t, "gen-", field(r.body, "metadata.generateName"))
}

func TestErrorsAreKubernetesStatuses(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"dup"}}`).code)

	tests := []struct {
		name, method, path, body string
		headers                  []string
		code                     int
		reason, message          string
		details                  map[string]any
	}{
		{name: "a missing object is NotFound naming the resource", method: "GET", path: cmPath + "/missing",
			code: 404, reason: "NotFound", message: `configmaps "missing" not found`,
			details: map[string]any{"name": "missing", "kind": "configmaps"}},
		{name: "a missing object in a group names the group", method: "GET", path: "/apis/apps/v1/namespaces/default/deployments/missing",
			code: 404, reason: "NotFound", message: `deployments.apps "missing" not found`,
			details: map[string]any{"name": "missing", "group": "apps", "kind": "deployments"}},
		{name: "an unknown resource of a known group version is NotFound", method: "GET", path: "/api/v1/namespaces/default/foos",
			code: 404, reason: "NotFound", message: "the server could not find the requested resource", details: map[string]any{}},
		{name: "a duplicate create is AlreadyExists", method: "POST", path: cmPath, body: `{"metadata":{"name":"dup"}}`,
			code: 409, reason: "AlreadyExists", message: `configmaps "dup" already exists`,
			details: map[string]any{"name": "dup", "kind": "configmaps"}},
		{name: "a create in a missing namespace names the namespace", method: "POST", path: "/api/v1/namespaces/nope/configmaps",
			body: `{"metadata":{"name":"x"}}`, code: 404, reason: "NotFound", message: `namespaces "nope" not found`,
			details: map[string]any{"name": "nope", "kind": "namespaces"}},
		{name: "a create without name is Invalid with a cause", method: "POST", path: cmPath, body: `{"metadata":{}}`,
			code: 422, reason: "Invalid", message: `ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required`,
			details: map[string]any{"kind": "ConfigMap", "causes": []any{map[string]any{
				"reason": "FieldValueRequired", "message": "Required value: name or generateName is required", "field": "metadata.name"}}}},
		{name: "an invalid label key is Invalid", method: "POST", path: cmPath, body: `{"metadata":{"name":"l","labels":{"-bad":"v"}}}`,
			code: 422, reason: "Invalid",
			message: `ConfigMap "l" is invalid: metadata.labels: Invalid value: "-bad": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{name: "an empty body is BadRequest", method: "POST", path: cmPath, body: " ",
			code: 400, reason: "BadRequest",
			message: "the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: unexpected end of JSON input (20)"},
		{name: "a namespace mismatch is BadRequest", method: "POST", path: cmPath, body: `{"metadata":{"name":"x","namespace":"other"}}`,
			code: 400, reason: "BadRequest", message: "the namespace of the provided object does not match the namespace sent on the request"},
		{name: "POST on an object URL is MethodNotAllowed", method: "POST", path: cmPath + "/x", body: `{}`,
			code: 405, reason: "MethodNotAllowed", message: "the server does not allow this method on the requested resource"},
		{name: "an unknown body type is UnsupportedMediaType", method: "POST", path: cmPath, body: `x`, headers: []string{"Content-Type", "text/plain"},
			code: 415, reason: "UnsupportedMediaType"},
		{name: "an unacceptable Accept is NotAcceptable", method: "GET", path: cmPath, headers: []string{"Accept", "application/xml"},
			code: 406, reason: "NotAcceptable"},
		{name: "a PUT whose name differs from the URL is BadRequest", method: "PUT", path: cmPath + "/dup", body: `{"metadata":{"name":"other"}}`,
			code: 400, reason: "BadRequest", message: "the name of the object (other) does not match the name on the URL (dup)"},
		{name: "a PUT of a missing object is NotFound without create-on-update", method: "PUT", path: cmPath + "/nothere",
			body: `{"metadata":{"name":"nothere"}}`, code: 404, reason: "NotFound", message: `configmaps "nothere" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do(tt.method, tt.path, tt.body, tt.headers...)
			require.Equal(t, tt.code, r.code, string(r.raw))
			assert.Equal(t, "Status", r.body["kind"])
			assert.Equal(t, "v1", r.body["apiVersion"])
			assert.Equal(t, "Failure", r.body["status"])
			assert.Equal(t, tt.reason, r.body["reason"])
			assert.EqualValues(t, tt.code, r.body["code"])
			if tt.message != "" {
				assert.Equal(t, tt.message, r.body["message"])
			}
			if tt.details != nil {
				assert.Equal(t, tt.details, r.body["details"])
			}
		})
	}
}

func TestUnknownGroupIsPlainTextNotFound(t *testing.T) {
	ts := newTestServer(t)
	for _, path := range []string{"/apis/nosuch.io/v1/things", "/foo"} {
		r := ts.do("GET", path, "")
		assert.Equal(t, http.StatusNotFound, r.code)
		assert.Equal(t, "text/plain; charset=utf-8", r.header.Get("Content-Type"))
	}
}

func TestUpdate(t *testing.T) {
	ts := newTestServer(t)
	created := ts.do("POST", cmPath, `{"metadata":{"name":"u"},"data":{"a":"1"}}`)
	require.Equal(t, http.StatusCreated, created.code)
	rv := field(created.body, "metadata.resourceVersion").(string)

	t.Run("a stale resourceVersion is a Conflict", func(t *testing.T) {
		r := ts.do("PUT", cmPath+"/u", `{"metadata":{"name":"u","resourceVersion":"1"},"data":{"a":"2"}}`)
		require.Equal(t, http.StatusConflict, r.code)
		assert.Equal(t, "Conflict", r.body["reason"])
		assert.Equal(t, `Operation cannot be fulfilled on configmaps "u": the object has been modified; please apply your changes to the latest version and try again`, r.body["message"])
	})
	t.Run("the current resourceVersion updates and keeps server-owned fields", func(t *testing.T) {
		r := ts.do("PUT", cmPath+"/u", `{"metadata":{"name":"u","resourceVersion":"`+rv+`","creationTimestamp":"2000-01-01T00:00:00Z"},"data":{"a":"2"}}`)
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "2", field(r.body, "data.a"))
		assert.Equal(t, field(created.body, "metadata.uid"), field(r.body, "metadata.uid"))
		assert.Equal(t, field(created.body, "metadata.creationTimestamp"), field(r.body, "metadata.creationTimestamp"))
		assert.NotEqual(t, rv, field(r.body, "metadata.resourceVersion"))
	})
	t.Run("an update without resourceVersion is unconditional", func(t *testing.T) {
		r := ts.do("PUT", cmPath+"/u", `{"metadata":{"name":"u"},"data":{"a":"3"}}`)
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "3", field(r.body, "data.a"))
	})
	t.Run("an update that changes nothing keeps the resourceVersion", func(t *testing.T) {
		before := ts.do("GET", cmPath+"/u", "")
		r := ts.do("PUT", cmPath+"/u", `{"metadata":{"name":"u"},"data":{"a":"3"}}`)
		require.Equal(t, http.StatusOK, r.code)
		assert.Equal(t, field(before.body, "metadata.resourceVersion"), field(r.body, "metadata.resourceVersion"))
	})
	t.Run("a different uid is a precondition Conflict", func(t *testing.T) {
		r := ts.do("PUT", cmPath+"/u", `{"metadata":{"name":"u","uid":"other"},"data":{"a":"3"}}`)
		require.Equal(t, http.StatusConflict, r.code)
		assert.Contains(t, r.body["message"], "Precondition failed: UID in precondition: other")
	})
	t.Run("create on update answers 201 where the type allows it", func(t *testing.T) {
		r := ts.do("PUT", "/api/v1/namespaces/default/leases/l", `{"metadata":{"name":"l"}}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	})
}

func TestGenerationCountsSpecChanges(t *testing.T) {
	ts := newTestServer(t)
	path := "/apis/apps/v1/namespaces/default/deployments"
	require.Equal(t, http.StatusCreated, ts.do("POST", path, `{"metadata":{"name":"g"},"spec":{"replicas":1}}`).code)
	r := ts.do("PUT", path+"/g", `{"metadata":{"name":"g","labels":{"a":"b"}},"spec":{"replicas":1}}`)
	assert.EqualValues(t, 1, field(r.body, "metadata.generation"), "a label change keeps the generation")
	r = ts.do("PUT", path+"/g", `{"metadata":{"name":"g"},"spec":{"replicas":2}}`)
	assert.EqualValues(t, 2, field(r.body, "metadata.generation"), "a spec change bumps it")
	r = ts.do("PUT", path+"/g/status", `{"metadata":{"name":"g"},"spec":{"replicas":9},"status":{"ready":1}}`)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.EqualValues(t, 2, field(r.body, "spec.replicas"), "a status write ignores the spec")
	assert.EqualValues(t, 1, field(r.body, "status.ready"))
	assert.EqualValues(t, 2, field(r.body, "metadata.generation"))
	r = ts.do("PUT", path+"/g", `{"metadata":{"name":"g"},"spec":{"replicas":2},"status":{"ready":7}}`)
	assert.EqualValues(t, 1, field(r.body, "status.ready"), "a main-resource write ignores the status")
}

func TestDelete(t *testing.T) {
	ts := newTestServer(t)
	created := ts.do("POST", cmPath, `{"metadata":{"name":"d"}}`)
	require.Equal(t, http.StatusCreated, created.code)

	t.Run("a wrong uid precondition is a Conflict", func(t *testing.T) {
		r := ts.do("DELETE", cmPath+"/d", `{"preconditions":{"uid":"nope"}}`)
		require.Equal(t, http.StatusConflict, r.code)
		assert.Contains(t, r.body["message"], `Operation cannot be fulfilled on ConfigMap "d": the UID in the precondition (nope) does not match the UID in record`)
		assert.Equal(t, "ConfigMap", field(r.body, "details.kind"))
	})
	t.Run("deleting answers a Success Status naming the object", func(t *testing.T) {
		r := ts.do("DELETE", cmPath+"/d", "")
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "Success", r.body["status"])
		assert.Equal(t, map[string]any{"name": "d", "kind": "configmaps", "uid": field(created.body, "metadata.uid")}, r.body["details"])
		assert.Equal(t, http.StatusNotFound, ts.do("GET", cmPath+"/d", "").code)
	})
	t.Run("a type that returns deleted objects answers with the object", func(t *testing.T) {
		require.Equal(t, http.StatusCreated, ts.do("POST", "/apis/example.com/v1/widgets", `{"metadata":{"name":"w"}}`).code)
		r := ts.do("DELETE", "/apis/example.com/v1/widgets/w", "")
		require.Equal(t, http.StatusOK, r.code)
		assert.Equal(t, "Widget", r.body["kind"])
	})
	t.Run("an object with finalizers waits until the last one is removed", func(t *testing.T) {
		require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"f","finalizers":["a/b"]}}`).code)
		r := ts.do("DELETE", cmPath+"/f", "")
		require.Equal(t, http.StatusOK, r.code)
		assert.NotEmpty(t, field(r.body, "metadata.deletionTimestamp"))
		assert.EqualValues(t, 0, field(r.body, "metadata.deletionGracePeriodSeconds"))
		add := ts.do("PUT", cmPath+"/f", `{"metadata":{"name":"f","finalizers":["a/b","c/d"]}}`)
		assert.Equal(t, http.StatusUnprocessableEntity, add.code, "no finalizer can be added while deleting")
		rm := ts.do("PUT", cmPath+"/f", `{"metadata":{"name":"f","finalizers":[]}}`)
		require.Equal(t, http.StatusOK, rm.code, string(rm.raw))
		assert.Equal(t, http.StatusNotFound, ts.do("GET", cmPath+"/f", "").code)
	})
	t.Run("deletecollection deletes every object and lists them", func(t *testing.T) {
		for _, n := range []string{"c1", "c2"} {
			require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"`+n+`"}}`).code)
		}
		r := ts.do("DELETE", cmPath, "")
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "ConfigMapList", r.body["kind"])
		assert.Len(t, r.body["items"], 2)
		list := ts.do("GET", cmPath, "")
		assert.Empty(t, list.body["items"])
	})
}

func TestListPagesShareOneRevision(t *testing.T) {
	ts := newTestServer(t)
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"`+n+`"}}`).code)
	}
	first := ts.do("GET", cmPath+"?limit=2", "")
	require.Equal(t, http.StatusOK, first.code)
	assert.Len(t, first.body["items"], 2)
	assert.EqualValues(t, 3, field(first.body, "metadata.remainingItemCount"))
	token := field(first.body, "metadata.continue").(string)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"f"}}`).code)

	var names []string
	for _, it := range first.body["items"].([]any) {
		names = append(names, field(it.(map[string]any), "metadata.name").(string))
	}
	for token != "" {
		page := ts.do("GET", cmPath+"?limit=2&continue="+token, "")
		require.Equal(t, http.StatusOK, page.code, string(page.raw))
		assert.Equal(t, field(first.body, "metadata.resourceVersion"), field(page.body, "metadata.resourceVersion"))
		for _, it := range page.body["items"].([]any) {
			names = append(names, field(it.(map[string]any), "metadata.name").(string))
		}
		token, _ = field(page.body, "metadata.continue").(string)
	}
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, names, "the object created between pages is not in the list")
}

func TestDiscovery(t *testing.T) {
	ts := newTestServer(t)
	api := ts.do("GET", "/api", "")
	assert.Equal(t, []any{"v1"}, api.body["versions"])
	core := ts.do("GET", "/api/v1", "")
	assert.Equal(t, "APIResourceList", core.body["kind"])
	assert.Nil(t, core.body["apiVersion"], "the core resource list has no apiVersion, as in kube")
	var names []string
	for _, r := range core.body["resources"].([]any) {
		names = append(names, r.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"namespaces", "namespaces/finalize", "namespaces/status", "configmaps", "leases"}, names)
	apps := ts.do("GET", "/apis/apps/v1", "")
	assert.Equal(t, "apps/v1", apps.body["groupVersion"])
	deploy := apps.body["resources"].([]any)[0].(map[string]any)
	assert.Equal(t, "8aSe+NMegvE=", deploy["storageVersionHash"], "the hash matches kube-apiserver's for apps/v1 Deployment")
	groups := ts.do("GET", "/apis", "")
	assert.Len(t, groups.body["groups"], 3, "apps, example.com and apiextensions.k8s.io (CRDs are always served)")

	agg := ts.do("GET", "/apis", "", "Accept", "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json")
	assert.Equal(t, aggregatedDiscoveryMediaType, agg.header.Get("Content-Type"))
	require.Equal(t, http.StatusOK, agg.code)
	var list aggregatedList
	require.NoError(t, json.Unmarshal(agg.raw, &list))
	require.Len(t, list.Items, 3)
	var appsGroup *aggregatedGroup
	for i := range list.Items {
		if list.Items[i].Metadata.Name == "apps" {
			appsGroup = &list.Items[i]
		}
	}
	require.NotNil(t, appsGroup)
	assert.Equal(t, "Namespaced", appsGroup.Versions[0].Resources[0].Scope)
	assert.Equal(t, "status", appsGroup.Versions[0].Resources[0].Subresources[0].Subresource)

	v := ts.do("GET", "/version", "")
	assert.Equal(t, "1", v.body["major"])
	assert.Equal(t, http.StatusOK, ts.do("GET", "/healthz", "").code)
}

func TestNamespaceFinalize(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusCreated, ts.do("POST", "/api/v1/namespaces", `{"metadata":{"name":"gone"}}`).code)
	r := ts.do("DELETE", "/api/v1/namespaces/gone", "")
	require.Equal(t, http.StatusOK, r.code)
	assert.Equal(t, "Terminating", field(r.body, "status.phase"), "the kubernetes finalizer holds it")

	r = ts.do("PUT", "/api/v1/namespaces/gone/finalize", `{"metadata":{"name":"gone","labels":{"ignored":"x"}},"spec":{"finalizers":[]}}`)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.Empty(t, field(r.body, "spec.finalizers"))
	assert.Nil(t, field(r.body, "metadata.labels.ignored"), "finalize changes only spec.finalizers")
	assert.Equal(t, http.StatusNotFound, ts.do("GET", "/api/v1/namespaces/gone", "").code,
		"a terminating namespace left without finalizers is deleted, as kube's finalize store does")
	assert.Equal(t, http.StatusMethodNotAllowed, ts.do("GET", "/api/v1/namespaces/default/finalize", "").code)
}
