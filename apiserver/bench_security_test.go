package apiserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/authz/rbac"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// bearer adds a bearer token to every request of a transport.
type bearer struct {
	token string
	rt    http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.rt.RoundTrip(r)
}

// bindAlice binds alice through 1,000 RoleBindings in 100 namespaces: in
// each, nine bindings to roles that allow nothing on ConfigMaps and, last
// by name, one to the view ClusterRole.
func bindAlice(tb testing.TB, st store.Store) {
	ctx := context.Background()
	put := func(resource, ns, name string, obj meta.Object) {
		obj["metadata"] = map[string]any{"name": name, "namespace": ns}
		if _, err := st.Create(ctx, rbac.Key(resource, ns, name), obj); err != nil {
			tb.Fatal(err)
		}
	}
	for n := 0; n < 100; n++ {
		ns := fmt.Sprintf("ns-%02d", n)
		for i := 0; i < 10; i++ {
			role, kind := fmt.Sprintf("role-%d", i), "Role"
			if i == 9 {
				role, kind = "view", "ClusterRole"
			} else {
				put(rbac.ResourceRoles, ns, role, meta.Object{"rules": []any{map[string]any{
					"apiGroups": []any{""}, "resources": []any{fmt.Sprintf("things%d", i)}, "verbs": []any{"get", "list"}}}})
			}
			put(rbac.ResourceRoleBindings, ns, fmt.Sprintf("binding-%d", i), meta.Object{
				"roleRef":  map[string]any{"apiGroup": rbac.Group, "kind": kind, "name": role},
				"subjects": []any{map[string]any{"kind": "User", "apiGroup": rbac.Group, "name": "alice"}}})
		}
	}
}

// BenchmarkGetAuthorized (issue 15): 8 parallel keep-alive clients GET one
// ConfigMap as alice, authenticated by a static bearer token, alice being
// bound through 1,000 RoleBindings in 100 namespaces. The baseline is the
// same server, same token, with --authorization-mode=AlwaysAllow; the kapi
// run has RBAC. Target: ratio ≥ 0.8.
func BenchmarkGetAuthorized(b *testing.B) {
	const path = "/api/v1/namespaces/ns-57/configmaps/cm"
	serve := func(mode string) *httptest.Server {
		s := newSecured(b, mode)
		bindAlice(b, s.store)
		s.must(b, 201, adminToken, "POST", "/api/v1/namespaces", `{"metadata":{"name":"ns-57"}}`)
		s.must(b, 201, adminToken, "POST", "/api/v1/namespaces/ns-57/configmaps", string(benchkit.ConfigMapJSON("ns-57", "cm", "", 1)))
		s.must(b, 200, aliceToken, "GET", path, "")
		srv := httptest.NewServer(s)
		b.Cleanup(srv.Close)
		return srv
	}
	allowAll, withRBAC := serve("AlwaysAllow"), serve("RBAC")
	run := func(b *testing.B, url string) float64 {
		return parallelGets(b, bearer{aliceToken, benchkit.Transport(64)}, url)
	}
	var sp benchkit.Speed
	b.Run("baseline", func(b *testing.B) { sp.SetBaseline(run(b, allowAll.URL+path)) })
	b.Run("kapi", func(b *testing.B) { sp.Report(b, run(b, withRBAC.URL+path)) })
}
