package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// tokenReviewResource is authentication.k8s.io/v1 tokenreviews: create-only, answered with
// who a token authenticates as; nothing is stored.
func tokenReviewResource(a reviewAnswers) apiserver.Resource {
	return reviewResource(authenticationGroup, "TokenReview", "tokenreviews", false, echoing(func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
		return authn.TokenReview(ctx, a.authenticator, a.audiences, obj)
	}))
}
