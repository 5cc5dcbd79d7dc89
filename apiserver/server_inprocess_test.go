package apiserver_test

// Tests of what the server offers its in-process controllers (Store,
// Loopback, Served), and of kube's refusal of creates in a namespace being
// deleted (docs/kube-behaviour/09-controllers.md).

import (
	"context"
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
	"github.com/kapi-dev/kapi/meta"
)

func TestServedMapsKindsAndStorageKeysBothWays(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
	require.NoError(t, err)
	served := srv.Served()
	assert.Same(t, served, srv.Served(), "one view until the served types change")

	cm, ok := served.ForKind(meta.GroupKind{Kind: "ConfigMap"})
	require.True(t, ok)
	assert.Equal(t, "/api/v1/namespaces/ns/configmaps", cm.Path("ns"))
	assert.True(t, cm.Supports(apiserver.VerbDeleteCollection))
	r, ns, name, ok := served.ForKey(cm.Key("ns", "name"))
	require.True(t, ok)
	assert.Equal(t, []string{"configmaps", "ns", "name"}, []string{r.Resource, ns, name})

	nsRes, ok := served.ForKind(meta.GroupKind{Kind: "Namespace"})
	require.True(t, ok)
	assert.False(t, nsRes.Namespaced)
	r, ns, name, ok = served.ForKey(nsRes.Key("", "default"))
	require.True(t, ok)
	assert.Equal(t, []string{"namespaces", "", "default"}, []string{r.Resource, ns, name})

	obj, err := srv.Store().Get(context.Background(), nsRes.Key("", "default"))
	require.NoError(t, err, "the key is where the store keeps the object")
	assert.Equal(t, "default", obj.Data().Name())

	_, _, _, ok = served.ForKey("/nothing.example.com/x")
	assert.False(t, ok)

	ks := newKubeServerFor(t, srv)
	ks.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
		"metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},
		"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`)
	next := srv.Served()
	assert.NotSame(t, served, next, "a new CRD gives a new view")
	w, ok := next.ForKind(meta.GroupKind{Group: "example.com", Kind: "Widget"})
	require.True(t, ok)
	assert.Equal(t, "/apis/example.com/v1/namespaces/ns/widgets", w.Path("ns"))
}

func TestLoopbackSkipsTheFiltersButRunsThePipeline(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(),
		Authenticator: authn.New(false), Authorizer: authz.AlwaysDeny()})
	require.NoError(t, err)
	body := `{"metadata":{"name":"c"},"data":{"k":"v"}}`

	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("POST", "/api/v1/namespaces/default/configmaps", strings.NewReader(body)))
	assert.Equal(t, http.StatusUnauthorized, w.Code, "the network gets the filters")

	r := httptest.NewRequest("POST", "/api/v1/namespaces/default/configmaps?fieldManager=in-process", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	w = httptest.NewRecorder()
	srv.Loopback().ServeHTTP(w, r)
	require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
	assert.Contains(t, w.Body.String(), `"manager":"in-process"`, "the pipeline ran")

	r = httptest.NewRequest("POST", "/api/v1/namespaces/default/configmaps", strings.NewReader("{"))
	r.Header.Set("Content-Type", "application/json")
	w = httptest.NewRecorder()
	srv.Loopback().ServeHTTP(w, r)
	assert.Equal(t, http.StatusBadRequest, w.Code, "and its errors")
}

func newKubeServerFor(t *testing.T, srv *apiserver.Server) *kubeServer {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &kubeServer{t: t, url: hs.URL}
}

// A create in a namespace being deleted is refused by kube's
// NamespaceLifecycle admission, before validation, naming the object (its
// generateName when it has no name) with the NamespaceTerminating cause.
func TestCreateInATerminatingNamespaceIsRefusedAsKubeRefusesIt(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"term1"}}`)
	ks.must(201, "POST", "/api/v1/namespaces/term1/configmaps", `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`)
	ks.must(200, "DELETE", "/api/v1/namespaces/term1", "")

	for _, tc := range []struct{ name, body, message, detailName string }{
		{"by name", `{"metadata":{"name":"new"}}`, `configmaps \"new\" is forbidden: unable to create new content in namespace term1 because it is being terminated`, "new"},
		{"by generateName", `{"metadata":{"generateName":"new-"}}`, `configmaps \"new-\" is forbidden: unable to create new content in namespace term1 because it is being terminated`, "new-"},
		{"invalid, refused before validation", `{"metadata":{"name":"Not_Valid"}}`, `configmaps \"Not_Valid\" is forbidden: unable to create new content in namespace term1 because it is being terminated`, "Not_Valid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kubeSays(t, ks.do("POST", "/api/v1/namespaces/term1/configmaps", tc.body), 403, map[string]string{
				"kind": `"Status"`, "status": `"Failure"`, "reason": `"Forbidden"`, "code": `403`,
				"message":                  `"` + tc.message + `"`,
				"details.name":             `"` + tc.detailName + `"`,
				"details.kind":             `"configmaps"`,
				"details.causes.0.reason":  `"NamespaceTerminating"`,
				"details.causes.0.message": `"namespace term1 is being terminated"`,
				"details.causes.0.field":   `"metadata.namespace"`,
				"details.group":            absent,
			})
		})
	}
	t.Run("an update of what is there is allowed", func(t *testing.T) {
		ks.must(200, "PUT", "/api/v1/namespaces/term1/configmaps/held",
			`{"metadata":{"name":"held","finalizers":["example.com/hold"]},"data":{"a":"b"}}`)
	})
	t.Run("a namespace that does not exist is a 404 for it", func(t *testing.T) {
		kubeSays(t, ks.do("POST", "/api/v1/namespaces/nonexist/configmaps", `{"metadata":{"name":"new"}}`), 404, map[string]string{
			"message": `"namespaces \"nonexist\" not found"`, "details.kind": `"namespaces"`, "details.name": `"nonexist"`})
	})
}

// kube's namespace registry only marks a namespace at its first DELETE,
// spec.finalizers or not; a namespace finalized by hand and deleted stays
// Terminating until deleted again, and what it held stays stored, as in
// kube.
func TestAFinalizedNamespaceIsOnlyMarkedByItsFirstDelete(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"leak1"}}`)
	ks.must(201, "POST", "/api/v1/namespaces/leak1/configmaps", `{"metadata":{"name":"data"},"data":{"secret":"x"}}`)
	kubeSays(t, ks.do("PUT", "/api/v1/namespaces/leak1/finalize", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"leak1"},"spec":{"finalizers":[]}}`),
		200, map[string]string{"spec": `{}`, "status.phase": `"Active"`})
	kubeSays(t, ks.do("DELETE", "/api/v1/namespaces/leak1", ""), 200, map[string]string{"status.phase": `"Terminating"`, "spec": `{}`})
	kubeSays(t, ks.do("GET", "/api/v1/namespaces/leak1", ""), 200, map[string]string{"status.phase": `"Terminating"`})
	ks.must(200, "DELETE", "/api/v1/namespaces/leak1", "")
	ks.must(404, "GET", "/api/v1/namespaces/leak1", "")
	ks.must(201, "POST", "/api/v1/namespaces", `{"metadata":{"name":"leak1"}}`)
	ks.must(200, "GET", "/api/v1/namespaces/leak1/configmaps/data", "")
}
