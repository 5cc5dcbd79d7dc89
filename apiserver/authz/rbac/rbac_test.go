package rbac

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)

func now() time.Time { return t0 }

// newPolicy returns a store holding kube's bootstrap policy, with the
// aggregated roles filled in, and an RBAC authorizer over it.
func newPolicy(t *testing.T, cfg memory.Config) (store.Store, *Authorizer) {
	t.Helper()
	st := memory.New(cfg)
	require.NoError(t, EnsureBootstrapPolicy(context.Background(), st, t0))
	require.NoError(t, AggregateOnce(context.Background(), st, now))
	a, err := New(st)
	require.NoError(t, err)
	t.Cleanup(a.Close)
	return st, a
}

func rules(rs ...map[string]any) []any {
	out := make([]any, len(rs))
	for i, r := range rs {
		out[i] = r
	}
	return out
}

func rule(verbs, groups, resources []string, names ...string) map[string]any {
	r := map[string]any{"verbs": anyList(verbs), "apiGroups": anyList(groups), "resources": anyList(resources)}
	if len(names) > 0 {
		r["resourceNames"] = anyList(names)
	}
	return r
}

func urlRule(verbs []string, urls ...string) map[string]any {
	return map[string]any{"verbs": anyList(verbs), "nonResourceURLs": anyList(urls)}
}

func put(t *testing.T, st store.Store, resource, ns, name string, obj meta.Object) {
	t.Helper()
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	if m, ok := obj["metadata"].(map[string]any); ok {
		for k, v := range m {
			md[k] = v
		}
	}
	obj["metadata"] = md
	key := Key(resource, ns, name)
	_, err := st.Update(context.Background(), key, store.UpdateOptions{AllowCreate: true}, func(*store.Object) (meta.Object, error) {
		return obj.DeepCopy(), nil
	})
	require.NoError(t, err)
}

func del(t *testing.T, st store.Store, resource, ns, name string) {
	t.Helper()
	_, err := st.Delete(context.Background(), Key(resource, ns, name), store.Preconditions{}, nil)
	require.NoError(t, err)
}

func subject(kind, name string, ns ...string) map[string]any {
	s := map[string]any{"kind": kind, "name": name}
	if kind != "ServiceAccount" {
		s["apiGroup"] = Group
	}
	if len(ns) > 0 {
		s["namespace"] = ns[0]
	}
	return s
}

func bindingObj(roleKind, role string, subjects ...map[string]any) meta.Object {
	subs := make([]any, len(subjects))
	for i, s := range subjects {
		subs[i] = s
	}
	return meta.Object{"roleRef": map[string]any{"apiGroup": Group, "kind": roleKind, "name": role}, "subjects": subs}
}

var (
	alice = &authn.User{Name: "alice", Groups: []string{"dev", authn.AllAuthenticated}}
	sa1   = &authn.User{Name: "system:serviceaccount:ns1:sa1", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:ns1", authn.AllAuthenticated}}
	admin = &authn.User{Name: "root", Groups: []string{authn.SystemPrivilegedGroup, authn.AllAuthenticated}}
	anon  = &authn.User{Name: authn.Anonymous, Groups: []string{authn.AllUnauthenticated}}
)

func res(u *authn.User, verb, group, resource, sub, ns, name string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, APIGroup: group, Resource: resource, Subresource: sub, Namespace: ns, Name: name, ResourceRequest: true}
}

func path(u *authn.User, verb, p string) authz.Attributes {
	return authz.Attributes{User: u, Verb: verb, Path: p}
}

func TestRBAC(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	put(t, st, ResourceRoles, "ns1", "reader", meta.Object{"rules": rules(
		rule([]string{"get", "list", "watch"}, []string{""}, []string{"configmaps"}),
		rule([]string{"get"}, []string{""}, []string{"secrets"}, "only-this"),
		rule([]string{"update"}, []string{""}, []string{"pods/status"}),
		rule([]string{"get"}, []string{"apps"}, []string{"*/scale"}),
		rule([]string{"*"}, []string{"batch"}, []string{"*"}),
	)})
	put(t, st, ResourceRoleBindings, "ns1", "alice-reader", bindingObj("Role", "reader", subject("User", "alice")))
	put(t, st, ResourceRoleBindings, "ns1", "sa-reader", bindingObj("Role", "reader", subject("ServiceAccount", "sa1")))
	put(t, st, ResourceClusterRoles, "", "url-reader", meta.Object{"rules": rules(urlRule([]string{"get"}, "/logs/*", "/metrics"))})
	put(t, st, ResourceClusterRoleBindings, "", "dev-urls", bindingObj("ClusterRole", "url-reader", subject("Group", "dev")))
	put(t, st, ResourceRoleBindings, "ns2", "dev-view", bindingObj("ClusterRole", "view", subject("Group", "dev")))

	cases := []struct {
		name   string
		attrs  authz.Attributes
		allow  bool
		reason string
	}{
		{"system:masters is cluster-admin", res(admin, "delete", "", "nodes", "", "", "n"), true,
			`RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"`},
		{"a Role allows its verbs in its namespace", res(alice, "list", "", "configmaps", "", "ns1", ""), true,
			`RBAC: allowed by RoleBinding "alice-reader/ns1" of Role "reader" to User "alice"`},
		{"a Role allows nothing in another namespace", res(alice, "list", "", "configmaps", "", "ns3", ""), false, ""},
		{"a Role allows nothing across namespaces", res(alice, "list", "", "configmaps", "", "", ""), false, ""},
		{"a Role allows no other verb", res(alice, "delete", "", "configmaps", "", "ns1", "c"), false, ""},
		{"resourceNames allow the named object", res(alice, "get", "", "secrets", "", "ns1", "only-this"), true,
			`RBAC: allowed by RoleBinding "alice-reader/ns1" of Role "reader" to User "alice"`},
		{"resourceNames allow no other object", res(alice, "get", "", "secrets", "", "ns1", "other"), false, ""},
		{"resourceNames allow no list", res(alice, "list", "", "secrets", "", "ns1", ""), false, ""},
		{"a subresource rule allows the subresource", res(alice, "update", "", "pods", "status", "ns1", "p"), true,
			`RBAC: allowed by RoleBinding "alice-reader/ns1" of Role "reader" to User "alice"`},
		{"a subresource rule does not allow the resource", res(alice, "update", "", "pods", "", "ns1", "p"), false, ""},
		{"*/scale allows the scale of any resource", res(alice, "get", "apps", "deployments", "scale", "ns1", "d"), true,
			`RBAC: allowed by RoleBinding "alice-reader/ns1" of Role "reader" to User "alice"`},
		{"*/scale does not allow status", res(alice, "get", "apps", "deployments", "status", "ns1", "d"), false, ""},
		{"a wildcard allows every resource and verb of its group", res(alice, "deletecollection", "batch", "jobs", "", "ns1", ""), true,
			`RBAC: allowed by RoleBinding "alice-reader/ns1" of Role "reader" to User "alice"`},
		{"a wildcard resource also matches subresources", res(alice, "patch", "batch", "jobs", "status", "ns1", "j"), true,
			`RBAC: allowed by RoleBinding "alice-reader/ns1" of Role "reader" to User "alice"`},
		{"a wildcard does not cross groups", res(alice, "get", "apps", "deployments", "", "ns1", "d"), false, ""},
		{"a ServiceAccount subject without namespace is one of the binding's namespace", res(sa1, "watch", "", "configmaps", "", "ns1", ""), true,
			`RBAC: allowed by RoleBinding "sa-reader/ns1" of Role "reader" to ServiceAccount "sa1/ns1"`},
		{"a non-resource URL prefix rule allows paths under it", path(alice, "get", "/logs/kube/x"), true,
			`RBAC: allowed by ClusterRoleBinding "dev-urls" of ClusterRole "url-reader" to Group "dev"`},
		{"a non-resource URL rule allows its path", path(alice, "get", "/metrics"), true,
			`RBAC: allowed by ClusterRoleBinding "dev-urls" of ClusterRole "url-reader" to Group "dev"`},
		{"a non-resource URL rule allows no other verb", path(alice, "post", "/metrics"), false, ""},
		{"system:authenticated may discover the API", path(alice, "get", "/apis/apps/v1"), true,
			`RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"`},
		{"system:authenticated may review its own access", res(alice, "create", "authorization.k8s.io", "selfsubjectaccessreviews", "", "", ""), true,
			`RBAC: allowed by ClusterRoleBinding "system:basic-user" of ClusterRole "system:basic-user" to Group "system:authenticated"`},
		{"anonymous may read /healthz", path(anon, "get", "/healthz"), true,
			`RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"`},
		{"anonymous may not discover the API", path(anon, "get", "/api"), false, ""},
		{"the aggregated view role reads pods through a group binding", res(alice, "list", "", "pods", "", "ns2", ""), true,
			`RBAC: allowed by RoleBinding "dev-view/ns2" of ClusterRole "view" to Group "dev"`},
		{"the aggregated view role reads no secrets", res(alice, "get", "", "secrets", "", "ns2", "s"), false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, reason, err := a.Authorize(context.Background(), c.attrs)
			require.NoError(t, err)
			if c.allow {
				assert.Equal(t, authz.Allow, d)
			} else {
				assert.Equal(t, authz.NoOpinion, d)
			}
			assert.Equal(t, c.reason, reason)
		})
	}
}

func TestRBACSeesEveryWriteBeforeTheNextDecision(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	get := res(alice, "get", "", "configmaps", "", "ns1", "c")
	decide := func() authz.Decision { d, _, _ := a.Authorize(context.Background(), get); return d }
	require.Equal(t, authz.NoOpinion, decide())

	put(t, st, ResourceRoleBindings, "ns1", "b", bindingObj("ClusterRole", "edit", subject("User", "alice")))
	assert.Equal(t, authz.Allow, decide(), "a new binding counts at once")

	put(t, st, ResourceClusterRoles, "", "edit", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"pods"}))})
	assert.Equal(t, authz.NoOpinion, decide(), "a changed role counts at once")

	put(t, st, ResourceClusterRoles, "", "edit", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"configmaps"}))})
	require.Equal(t, authz.Allow, decide())
	del(t, st, ResourceRoleBindings, "ns1", "b")
	assert.Equal(t, authz.NoOpinion, decide(), "a deleted binding counts at once")
}

func TestRBACRelistsWhenTheHistoryOvertakesIt(t *testing.T) {
	st, a := newPolicy(t, memory.Config{HistoryLimit: 4, MaxHistory: 4, MinHistoryAge: -1})
	get := res(alice, "get", "", "configmaps", "", "ns1", "c")
	for i := 0; i < 20; i++ { // far more writes than the history keeps
		put(t, st, ResourceRoles, "ns1", fmt.Sprintf("r%d", i), meta.Object{"rules": rules()})
	}
	put(t, st, ResourceRoleBindings, "ns1", "b", bindingObj("ClusterRole", "edit", subject("User", "alice")))
	d, _, err := a.Authorize(context.Background(), get)
	require.NoError(t, err)
	assert.Equal(t, authz.Allow, d)
}

func TestRBACReportsMissingRoles(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	put(t, st, ResourceRoleBindings, "ns1", "b1", bindingObj("Role", "missing-r", subject("User", "bob")))
	put(t, st, ResourceRoleBindings, "ns1", "b2", bindingObj("ClusterRole", "missing-cr", subject("User", "bob")))
	bob := &authn.User{Name: "bob"}
	d, reason, err := a.Authorize(context.Background(), res(bob, "get", "", "pods", "", "ns1", "p"))
	require.NoError(t, err)
	assert.Equal(t, authz.NoOpinion, d)
	assert.Equal(t, `RBAC: [role.rbac.authorization.k8s.io "missing-r" not found, clusterrole.rbac.authorization.k8s.io "missing-cr" not found]`, reason)
	_, _, _, err = a.RulesFor(context.Background(), bob, "ns1")
	assert.EqualError(t, err, `[role.rbac.authorization.k8s.io "missing-r" not found, clusterrole.rbac.authorization.k8s.io "missing-cr" not found]`)
}

func TestRulesFor(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	put(t, st, ResourceRoles, "ns1", "r", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"pods"}, "p"))})
	put(t, st, ResourceRoleBindings, "ns1", "b", bindingObj("Role", "r", subject("User", "alice"), subject("Group", "dev")))
	rr, nr, incomplete, err := a.RulesFor(context.Background(), alice, "ns1")
	require.NoError(t, err)
	assert.False(t, incomplete)
	// system:basic-user, then the binding, once although two subjects match
	assert.Equal(t, []authz.ResourceRule{
		{Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews", "selfsubjectrulesreviews"}},
		{Verbs: []string{"create"}, APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"selfsubjectreviews"}},
		{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}, ResourceNames: []string{"p"}},
	}, rr)
	assert.Equal(t, []authz.NonResourceRule{
		{Verbs: []string{"get"}, NonResourceURLs: []string{"/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"}},
		{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/livez", "/readyz", "/version", "/version/"}},
	}, nr)
}

func TestBootstrapPolicy(t *testing.T) {
	st, _ := newPolicy(t, memory.Config{})
	list := func(res string) map[string]meta.Object {
		l, err := st.List(context.Background(), KeyPrefix(res), store.ListOptions{})
		require.NoError(t, err)
		out := map[string]meta.Object{}
		for _, o := range l.Items {
			out[o.Data().Namespace()+"/"+o.Data().Name()] = o.Data()
		}
		return out
	}
	crs, crbs := list(ResourceClusterRoles), list(ResourceClusterRoleBindings)
	assert.Len(t, crs, 66)
	assert.Len(t, crbs, 47)
	assert.Len(t, list(ResourceRoles), 7)
	assert.Len(t, list(ResourceRoleBindings), 7)
	for _, name := range []string{"cluster-admin", "admin", "edit", "view", "system:basic-user", "system:discovery", "system:public-info-viewer", "system:auth-delegator"} {
		assert.Contains(t, crs, "/"+name)
	}
	ca := crs["/cluster-admin"]
	assert.Equal(t, "2026-11-24T20:00:00Z", ca.CreationTimestamp())
	assert.NotEmpty(t, ca.UID())
	assert.Equal(t, []any{map[string]any{"apiGroups": []any{"*"}, "resources": []any{"*"}, "verbs": []any{"*"}},
		map[string]any{"nonResourceURLs": []any{"*"}, "verbs": []any{"*"}}}, ca["rules"])
	assert.Equal(t, []any{map[string]any{"apiGroup": Group, "kind": "Group", "name": "system:masters"}}, crbs["/cluster-admin"]["subjects"])

	t.Run("a second start keeps what users changed and restores what bootstrap roles lost", func(t *testing.T) {
		put(t, st, ResourceClusterRoles, "", "system:basic-user", meta.Object{
			"metadata": map[string]any{"annotations": map[string]any{autoupdateAnnotation: "true"}},
			"rules":    rules(rule([]string{"get"}, []string{"x"}, []string{"y"}))})
		put(t, st, ResourceClusterRoles, "", "system:discovery", meta.Object{
			"metadata": map[string]any{"annotations": map[string]any{autoupdateAnnotation: "false"}}, "rules": rules()})
		require.NoError(t, EnsureBootstrapPolicy(context.Background(), st, t0))
		crs := list(ResourceClusterRoles)
		assert.Equal(t, []Rule{
			{Verbs: []string{"get"}, APIGroups: []string{"x"}, Resources: []string{"y"}},
			{Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectaccessreviews"}},
			{Verbs: []string{"create"}, APIGroups: []string{"authorization.k8s.io"}, Resources: []string{"selfsubjectrulesreviews"}},
			{Verbs: []string{"create"}, APIGroups: []string{"authentication.k8s.io"}, Resources: []string{"selfsubjectreviews"}},
		}, RulesOf(crs["/system:basic-user"]))
		assert.Empty(t, RulesOf(crs["/system:discovery"]), "autoupdate=false is left alone")
	})
}

func TestAggregatedRolesMatchKubes(t *testing.T) {
	// testdata/aggregated-rules.json: the rules kube-controller-manager
	// 1.33's clusterrole-aggregation controller wrote into admin, edit and
	// view over kube-apiserver 1.33.13's bootstrap policy.
	raw, err := os.ReadFile("testdata/aggregated-rules.json")
	require.NoError(t, err)
	var want map[string][]any
	require.NoError(t, json.Unmarshal(raw, &want))
	st, _ := newPolicy(t, memory.Config{})
	for name, rules := range want {
		obj, err := st.Get(context.Background(), Key(ResourceClusterRoles, "", name))
		require.NoError(t, err)
		assert.Equal(t, parseRules(rules), RulesOf(obj.Data()), name)
		mf := obj.Data().Metadata()["managedFields"].([]any)
		assert.Equal(t, map[string]any{"manager": AggregationManager, "operation": "Apply", "apiVersion": "rbac.authorization.k8s.io/v1",
			"time": "2026-11-24T20:00:00Z", "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:rules": map[string]any{}}}, mf[0])
		assert.Len(t, mf, 2, "the controller's Apply entry before kube-apiserver's Update entry")
	}
}

func TestAggregationFollowsChanges(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- RunAggregation(ctx, st, now) }()
	defer func() { cancel(); require.NoError(t, <-done) }()

	put(t, st, ResourceClusterRoleBindings, "", "alice-view", bindingObj("ClusterRole", "view", subject("User", "alice")))
	widgets := res(alice, "list", "example.com", "widgets", "", "ns1", "")
	d, _, _ := a.Authorize(context.Background(), widgets)
	require.Equal(t, authz.NoOpinion, d)
	put(t, st, ResourceClusterRoles, "", "widget-viewer", meta.Object{
		"metadata": map[string]any{"labels": map[string]any{"rbac.authorization.k8s.io/aggregate-to-view": "true"}},
		"rules":    rules(rule([]string{"list"}, []string{"example.com"}, []string{"widgets"}))})
	assert.Eventually(t, func() bool {
		d, _, _ := a.Authorize(context.Background(), widgets)
		return d == authz.Allow
	}, time.Minute, 5*time.Millisecond, "view (and admin, edit) gained the new role's rules")

	del(t, st, ResourceClusterRoles, "", "widget-viewer")
	assert.Eventually(t, func() bool {
		d, _, _ := a.Authorize(context.Background(), widgets)
		return d == authz.NoOpinion
	}, time.Minute, 5*time.Millisecond, "and lost them with it")
}

func TestRBACUnderConcurrentWritesAndDecisions(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	for w := 0; w < 4; w++ {
		go func() {
			defer func() { done <- struct{}{} }()
			attrs := res(alice, "get", "", "configmaps", "", "ns1", "c")
			for ctx.Err() == nil {
				if _, _, err := a.Authorize(context.Background(), attrs); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := 0; i < 200; i++ {
		put(t, st, ResourceRoleBindings, "ns1", fmt.Sprintf("b%d", i%7), bindingObj("ClusterRole", "view", subject("User", fmt.Sprintf("u%d", i))))
	}
	put(t, st, ResourceRoleBindings, "ns1", "alice", bindingObj("ClusterRole", "view", subject("User", "alice")))
	d, _, _ := a.Authorize(context.Background(), res(alice, "get", "", "configmaps", "", "ns1", "c"))
	assert.Equal(t, authz.Allow, d, "the last write counts for the next decision")
	cancel()
	for w := 0; w < 4; w++ {
		<-done
	}
}

func TestRBACRemembersDecisionsOnlyWhileTheRBACObjectsStay(t *testing.T) {
	st, a := newPolicy(t, memory.Config{})
	put(t, st, ResourceRoleBindings, "ns1", "dev-view", bindingObj("ClusterRole", "view", subject("Group", "dev")))
	get := res(alice, "get", "", "configmaps", "", "ns1", "c")
	decide := func(attrs authz.Attributes) (authz.Decision, string) {
		d, reason, err := a.Authorize(context.Background(), attrs)
		require.NoError(t, err)
		return d, reason
	}

	t.Run("a repeated request gets the same decision and reason", func(t *testing.T) {
		d1, r1 := decide(get)
		d2, r2 := decide(get)
		assert.Equal(t, authz.Allow, d1)
		assert.Equal(t, d1, d2)
		assert.Equal(t, r1, r2)
	})
	t.Run("writes of other kinds keep the remembered decisions", func(t *testing.T) {
		decide(get)
		before := a.c.current().decisions
		_, err := st.Create(context.Background(), "/configmaps/ns1/other", meta.Object{"metadata": map[string]any{"name": "other", "namespace": "ns1"}})
		require.NoError(t, err)
		after := a.c.current()
		assert.Equal(t, st.Revision(), after.rev)
		assert.Same(t, before, after.decisions)
	})
	t.Run("the same name in other groups is another decision", func(t *testing.T) {
		decide(get)
		notDev := &authn.User{Name: "alice", Groups: []string{authn.AllAuthenticated}}
		d, _ := decide(res(notDev, "get", "", "configmaps", "", "ns1", "c"))
		assert.Equal(t, authz.NoOpinion, d)
	})
	t.Run("a user with more groups than are remembered is decided every time", func(t *testing.T) {
		many := &authn.User{Name: "zed", Groups: []string{"a", "b", "c", "d", "dev"}}
		for range 2 {
			d, _ := decide(res(many, "get", "", "configmaps", "", "ns1", "c"))
			assert.Equal(t, authz.Allow, d)
		}
	})
	t.Run("a denial is remembered and forgotten when a binding allows it", func(t *testing.T) {
		list := res(alice, "list", "", "secrets", "", "ns1", "")
		for range 2 {
			d, _ := decide(list)
			require.Equal(t, authz.NoOpinion, d)
		}
		put(t, st, ResourceRoleBindings, "ns1", "alice-edit", bindingObj("ClusterRole", "admin", subject("User", "alice")))
		d, reason := decide(list)
		assert.Equal(t, authz.Allow, d)
		assert.Equal(t, `RBAC: allowed by RoleBinding "alice-edit/ns1" of ClusterRole "admin" to User "alice"`, reason)
	})
	t.Run("a changed role counts at once for a remembered allow", func(t *testing.T) {
		put(t, st, ResourceClusterRoles, "", "narrow", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"pods"}))})
		put(t, st, ResourceRoleBindings, "ns2", "narrow", bindingObj("ClusterRole", "narrow", subject("User", "alice")))
		pod := res(alice, "get", "", "pods", "", "ns2", "p")
		for range 2 {
			d, _ := decide(pod)
			require.Equal(t, authz.Allow, d)
		}
		put(t, st, ResourceClusterRoles, "", "narrow", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"services"}))})
		d, _ := decide(pod)
		assert.Equal(t, authz.NoOpinion, d)
	})
}
