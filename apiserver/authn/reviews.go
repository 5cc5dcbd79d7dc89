package authn

import (
	"context"
	"net/http"
	"time"

	"github.com/kapi-dev/kapi/meta"
)

// TokenReview answers a create of authentication.k8s.io/v1 TokenReview
// (obj, decoded) as kube does: it authenticates spec.token with a, for
// spec.audiences (or apiAudiences when it names none), and returns obj
// with status.authenticated, status.user, status.audiences and
// status.error filled in. A review without a token is 400.
func TokenReview(ctx context.Context, a Authenticator, apiAudiences []string, obj meta.Object) (meta.Object, error) {
	out := obj.DeepCopy()
	spec, _ := out["spec"].(map[string]any)
	token, _ := spec["token"].(string)
	if token == "" {
		return nil, meta.BadRequest("token is required for TokenReview in authentication")
	}
	auds := meta.AsStrings(spec["audiences"])
	if len(auds) == 0 {
		auds = apiAudiences
	}
	if len(auds) > 0 {
		ctx = WithAudiences(ctx, auds)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, "/", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, ok, err := a.AuthenticateRequest(req)
	status := map[string]any{"user": map[string]any{}}
	if ok {
		status["authenticated"] = true
	}
	if !ok && err == nil {
		err = errInvalidToken
	}
	if err != nil {
		// kube's chain holds a second bearer-token authenticator (for its
		// configurable JWT authenticators) that adds its own "invalid
		// bearer token" to every failure.
		status["error"] = Aggregate([]error{errInvalidToken, err}).Error()
	}
	if ok && resp != nil && resp.User != nil {
		if len(auds) > 0 && len(intersect(auds, resp.Audiences)) == 0 {
			return nil, meta.Internal(errBadAudiences)
		}
		status["user"] = userInfo(resp.User)
		if len(resp.Audiences) > 0 {
			status["audiences"] = toAnyList(resp.Audiences)
		}
	}
	out["status"] = status
	return out, nil
}

type constError string

func (e constError) Error() string { return string(e) }

const errBadAudiences = constError("error validating audiences")

// SelfSubjectReview answers a create of authentication.k8s.io/v1
// SelfSubjectReview (`kubectl auth whoami`): who the request's user is
// (system:anonymous on a server without authentication). The answer is a
// new object stamped with the time now, as kube's.
func SelfSubjectReview(ctx context.Context, now time.Time) (meta.Object, error) {
	u, ok := UserFrom(ctx)
	if !ok {
		u = AnonymousResponse().User
	}
	return meta.Object{
		"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
		"metadata": map[string]any{"creationTimestamp": meta.FormatTime(now)},
		"status":   map[string]any{"userInfo": userInfo(u)},
	}, nil
}

// userInfo is a User as authentication.k8s.io/v1 UserInfo.
func userInfo(u *User) map[string]any {
	m := map[string]any{"username": u.Name}
	if u.UID != "" {
		m["uid"] = u.UID
	}
	if len(u.Groups) > 0 {
		m["groups"] = toAnyList(u.Groups)
	}
	if len(u.Extra) > 0 {
		extra := make(map[string]any, len(u.Extra))
		for k, v := range u.Extra {
			extra[k] = toAnyList(v)
		}
		m["extra"] = extra
	}
	return m
}
