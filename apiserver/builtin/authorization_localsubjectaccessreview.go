package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

// localSubjectAccessReviewResource is authorization.k8s.io/v1 localsubjectaccessreviews: create-only, answered with
// a SubjectAccessReview within its namespace; nothing is stored.
func localSubjectAccessReviewResource(a reviewAnswers) apiserver.Resource {
	return reviewResource(authorizationGroup, "LocalSubjectAccessReview", "localsubjectaccessreviews", true, echoing(func(ctx context.Context, ns string, obj meta.Object) (meta.Object, error) {
		return authz.LocalSubjectAccessReview(ctx, a.authorizer, ns, obj)
	}))
}
