package apiserver

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store/memory"
)

// TestPatchBodyCheckedBeforeTheObjectPerRelease: kube 1.37.2 looks at a
// patch body before it reads the object: a JSON patch, merge or strategic
// merge body that is not JSON is 400 "invalid JSON patch" even for an
// object that does not exist, and an apply body with a YAML syntax error
// is 400 "error encoding patch: ..."; kube 1.33 reads the object first
// (404) and words the error as its patchers do.
func TestPatchBodyCheckedBeforeTheObjectPerRelease(t *testing.T) {
	cases := []struct {
		name        string
		release     Release
		object      string
		contentType string
		body        string
		code        int
		message     string
	}{
		{"kube 1.37 refuses a truncated strategic merge patch of a missing object", Release137, "missing",
			strategicPatchType, `{"data":{"k1":}}`, http.StatusBadRequest, "invalid JSON patch"},
		{"kube 1.37 refuses a truncated JSON patch of a missing object", Release137, "missing",
			jsonPatchType, `[{"op":"add",`, http.StatusBadRequest, "invalid JSON patch"},
		{"kube 1.37 refuses a truncated merge patch of an existing object", Release137, "present",
			mergePatchType, `{"data":`, http.StatusBadRequest, "invalid JSON patch"},
		{"kube 1.37 refuses an apply body with a YAML syntax error", Release137, "present",
			applyPatchType, "apiVersion: v1\nkind: ConfigMap\ndata: [a, b\n", http.StatusBadRequest,
			"error encoding patch: yaml: line 3: did not find expected ',' or ']'"},
		{"kube 1.33 answers a truncated strategic merge patch of a missing object 404", Release133, "missing",
			strategicPatchType, `{"data":{"k1":}}`, http.StatusNotFound, `configmaps "missing" not found`},
		{"kube 1.33 words a truncated merge patch as its decoder does", Release133, "present",
			mergePatchType, `{"data":`, http.StatusBadRequest, "error decoding patch: unexpected end of JSON input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startReleaseServer(t, tc.release)
			require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"present"}}`).code)
			path := cmPath + "/" + tc.object
			if tc.contentType == applyPatchType {
				path += "?fieldManager=m"
			}
			resp := ts.do("PATCH", path, tc.body, "Content-Type", tc.contentType)
			assert.Equal(t, tc.code, resp.code)
			assert.Equal(t, tc.message, resp.body["message"])
		})
	}
}

// TestUpdateOfAMissingObjectWithAUIDPerRelease: kube 1.37.2 answers an
// update whose body carries a uid, of an object that does not exist and
// that an update cannot create, 404 NotFound; kube 1.33 checks the uid
// precondition first and answers 409 Conflict.
func TestUpdateOfAMissingObjectWithAUIDPerRelease(t *testing.T) {
	cases := []struct {
		name    string
		release Release
		code    int
		reason  string
	}{
		{"kube 1.37 answers 404 NotFound", Release137, http.StatusNotFound, "NotFound"},
		{"kube 1.33 answers the uid precondition's 409 Conflict", Release133, http.StatusConflict, "Conflict"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startReleaseServer(t, tc.release)
			resp := ts.do("PUT", cmPath+"/missing",
				`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"missing","uid":"00000000-0000-0000-0000-000000000000"}}`)
			assert.Equal(t, tc.code, resp.code)
			assert.Equal(t, tc.reason, resp.body["reason"])
		})
	}
}

// TestUpdateCausesPerRelease: kube 1.33 reports an update's ObjectMeta
// problems once per pass that checks them; kube 1.37.2 reports each once,
// in the order of their first report (a bad label and a finalizer added
// to an object being deleted: two causes).
func TestUpdateCausesPerRelease(t *testing.T) {
	cases := []struct {
		name    string
		release Release
		fields  []any
	}{
		{"kube 1.37 reports each problem once", Release137, []any{"metadata.labels", "metadata.finalizers"}},
		// (the example server's ConfigMap validates its labels once more
		// on update, as kube's: six causes there, five here)
		{"kube 1.33 reports each problem once per pass", Release133, []any{"metadata.labels", "metadata.finalizers",
			"metadata.labels", "metadata.finalizers", "metadata.labels"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ts := startReleaseServer(t, tc.release)
			require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"fin","finalizers":["example.com/hold"]}}`).code)
			require.Equal(t, http.StatusOK, ts.do("DELETE", cmPath+"/fin", "").code)
			resp := ts.do("PUT", cmPath+"/fin",
				`{"metadata":{"name":"fin","labels":{"a":"-bad-"},"finalizers":["example.com/hold","example.com/other"]}}`)
			require.Equal(t, http.StatusUnprocessableEntity, resp.code)
			var fields []any
			for _, c := range field(resp.body, "details.causes").([]any) {
				fields = append(fields, c.(map[string]any)["field"])
			}
			assert.Equal(t, tc.fields, fields)
		})
	}
}

// startReleaseServer serves testResources from memory as release r
// answers, over loopback HTTP.
func startReleaseServer(t *testing.T, r Release) *testServer {
	t.Helper()
	srv, err := New(Config{Resources: testResources, Store: memory.New(memory.Config{}), Release: r})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &testServer{t: t, srv: srv, url: hs.URL}
}
