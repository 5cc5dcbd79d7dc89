package rbac

import (
	"context"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func roleObj(name string, rs ...map[string]any) meta.Object {
	return meta.Object{"metadata": map[string]any{"name": name, "namespace": "ns2"}, "rules": rules(rs...)}
}

func roleBinding(name, kind, ref string) meta.Object {
	b := bindingObj(kind, ref, subject("User", "bob"))
	b["metadata"] = map[string]any{"name": name, "namespace": "ns2"}
	return b
}

// TestEscalation replays what kube-apiserver 1.33 answered (docs/kube-behaviour/08-security.md):
// alice holds create/get/list/update/patch/delete on roles and rolebindings
// and get/list on pods in ns2, and nothing else.
func TestEscalation(t *testing.T) {
	st, rbacAuthz := newPolicy(t, memory.Config{})
	put(t, st, ResourceRoles, "ns2", "rbac-writer", meta.Object{"rules": rules(
		rule([]string{"create", "get", "list", "update", "patch", "delete"}, []string{Group}, []string{"roles", "rolebindings"}))})
	put(t, st, ResourceRoles, "ns2", "pod-reader", meta.Object{"rules": rules(rule([]string{"get", "list"}, []string{""}, []string{"pods"}))})
	put(t, st, ResourceRoles, "ns2", "r2", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"pods"}))})
	put(t, st, ResourceRoleBindings, "ns2", "alice-rbac", bindingObj("Role", "rbac-writer", subject("User", "alice")))
	put(t, st, ResourceRoleBindings, "ns2", "alice-pods", bindingObj("Role", "pod-reader", subject("User", "alice")))
	put(t, st, ResourceClusterRoles, "", "secret-reader", meta.Object{"rules": rules(rule([]string{"get"}, []string{""}, []string{"secrets"}))})
	put(t, st, ResourceRoles, "ns3", "escalator", meta.Object{"rules": rules(
		rule([]string{"create", "escalate", "bind"}, []string{Group}, []string{"roles", "rolebindings", "clusterroles"}))})
	put(t, st, ResourceRoleBindings, "ns3", "alice-escalator", bindingObj("Role", "escalator", subject("User", "alice")))
	e := &Escalation{Authorizer: authz.Union(authz.PrivilegedGroups(authn.SystemPrivilegedGroup), rbacAuthz), Rules: rbacAuthz}
	aliceDev := &authn.User{Name: "alice", Groups: []string{"dev", "qa", authn.AllAuthenticated}}
	const held = `user "alice" (groups=["dev" "qa" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:` + "\n"

	cases := []struct {
		name  string
		user  *authn.User
		write Write
		code  int32
		msg   string
	}{
		{"a role with rules the user holds", aliceDev, Write{Resource: ResourceRoles, Namespace: "ns2",
			Object: roleObj("r2", rule([]string{"get"}, []string{""}, []string{"pods"}))}, 0, ""},
		{"a role with rules the user does not hold", aliceDev, Write{Resource: ResourceRoles, Namespace: "ns2",
			Object: roleObj("r1", rule([]string{"get", "list"}, []string{""}, []string{"secrets", "pods"}),
				rule([]string{"get"}, []string{""}, []string{"configmaps"}, "x", "y"))}, 403,
			`roles.rbac.authorization.k8s.io "r1" is forbidden: ` + held +
				`{APIGroups:[""], Resources:["configmaps"], ResourceNames:["x"], Verbs:["get"]}` + "\n" +
				`{APIGroups:[""], Resources:["configmaps"], ResourceNames:["y"], Verbs:["get"]}` + "\n" +
				`{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`},
		{"a wildcard role", aliceDev, Write{Resource: ResourceRoles, Namespace: "ns2",
			Object: roleObj("r4", rule([]string{"*"}, []string{"*"}, []string{"*"}))}, 403,
			`roles.rbac.authorization.k8s.io "r4" is forbidden: ` + held + `{APIGroups:["*"], Resources:["*"], Verbs:["*"]}`},
		{"an update that adds a verb", aliceDev, Write{Resource: ResourceRoles, Namespace: "ns2", Name: "r2",
			Object:    roleObj("r2", rule([]string{"get", "delete"}, []string{""}, []string{"pods"})),
			OldObject: roleObj("r2", rule([]string{"get"}, []string{""}, []string{"pods"}))}, 403,
			`roles.rbac.authorization.k8s.io "r2" is forbidden: ` + held + `{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}`},
		{"an update of only ownerReferences", aliceDev, Write{Resource: ResourceRoles, Namespace: "ns2", Name: "big",
			Object:    meta.Object{"metadata": map[string]any{"name": "big", "ownerReferences": []any{"x"}}, "rules": rules(rule([]string{"*"}, []string{"*"}, []string{"*"}))},
			OldObject: meta.Object{"metadata": map[string]any{"name": "big"}, "rules": rules(rule([]string{"*"}, []string{"*"}, []string{"*"}))}}, 0, ""},
		{"a binding to a role the user holds the rules of", aliceDev, Write{Resource: ResourceRoleBindings, Namespace: "ns2",
			Object: roleBinding("b3", "Role", "r2")}, 0, ""},
		{"a binding to a role the user does not hold", aliceDev, Write{Resource: ResourceRoleBindings, Namespace: "ns2",
			Object: roleBinding("b1", "ClusterRole", "secret-reader")}, 403,
			`rolebindings.rbac.authorization.k8s.io "b1" is forbidden: ` + held + `{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`},
		{"a binding to a missing role", aliceDev, Write{Resource: ResourceRoleBindings, Namespace: "ns2",
			Object: roleBinding("b2", "ClusterRole", "nope")}, 404, `rolebindings.rbac.authorization.k8s.io "nope" not found`},
		{"anything by a user who may escalate roles", aliceDev, Write{Resource: ResourceRoles, Namespace: "ns3",
			Object: roleObj("any", rule([]string{"*"}, []string{"*"}, []string{"*"}))}, 0, ""},
		{"a binding by a user who may bind the role", aliceDev, Write{Resource: ResourceRoleBindings, Namespace: "ns3",
			Object: roleBinding("b", "ClusterRole", "cluster-admin")}, 0, ""},
		{"anything by system:masters", admin, Write{Resource: ResourceClusterRoleBindings,
			Object: meta.Object{"metadata": map[string]any{"name": "x"}, "roleRef": map[string]any{"kind": "ClusterRole", "name": "nope"}}}, 0, ""},
		{"a cluster role binding to a missing role", aliceDev, Write{Resource: ResourceClusterRoleBindings,
			Object: meta.Object{"metadata": map[string]any{"name": "b2"}, "roleRef": map[string]any{"apiGroup": Group, "kind": "ClusterRole", "name": "nope"}}},
			404, `clusterrolebindings.rbac.authorization.k8s.io "nope" not found`},
		{"a cluster role with non-resource URLs", aliceDev, Write{Resource: ResourceClusterRoles,
			Object: meta.Object{"metadata": map[string]any{"name": "c"}, "rules": rules(rule([]string{"get"}, []string{""}, []string{"pods"}),
				urlRule([]string{"get"}, "/x", "/y/*"))}}, 403,
			`clusterroles.rbac.authorization.k8s.io "c" is forbidden: ` + held + `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}` + "\n" +
				`{NonResourceURLs:["/x"], Verbs:["get"]}` + "\n" + `{NonResourceURLs:["/y/*"], Verbs:["get"]}`},
		{"a cluster role with rules held only in a namespace", aliceDev, Write{Resource: ResourceClusterRoles,
			Object: meta.Object{"metadata": map[string]any{"name": "c"}, "rules": rules(rule([]string{"get"}, []string{""}, []string{"pods"}))}}, 403,
			`clusterroles.rbac.authorization.k8s.io "c" is forbidden: ` + held + `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := e.Check(authn.WithUser(context.Background(), c.user), c.write)
			if c.code == 0 {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			st := meta.AsStatus(err)
			assert.Equal(t, c.code, st.Code)
			assert.Equal(t, c.msg, st.Message)
		})
	}
}
