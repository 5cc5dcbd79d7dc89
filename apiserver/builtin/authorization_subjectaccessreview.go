package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

// subjectAccessReviewResource is authorization.k8s.io/v1 subjectaccessreviews: create-only, answered with
// the authorizer's decision for the user, groups and attributes it names; nothing is stored.
func subjectAccessReviewResource(a reviewAnswers) apiserver.Resource {
	return reviewResource(authorizationGroup, "SubjectAccessReview", "subjectaccessreviews", false, echoing(func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
		return authz.SubjectAccessReview(ctx, a.authorizer, obj)
	}))
}
