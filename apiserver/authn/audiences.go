package authn

import (
	"context"
	"slices"
)

// AudienceAgnostic wraps a token authenticator whose tokens carry no
// audience (static tokens): its users are valid for the API audiences, and
// for a request asking for other audiences (a TokenReview with
// spec.audiences) it knows no token, as kube's wrapper does.
func AudienceAgnostic(apiAudiences []string, t TokenAuthenticator) TokenAuthenticator {
	// A response without requested audiences carries the server's own:
	// one clipped copy shared by all of them (read, never written: an
	// append copies).
	var own []string
	if len(apiAudiences) > 0 {
		own = slices.Clip(slices.Clone(apiAudiences))
	}
	return TokenAuthenticatorFunc(func(ctx context.Context, token string) (*Response, bool, error) {
		auds := own
		if requested, ok := AudiencesFrom(ctx); ok && len(apiAudiences) > 0 {
			if auds = intersect(apiAudiences, requested); len(auds) == 0 {
				return nil, false, nil
			}
		}
		resp, ok, err := t.AuthenticateToken(ctx, token)
		if !ok || err != nil {
			return resp, ok, err
		}
		out := *resp
		out.Audiences = auds
		return &out, true, nil
	})
}
