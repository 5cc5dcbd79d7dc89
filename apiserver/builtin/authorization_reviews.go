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
// kinds answered from r: authorization.k8s.io/v1 SubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectAccessReview and
// SelfSubjectRulesReview (`kubectl auth can-i`), and
// authentication.k8s.io/v1 TokenReview and SelfSubjectReview (`kubectl
// auth whoami`). A create is answered, nothing is stored. Resources()
// holds them answered from Reviews{}; WithReviews puts these in its place.
func ReviewResources(r Reviews) []apiserver.Resource {
	a := r.answers()
	return withSchemas([]apiserver.Resource{
		selfSubjectReviewResource(a),
		tokenReviewResource(a),
		localSubjectAccessReviewResource(a),
		selfSubjectAccessReviewResource(a),
		selfSubjectRulesReviewResource(a),
		subjectAccessReviewResource(a),
	})
}

// WithReviews replaces the review kinds in rs (as Resources() has them)
// with those answered from r.
func WithReviews(rs []apiserver.Resource, r Reviews) []apiserver.Resource {
	for _, rv := range ReviewResources(r) {
		for i := range rs {
			if rs[i].Group == rv.Group && rs[i].Plural == rv.Plural {
				rs[i] = rv
			}
		}
	}
	return rs
}

// reviewAnswers is Reviews with its defaults filled in.
type reviewAnswers struct {
	authorizer    authz.Authorizer
	rules         authz.RuleResolver
	authenticator authn.Authenticator
	audiences     []string
	now           func() time.Time
}

func (r Reviews) answers() reviewAnswers {
	a := reviewAnswers{authorizer: r.Authorizer, authenticator: r.Authenticator, audiences: r.APIAudiences, now: r.Now}
	if a.authorizer == nil {
		a.authorizer = authz.AlwaysAllow()
	}
	a.rules, _ = a.authorizer.(authz.RuleResolver)
	if a.authenticator == nil {
		a.authenticator = authn.Union()
	}
	if a.now == nil {
		a.now = time.Now
	}
	return a
}

// reviewResource is a create-only review kind answered by answer.
func reviewResource(group, kind, plural string, namespaced bool, answer apiserver.CreateOnlyFunc) apiserver.Resource {
	return apiserver.Resource{Group: group, Version: "v1", Kind: kind, Plural: plural, Namespaced: namespaced,
		Verbs: []string{"create"}, WithoutGeneration: true, Ephemeral: true, CreateOnly: answer}
}

const authorizationGroup, authenticationGroup = "authorization.k8s.io", "authentication.k8s.io"

// withSchemas gives registrations made after Resources() their schemas.
func withSchemas(rs []apiserver.Resource) []apiserver.Resource {
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		rs[i].Schema = Schema(gvk)
		rs[i].OpenAPIComponent = ComponentName(gvk)
		withKubeEncoding(&rs[i])
	}
	return rs
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
