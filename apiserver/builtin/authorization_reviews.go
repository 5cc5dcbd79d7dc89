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
	// Release is the release the answers are encoded as (1.34 and later
	// no longer write a null creationTimestamp); empty means
	// apiserver.DefaultRelease. Give the release of ResourcesFor.
	Release apiserver.Release
}

// ReviewResources returns the registrations of the create-only review
// kinds answered from r: authorization.k8s.io/v1 SubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectAccessReview and
// SelfSubjectRulesReview (`kubectl auth can-i`), and
// authentication.k8s.io/v1 TokenReview and SelfSubjectReview (`kubectl
// auth whoami`). A create is answered, nothing is stored. Resources()
// holds them answered from Reviews{}; WithReviews puts these in its place.
func ReviewResources(r Reviews) []apiserver.Resource {
	return withSchemas(reviewResources(r.answers()), r.Release.OrDefault())
}

// reviewResources are the review kinds' registrations without their
// schemas.
func reviewResources(a reviewAnswers) []apiserver.Resource {
	rs := []apiserver.Resource{
		selfSubjectReviewResource(a),
		tokenReviewResource(a),
		localSubjectAccessReviewResource(a),
		selfSubjectAccessReviewResource(a),
		selfSubjectRulesReviewResource(a),
		subjectAccessReviewResource(a),
	}
	if a.release.AtLeast(34) {
		for i := range rs {
			rs[i].CreateOnly = withoutNullCreationTimestamp(rs[i].CreateOnly)
		}
	}
	return rs
}

// WithReviews replaces the review kinds in rs (as Resources() has them)
// with those answered from r.
func WithReviews(rs []apiserver.Resource, r Reviews) []apiserver.Resource {
	for _, rv := range reviewResources(r.answers()) {
		for i := range rs {
			if rs[i].Group == rv.Group && rs[i].Plural == rv.Plural {
				// The schema of the release rs is of.
				rv.Schema, rv.OpenAPIComponent = rs[i].Schema, rs[i].OpenAPIComponent
				withKubeEncoding(&rv, r.Release.OrDefault())
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
	release       apiserver.Release
}

func (r Reviews) answers() reviewAnswers {
	a := reviewAnswers{authorizer: r.Authorizer, authenticator: r.Authenticator, audiences: r.APIAudiences, now: r.Now,
		release: r.Release.OrDefault()}
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

// withSchemas gives registrations made after Resources() their schemas
// in release rel.
func withSchemas(rs []apiserver.Resource, rel apiserver.Release) []apiserver.Resource {
	for i := range rs {
		gvk := rs[i].GroupVersionKind()
		rs[i].Schema = SchemaFor(rel, gvk)
		rs[i].OpenAPIComponent = ComponentNameFor(rel, gvk)
		withKubeEncoding(&rs[i], rel)
	}
	return rs
}

// withoutNullCreationTimestamp drops the null creationTimestamp echoing
// adds: kube 1.34's ObjectMeta omits a zero one (omitzero).
func withoutNullCreationTimestamp(f apiserver.CreateOnlyFunc) apiserver.CreateOnlyFunc {
	return func(ctx context.Context, ns string, obj meta.Object) (meta.Object, error) {
		out, err := f(ctx, ns, obj)
		if err != nil {
			return nil, err
		}
		md := out.MetadataForWrite()
		if v, ok := md["creationTimestamp"]; ok && v == nil {
			delete(md, "creationTimestamp")
		}
		return out, nil
	}
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
