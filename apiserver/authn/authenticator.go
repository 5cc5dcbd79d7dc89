package authn

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
)

// Response is what an authenticator learned about a request: who sent it
// and, for tokens minted for particular audiences, which of the audiences
// asked for the token is valid for.
type Response struct {
	User      *User
	Audiences []string

	// memo is set on a response an authenticator hands out again, the
	// same pointer, for every request with the same credential (a client
	// certificate verified once per connection): what the chain derives
	// from it is kept there and not derived again per request. Such a
	// response and its user are shared, never modified.
	memo *responseMemo
}

// responseMemo keeps what WithAuthenticatedGroup made of a shared response.
type responseMemo struct {
	withGroup atomic.Pointer[Response]
}

// shared returns a response for u that its authenticator hands out again
// for the same credential (see Response.memo).
func shared(u *User) *Response {
	return &Response{User: u, memo: &responseMemo{}}
}

// Authenticator says who sent a request. It answers one of three ways:
//
//   - ok true: the request carries a valid credential of this kind;
//   - ok false, err nil: the request carries no credential this
//     authenticator knows (another one in a chain may);
//   - err not nil: it carries one that is invalid (expired, forged,
//     unknown). The error never contains the credential.
type Authenticator interface {
	AuthenticateRequest(r *http.Request) (*Response, bool, error)
}

// AuthenticatorFunc adapts a function to Authenticator.
type AuthenticatorFunc func(r *http.Request) (*Response, bool, error)

// AuthenticateRequest calls f.
func (f AuthenticatorFunc) AuthenticateRequest(r *http.Request) (*Response, bool, error) {
	return f(r)
}

// TokenAuthenticator says who a bearer token belongs to, with the same
// three answers as Authenticator.
type TokenAuthenticator interface {
	AuthenticateToken(ctx context.Context, token string) (*Response, bool, error)
}

// TokenAuthenticatorFunc adapts a function to TokenAuthenticator.
type TokenAuthenticatorFunc func(ctx context.Context, token string) (*Response, bool, error)

// AuthenticateToken calls f.
func (f TokenAuthenticatorFunc) AuthenticateToken(ctx context.Context, token string) (*Response, bool, error) {
	return f(ctx, token)
}

// Union chains authenticators: the first that authenticates the request
// wins; when none does, the errors of those that failed are returned
// together (nil when none recognised a credential at all), as kube's union
// authenticator does.
func Union(auths ...Authenticator) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (*Response, bool, error) {
		var errs []error
		for _, a := range auths {
			resp, ok, err := a.AuthenticateRequest(r)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if ok {
				return resp, true, nil
			}
		}
		return nil, false, Aggregate(errs)
	})
}

// TokenUnion chains token authenticators the way Union chains request
// authenticators.
func TokenUnion(auths ...TokenAuthenticator) TokenAuthenticator {
	return TokenAuthenticatorFunc(func(ctx context.Context, token string) (*Response, bool, error) {
		var errs []error
		for _, a := range auths {
			resp, ok, err := a.AuthenticateToken(ctx, token)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if ok {
				return resp, true, nil
			}
		}
		return nil, false, Aggregate(errs)
	})
}

// New builds kube-apiserver's authentication chain from the configured
// authenticators: the first that authenticates a request wins and its user
// gets the group system:authenticated; a request none of them
// authenticates is anonymous (system:anonymous in system:unauthenticated)
// when anonymous is true, unless it carried an invalid credential, which is
// always refused.
func New(anonymous bool, auths ...Authenticator) Authenticator {
	chain := WithAuthenticatedGroup(Union(auths...))
	if !anonymous {
		return chain
	}
	return AuthenticatorFunc(func(r *http.Request) (*Response, bool, error) {
		resp, ok, err := chain.AuthenticateRequest(r)
		if ok || err != nil {
			return resp, ok, err
		}
		return AnonymousResponse(), true, nil
	})
}

// AnonymousResponse is the user of a request without credentials when
// anonymous requests are allowed.
func AnonymousResponse() *Response {
	return &Response{User: &User{Name: Anonymous, Groups: []string{AllUnauthenticated}}}
}

// WithAuthenticatedGroup adds the group system:authenticated to the users
// a authenticates, as kube does, unless the user is system:anonymous or
// already says it is authenticated or not. A response a hands out again
// for the same credential (a client certificate's) gets its decorated copy
// made once.
func WithAuthenticatedGroup(a Authenticator) Authenticator {
	return AuthenticatorFunc(func(r *http.Request) (*Response, bool, error) {
		resp, ok, err := a.AuthenticateRequest(r)
		if !ok || err != nil {
			return resp, ok, err
		}
		if resp.memo != nil {
			if out := resp.memo.withGroup.Load(); out != nil {
				return out, true, nil
			}
		}
		u := resp.User
		if u.Name == Anonymous || slices.Contains(u.Groups, AllAuthenticated) || slices.Contains(u.Groups, AllUnauthenticated) {
			return resp, ok, err
		}
		out := *resp
		user := *u
		user.Groups = append(slices.Clip(u.Groups), AllAuthenticated)
		out.User = &user
		out.memo = nil
		if resp.memo != nil {
			out.memo = &responseMemo{}
			resp.memo.withGroup.Store(&out)
		}
		return &out, true, nil
	})
}

type audiencesKey struct{}

// WithAudiences returns ctx asking token authenticators to accept only
// tokens minted for one of auds (a TokenReview's spec.audiences); without
// it they accept the API server's own audiences.
func WithAudiences(ctx context.Context, auds []string) context.Context {
	return context.WithValue(ctx, audiencesKey{}, auds)
}

// AudiencesFrom returns the audiences WithAudiences put in ctx.
func AudiencesFrom(ctx context.Context) ([]string, bool) {
	auds, ok := ctx.Value(audiencesKey{}).([]string)
	return auds, ok
}

// Aggregate joins errors the way kube's aggregate error prints them: nil
// for none, the error itself for one, "[a, b]" for more, each message
// once.
func Aggregate(errs []error) error {
	var kept []error
	seen := map[string]bool{}
	for _, e := range errs {
		if e == nil || seen[e.Error()] {
			continue
		}
		seen[e.Error()] = true
		kept = append(kept, e)
	}
	switch len(kept) {
	case 0:
		return nil
	case 1:
		return kept[0]
	}
	return aggregate(kept)
}

type aggregate []error

func (a aggregate) Error() string {
	parts := make([]string, len(a))
	for i, e := range a {
		parts[i] = e.Error()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func (a aggregate) Unwrap() []error { return a }

// errInvalidToken is the answer for a bearer token no authenticator knows.
var errInvalidToken = errors.New("invalid bearer token")
