package authn

import "context"

// AudienceAgnostic wraps a token authenticator whose tokens carry no
// audience (static tokens): its users are valid for the API audiences, and
// for a request asking for other audiences (a TokenReview with
// spec.audiences) it knows no token, as kube's wrapper does.
func AudienceAgnostic(apiAudiences []string, t TokenAuthenticator) TokenAuthenticator {
	return TokenAuthenticatorFunc(func(ctx context.Context, token string) (*Response, bool, error) {
		auds := apiAudiences
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
		out.Audiences = append([]string(nil), auds...)
		return &out, true, nil
	})
}
