package rbac

import (
	"context"
	"fmt"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store/memory"
)

// BenchmarkAuthorize: one decision for a user bound through 1,000
// RoleBindings in 100 namespaces (the allowing one last in its namespace),
// over kube's bootstrap policy. It should not depend on the number of
// bindings elsewhere.
func BenchmarkAuthorize(b *testing.B) {
	st := memory.New(memory.Config{})
	if err := EnsureBootstrapPolicy(context.Background(), st, t0); err != nil {
		b.Fatal(err)
	}
	if err := AggregateOnce(context.Background(), st, now); err != nil {
		b.Fatal(err)
	}
	for n := 0; n < 100; n++ {
		ns := fmt.Sprintf("ns-%02d", n)
		for i := 0; i < 10; i++ {
			role, kind := fmt.Sprintf("role-%d", i), "Role"
			if i == 9 {
				role, kind = "view", "ClusterRole"
			} else {
				r := meta.Object{"metadata": map[string]any{"name": role, "namespace": ns}, "rules": []any{map[string]any{
					"apiGroups": []any{""}, "resources": []any{fmt.Sprintf("things%d", i)}, "verbs": []any{"get", "list"}}}}
				if _, err := st.Create(context.Background(), Key(ResourceRoles, ns, role), r); err != nil {
					b.Fatal(err)
				}
			}
			obj := meta.Object{"metadata": map[string]any{"name": fmt.Sprintf("b-%d", i), "namespace": ns},
				"roleRef":  map[string]any{"apiGroup": Group, "kind": kind, "name": role},
				"subjects": []any{map[string]any{"kind": "User", "apiGroup": Group, "name": "alice"}}}
			if _, err := st.Create(context.Background(), Key(ResourceRoleBindings, ns, fmt.Sprintf("b-%d", i)), obj); err != nil {
				b.Fatal(err)
			}
		}
	}
	a, err := New(st)
	if err != nil {
		b.Fatal(err)
	}
	u := &authn.User{Name: "alice", Groups: []string{"dev", authn.AllAuthenticated}}
	attrs := authz.Attributes{User: u, Verb: "get", Resource: "configmaps", Namespace: "ns-57", Name: "cm", ResourceRequest: true}
	b.Run("rbac=unchanged", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if d, _, _ := a.Authorize(context.Background(), attrs); d != authz.Allow {
				b.Fatal("denied")
			}
		}
	})
	// Every decision after a write of another kind (a create of a
	// ConfigMap, as a client creating objects makes between its requests):
	// the RBAC objects did not change, so neither should the cost.
	written := 0
	b.Run("rbac=unchanged,store=written", func(b *testing.B) {
		cm := meta.Object{"metadata": map[string]any{"name": "cm", "namespace": "ns-57"}}
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			if _, err := st.Create(context.Background(), fmt.Sprintf("/configmaps/ns-57/cm-%d", written), cm); err != nil {
				b.Fatal(err)
			}
			written++
			b.StartTimer()
			if d, _, _ := a.Authorize(context.Background(), attrs); d != authz.Allow {
				b.Fatal("denied")
			}
		}
	})
}
