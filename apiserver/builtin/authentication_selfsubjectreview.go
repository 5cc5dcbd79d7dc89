package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// selfSubjectReviewResource is authentication.k8s.io/v1 selfsubjectreviews: create-only, answered with
// who the requesting user is (`kubectl auth whoami`); nothing is stored.
func selfSubjectReviewResource(a reviewAnswers) apiserver.Resource {
	return reviewResource(authenticationGroup, "SelfSubjectReview", "selfsubjectreviews", false, func(ctx context.Context, _ string, _ meta.Object) (meta.Object, error) {
		return authn.SelfSubjectReview(ctx, a.now())
	})
}
