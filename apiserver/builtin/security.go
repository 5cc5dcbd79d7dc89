package builtin

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

// RBACResources returns the registrations of the
// rbac.authorization.k8s.io/v1 kinds: Role, ClusterRole, RoleBinding and
// ClusterRoleBinding, with kube's schemas and printer columns. Their
// objects are what the RBAC authorizer (apiserver/authz/rbac) reads; its
// escalation check is an admission plugin (rbac.Escalation.Admission).
func RBACResources() []apiserver.Resource {
	const g = "rbac.authorization.k8s.io"
	rs := []apiserver.Resource{
		{Group: g, Version: "v1", Kind: "Role", Plural: "roles", Namespaced: true, WithoutGeneration: true},
		{Group: g, Version: "v1", Kind: "ClusterRole", Plural: "clusterroles", WithoutGeneration: true},
		{Group: g, Version: "v1", Kind: "RoleBinding", Plural: "rolebindings", Namespaced: true, WithoutGeneration: true,
			PrinterColumns: bindingColumns("roleBinding", "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.")},
		{Group: g, Version: "v1", Kind: "ClusterRoleBinding", Plural: "clusterrolebindings", WithoutGeneration: true,
			PrinterColumns: bindingColumns("clusterRoleBinding", "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.")},
	}
	return withSchemas(rs)
}

func withSchemas(rs []apiserver.Resource) []apiserver.Resource {
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		rs[i].Schema = Schema(gvk)
		rs[i].OpenAPIComponent = ComponentName(gvk)
	}
	return rs
}

// bindingColumns are kube's columns of RoleBindings and
// ClusterRoleBindings: the role, the age, and with -o wide the subjects by
// kind (ServiceAccounts as namespace/name).
func bindingColumns(kind, roleDescription string) []apiserver.PrinterColumn {
	subjects := func(want string) func(meta.Object, time.Time) any {
		return func(o meta.Object, _ time.Time) any {
			var out []string
			for _, s := range asList(field(o, "subjects")) {
				m, _ := s.(map[string]any)
				if k, _ := m["kind"].(string); k != want {
					continue
				}
				name, _ := m["name"].(string)
				if want == "ServiceAccount" {
					ns, _ := m["namespace"].(string)
					name = ns + "/" + name
				}
				out = append(out, name)
			}
			return strings.Join(out, ", ")
		}
	}
	return []apiserver.PrinterColumn{
		column("Role", "string", roleDescription, 0, func(o meta.Object, _ time.Time) any {
			return str(o, "roleRef", "kind") + "/" + str(o, "roleRef", "name")
		}),
		apiserver.AgeColumn(),
		column("Users", "string", "Users in the "+kind, 1, subjects("User")),
		column("Groups", "string", "Groups in the "+kind, 1, subjects("Group")),
		column("ServiceAccounts", "string", "ServiceAccounts in the "+kind, 1, subjects("ServiceAccount")),
	}
}

// Reviews configures the create-only review kinds, which answer from the
// server's own authentication and authorization.
type Reviews struct {
	// Authenticator authenticates TokenReview tokens (the server's chain
	// without anonymous access); nil knows no token.
	Authenticator authn.Authenticator
	// APIAudiences are the audiences a TokenReview asks for when it names
	// none.
	APIAudiences []string
	// Authorizer answers the access reviews (the server's chain); if it is
	// an authz.RuleResolver it also answers SelfSubjectRulesReview. Nil
	// means AlwaysAllow.
	Authorizer authz.Authorizer
	// Now is the clock of SelfSubjectReview; nil means time.Now.
	Now func() time.Time
}

// ReviewResources returns the registrations of the create-only review
// kinds: authorization.k8s.io/v1 SubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectAccessReview and
// SelfSubjectRulesReview (`kubectl auth can-i`), and
// authentication.k8s.io/v1 TokenReview and SelfSubjectReview (`kubectl
// auth whoami`). A create is answered, nothing is stored.
func ReviewResources(r Reviews) []apiserver.Resource {
	a := r.Authorizer
	if a == nil {
		a = authz.AlwaysAllow()
	}
	rules, _ := a.(authz.RuleResolver)
	authenticator := r.Authenticator
	if authenticator == nil {
		authenticator = authn.Union()
	}
	now := r.Now
	if now == nil {
		now = time.Now
	}
	create := []string{"create"}
	const azg, ang = "authorization.k8s.io", "authentication.k8s.io"
	rs := []apiserver.Resource{
		{Group: azg, Version: "v1", Kind: "SubjectAccessReview", Plural: "subjectaccessreviews", Verbs: create, WithoutGeneration: true,
			CreateOnly: echoing(func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
				return authz.SubjectAccessReview(ctx, a, obj)
			})},
		{Group: azg, Version: "v1", Kind: "LocalSubjectAccessReview", Plural: "localsubjectaccessreviews", Namespaced: true, Verbs: create, WithoutGeneration: true,
			CreateOnly: echoing(func(ctx context.Context, ns string, obj meta.Object) (meta.Object, error) {
				return authz.LocalSubjectAccessReview(ctx, a, ns, obj)
			})},
		{Group: azg, Version: "v1", Kind: "SelfSubjectAccessReview", Plural: "selfsubjectaccessreviews", Verbs: create, WithoutGeneration: true,
			CreateOnly: echoing(func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
				return authz.SelfSubjectAccessReview(ctx, a, obj)
			})},
		{Group: azg, Version: "v1", Kind: "SelfSubjectRulesReview", Plural: "selfsubjectrulesreviews", Verbs: create, WithoutGeneration: true,
			CreateOnly: func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
				return authz.SelfSubjectRulesReview(ctx, rules, obj)
			}},
		{Group: ang, Version: "v1", Kind: "TokenReview", Plural: "tokenreviews", Verbs: create, WithoutGeneration: true,
			CreateOnly: echoing(func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
				return authn.TokenReview(ctx, authenticator, r.APIAudiences, obj)
			})},
		{Group: ang, Version: "v1", Kind: "SelfSubjectReview", Plural: "selfsubjectreviews", Verbs: create, WithoutGeneration: true,
			CreateOnly: func(ctx context.Context, _ string, _ meta.Object) (meta.Object, error) {
				return authn.SelfSubjectReview(ctx, now())
			}},
	}
	return withSchemas(rs)
}

// echoing answers with the request's object as kube's generic create
// handler returns it: metadata keeps its managedFields and carries a null
// creationTimestamp.
func echoing(f apiserver.CreateOnlyFunc) apiserver.CreateOnlyFunc {
	return func(ctx context.Context, ns string, obj meta.Object) (meta.Object, error) {
		out, err := f(ctx, ns, obj)
		if err != nil {
			return nil, err
		}
		md := out.MetadataForWrite()
		if _, ok := md["creationTimestamp"]; !ok {
			md["creationTimestamp"] = nil
		}
		return out, nil
	}
}

// WithTokenRequest adds the serviceaccounts/token subresource (TokenRequest,
// `kubectl create token`) to the ServiceAccount registration in rs,
// answered by tokens.
func WithTokenRequest(rs []apiserver.Resource, tokens *authn.ServiceAccountTokens) []apiserver.Resource {
	for i := range rs {
		if rs[i].Group != "" || rs[i].Plural != "serviceaccounts" {
			continue
		}
		inner := rs[i].Strategy
		if inner == nil {
			inner = apiserver.GenericStrategy{}
		}
		rs[i].Strategy = tokenStrategy{Strategy: inner, tokens: tokens}
	}
	return rs
}

// tokenStrategy is a ServiceAccount's strategy with the token subresource.
type tokenStrategy struct {
	apiserver.Strategy
	tokens *authn.ServiceAccountTokens
}

func (s tokenStrategy) Subresources() []apiserver.Subresource {
	return append(s.Strategy.Subresources(), apiserver.Subresource{
		Name: "token", Verbs: []string{"create"},
		Kind: meta.GroupVersionKind{Group: "authentication.k8s.io", Version: "v1", Kind: "TokenRequest"},
		Serve: func(c *apiserver.SubresourceCall) (int, meta.Object, error) {
			out, err := s.tokens.TokenRequest(c.Context, c.Namespace, c.Name, c.Body)
			return http.StatusCreated, out, err
		},
	})
}
