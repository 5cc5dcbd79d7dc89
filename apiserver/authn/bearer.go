package authn

import (
	"net/http"
	"strings"
)

// BearerToken authenticates requests by the token of their
// "Authorization: Bearer <token>" header (the scheme in any case), with
// tokens. A request without such a header is not its business; a token
// tokens does not know is an "invalid bearer token" error. Once a token
// authenticates, the header is removed from the request, so that nothing
// behind the filter can read or log it.
func BearerToken(tokens TokenAuthenticator) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (*Response, bool, error) {
		token, ok := BearerTokenOf(r.Header.Get("Authorization"))
		if !ok {
			return nil, false, nil
		}
		resp, ok, err := tokens.AuthenticateToken(r.Context(), token)
		if ok {
			r.Header.Del("Authorization")
			return resp, true, nil
		}
		if err == nil {
			err = errInvalidToken
		}
		return nil, false, err
	})
}

// BearerTokenOf returns the token of an Authorization header value, parsed
// as kube-apiserver parses it: surrounding space trimmed, the first word
// "bearer" in any case, the token the second word (one space after the
// scheme; anything after the token is ignored). ok is false when the value
// is not a bearer credential or its token is empty.
func BearerTokenOf(header string) (token string, ok bool) {
	scheme, rest, found := strings.Cut(strings.TrimSpace(header), " ")
	if !found || !strings.EqualFold(scheme, "bearer") {
		return "", false
	}
	token, _, _ = strings.Cut(rest, " ")
	return token, token != ""
}

// extraSpaceBeforeToken reports an Authorization header whose bearer token
// is preceded by more than one space, which kube ignores with a warning.
func extraSpaceBeforeToken(header string) bool {
	scheme, rest, found := strings.Cut(strings.TrimSpace(header), " ")
	return found && strings.EqualFold(scheme, "bearer") && strings.HasPrefix(rest, " ")
}

// extraSpaceWarning is the Warning kube sends with extraSpaceBeforeToken.
const extraSpaceWarning = "the provided Authorization header contains extra space before the bearer token, and is ignored"
