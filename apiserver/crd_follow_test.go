package apiserver

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store/memory"
)

func TestAServerFollowingCRDsServesTheTypesAnotherServerDefines(t *testing.T) {
	shared := memory.New(memory.Config{})
	newServer := func() *testServer {
		srv, err := New(Config{Resources: testResources, Store: shared})
		require.NoError(t, err)
		return newTestServerFor(t, srv)
	}
	a, b := newServer(), newServer()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); b.srv.FollowCRDs(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Error("FollowCRDs did not return after its context ended")
		}
	})
	served := func(ts *testServer) bool { return ts.do("GET", widgets, "").code == http.StatusOK }

	crd := a.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	require.Equal(t, http.StatusCreated, crd.code, string(crd.raw))
	require.Eventually(t, func() bool { return served(b) }, time.Minute, 5*time.Millisecond,
		"the server following CRDs serves the type defined through the other")

	w := b.do("POST", widgets, `{"apiVersion":"example.org/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{"size":3}}`)
	require.Equal(t, http.StatusCreated, w.code, string(w.raw))
	assert.Equal(t, "blue", field(w.body, "spec.color"), "with the CRD's schema and defaults")
	got := a.do("GET", widgets+"/w1", "")
	require.Equal(t, http.StatusOK, got.code, string(got.raw))

	del := a.do("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org", "")
	require.Equal(t, http.StatusOK, del.code, string(del.raw))
	require.Eventually(t, func() bool { return !served(b) }, time.Minute, 5*time.Millisecond,
		"the type goes when the other server deletes its CRD")
}

func TestCRDGroupVersionHooksRunAfterTheRegistryIsReleased(t *testing.T) {
	ts := newTestServer(t)
	var seen [][]string
	ts.srv.OnCRDGroupVersionsChange(func(ctx context.Context) {
		// A hook may write CRDs or register hooks itself: the registry's
		// lock is free when it runs (this would deadlock otherwise).
		ts.srv.OnCRDGroupVersionsChange(func(context.Context) {})
		var gvs []string
		for _, gv := range ts.srv.CRDGroupVersions() {
			gvs = append(gvs, gv.Group+"/"+gv.Version)
		}
		seen = append(seen, gvs)
	})
	crd := ts.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCRD)
	require.Equal(t, http.StatusCreated, crd.code, string(crd.raw))
	require.NotEmpty(t, seen)
	assert.Equal(t, []string{"example.org/v1", "example.org/v2"}, seen[len(seen)-1])
}
