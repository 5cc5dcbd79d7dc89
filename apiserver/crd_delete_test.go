package apiserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestDeletingACRDAnswersItTerminating: a CRD's DELETE answers 200 with
// the CRD as kube-apiserver 1.33 does (docs/kube-behaviour), marked for
// deletion and holding the cleanup finalizer, and the same CRD can be
// created again at once. The server is built as a served one is: the
// built-in kinds (local APIServices follow the CRD's group) behind the
// authentication and authorization filters.
func TestDeletingACRDAnswersItTerminating(t *testing.T) {
	hooks, err := builtin.PostStartHooks(builtin.Options{})
	require.NoError(t, err)
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), PostStartHooks: hooks,
		OpenAPIComponents: builtin.OpenAPIComponents(), Authenticator: authn.New(true), Authorizer: authz.AlwaysAllow()})
	require.NoError(t, err)
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	do := func(method, path, body string) (int, map[string]any) {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var out map[string]any
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &out), rec.Body.String())
		return rec.Code, out
	}
	crd := `{"metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced",
		"names":{"plural":"widgets","kind":"Widget"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`
	for _, round := range []string{"first", "again after the delete"} {
		code, out := do("POST", crds, crd)
		require.Equal(t, http.StatusCreated, code, "%s: %v", round, out)
		code, out = do("DELETE", crds+"/widgets.example.com", `{"propagationPolicy":"Background"}`)
		require.Equal(t, http.StatusOK, code, "%s: %v", round, out)
		md := out["metadata"].(map[string]any)
		assert.NotEmpty(t, md["deletionTimestamp"], round)
		assert.Equal(t, []any{"customresourcecleanup.apiextensions.k8s.io"}, md["finalizers"], round)
		code, _ = do("GET", crds+"/widgets.example.com", "")
		assert.Equal(t, http.StatusNotFound, code, "%s: the CRD goes", round)
	}
}
