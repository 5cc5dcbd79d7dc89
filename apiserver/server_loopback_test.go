package apiserver

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
)

// TestTheServersOwnRequestsAreServedAsWhatTheyAsk: a request the server
// sends itself while it serves another (a Service's create writing its
// IPAddress, a Pod's eviction writing the Pod) is served by its own method
// and path, not by the request info the served request's context carries.
func TestTheServersOwnRequestsAreServedAsWhatTheyAsk(t *testing.T) {
	srv, err := New(Config{Resources: testResources})
	require.NoError(t, err)
	served := func(method, path string) context.Context {
		u, err := url.Parse(path)
		require.NoError(t, err)
		return requestinfo.With(context.Background(), requestinfo.Parse(&http.Request{Method: method, URL: u}))
	}
	cases := []struct {
		name         string
		outer        context.Context
		method, path string
		body         any
		wantCode     int
		wantKind     string
	}{
		{name: "a create while a patch of another kind is served", outer: served("PATCH", "/apis/apps/v1/namespaces/default/deployments/d"),
			method: "POST", path: "/api/v1/namespaces/default/configmaps",
			body: meta.Object{"metadata": map[string]any{"name": "a"}}, wantCode: http.StatusCreated, wantKind: "ConfigMap"},
		{name: "a read while a create is served", outer: served("POST", "/apis/apps/v1/namespaces/default/deployments"),
			method: "GET", path: "/api/v1/namespaces/default/configmaps/a", wantCode: http.StatusOK, wantKind: "ConfigMap"},
		{name: "a delete while a create is served", outer: served("POST", "/api/v1/namespaces/default/leases"),
			method: "DELETE", path: "/api/v1/namespaces/default/configmaps/a", wantCode: http.StatusOK, wantKind: "Status"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, body, err := srv.Do(c.outer, c.method, c.path, c.body)
			require.NoError(t, err, string(body))
			assert.Equal(t, c.wantCode, code)
			assert.Contains(t, string(body), `"kind":"`+c.wantKind+`"`)
		})
	}
}
