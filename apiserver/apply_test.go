package apiserver

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServerSideApply(t *testing.T) {
	ts := newTestServer(t)
	apply := func(manager, body string, extra ...string) response {
		return ts.do("PATCH", cmPath+"/a?fieldManager="+manager+"&"+firstOr(extra, ""), body, "Content-Type", applyPatchType)
	}
	r := ts.do("PATCH", cmPath+"/a", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`, "Content-Type", applyPatchType)
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`, r.body["message"])

	r = apply("mgr1", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n")
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	mf := field(r.body, "metadata.managedFields").([]any)
	require.Len(t, mf, 1)
	entry := mf[0].(map[string]any)
	assert.Equal(t, "mgr1", entry["manager"])
	assert.Equal(t, "Apply", entry["operation"])
	// A type without schema uses the deduced schema: its maps are owned as
	// a whole too ("."), unlike a ConfigMap with kube's schema.
	assert.Equal(t, map[string]any{"f:data": map[string]any{".": map[string]any{}, "f:k": map[string]any{}}}, entry["fieldsV1"])

	r = apply("mgr2", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: other\n")
	require.Equal(t, http.StatusConflict, r.code, string(r.raw))
	assert.Equal(t, "Conflict", r.body["reason"])
	causes := field(r.body, "details.causes").([]any)
	require.Len(t, causes, 1)
	assert.Equal(t, "FieldManagerConflict", causes[0].(map[string]any)["reason"])
	assert.Equal(t, ".data.k", causes[0].(map[string]any)["field"])

	r = apply("mgr2", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: other\n", "force=true")
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	assert.Equal(t, "other", field(r.body, "data.k"))

	r = ts.do("PATCH", cmPath+"/a?fieldManager=x&force=true", `{"data":{"k":"y"}}`, "Content-Type", mergePatchType)
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`, r.body["message"])

	r = ts.do("PUT", cmPath+"/a?fieldManager=editor", `{"metadata":{"name":"a"},"data":{"k":"z","n":"1"}}`)
	require.Equal(t, http.StatusOK, r.code, string(r.raw))
	var managers []string
	for _, e := range field(r.body, "metadata.managedFields").([]any) {
		managers = append(managers, e.(map[string]any)["manager"].(string)+"/"+e.(map[string]any)["operation"].(string))
	}
	assert.Equal(t, []string{"mgr1/Apply", "mgr2/Apply", "editor/Update"}, managers, "an update gets its own entry")

	r = ts.do("PATCH", cmPath+"/b?fieldManager=mgr3&dryRun=All", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n", "Content-Type", applyPatchType)
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	assert.Equal(t, http.StatusNotFound, ts.do("GET", cmPath+"/b", "").code, "a dry-run apply stores nothing")
}

func firstOr(list []string, def string) string {
	if len(list) > 0 {
		return list[0]
	}
	return def
}
