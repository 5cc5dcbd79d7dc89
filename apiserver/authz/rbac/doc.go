// Package rbac is kube's RBAC authorization over the
// rbac.authorization.k8s.io/v1 objects of a store (Roles, ClusterRoles,
// RoleBindings, ClusterRoleBindings, as JSON maps under the keys the API
// server gives them: Key, KeyPrefix).
//
//   - Authorizer allows a request when a rule of a role bound to its user
//     (by name, group or ServiceAccount) allows it: a ClusterRoleBinding
//     anywhere, a RoleBinding in the request's namespace; wildcards,
//     "*/subresource", resourceNames and non-resource URL prefixes match as
//     in kube. It follows the store through watches, without polling or a
//     goroutine: a decision first drains what the store already holds, so
//     a binding written by one request counts for the next. Bindings are
//     indexed by subject, so a decision reads the user's bindings only,
//     however many there are.
//
//   - Escalation is kube's privilege-escalation prevention (a Role or
//     binding may grant only what its writer holds, unless it may escalate
//     or bind), as a function and as an admission plugin.
//
//   - EnsureBootstrapPolicy writes kube-apiserver 1.33's bootstrap roles
//     and bindings (recorded from a real server, bootstrap.json);
//     RunAggregation fills in aggregated ClusterRoles as
//     kube-controller-manager does; Start does all three.
//
//     st := memory.New(memory.Config{})
//     rbacAuthz, _ := rbac.Start(ctx, st, nil)
//     chain, _ := authz.New("RBAC", map[string]authz.Authorizer{authz.ModeRBAC: rbacAuthz})
//     srv, _ := apiserver.New(apiserver.Config{Store: st, Authorizer: chain,
//     Admission: []any{(&rbac.Escalation{Authorizer: chain, Rules: rbacAuthz}).Admission()}, ...})
package rbac
