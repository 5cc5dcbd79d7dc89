package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

// selfSubjectAccessReviewResource is authorization.k8s.io/v1 selfsubjectaccessreviews: create-only, answered with
// the authorizer's decision for the requesting user (`kubectl auth can-i`); nothing is stored.
func selfSubjectAccessReviewResource(a reviewAnswers) apiserver.Resource {
	return reviewResource(authorizationGroup, "SelfSubjectAccessReview", "selfsubjectaccessreviews", false, echoing(func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
		return authz.SelfSubjectAccessReview(ctx, a.authorizer, obj)
	}))
}
