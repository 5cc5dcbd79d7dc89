package builtin

import (
	"context"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

// selfSubjectRulesReviewResource is authorization.k8s.io/v1 selfsubjectrulesreviews: create-only, answered with
// the rules the requesting user has in a namespace (`kubectl auth can-i --list`); nothing is stored.
func selfSubjectRulesReviewResource(a reviewAnswers) apiserver.Resource {
	return reviewResource(authorizationGroup, "SelfSubjectRulesReview", "selfsubjectrulesreviews", false, func(ctx context.Context, _ string, obj meta.Object) (meta.Object, error) {
		return authz.SelfSubjectRulesReview(ctx, a.rules, obj)
	})
}
