package builtin

import (
	"context"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

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
