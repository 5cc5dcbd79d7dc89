package authn

import "context"

// Well-known user and group names, as kube-apiserver uses them.
const (
	Anonymous             = "system:anonymous"
	AllUnauthenticated    = "system:unauthenticated"
	AllAuthenticated      = "system:authenticated"
	SystemPrivilegedGroup = "system:masters"
)

// User is who a request comes from, in kube's user model: a name, an
// optional uid, the groups it belongs to and extra attributes (scopes, a
// ServiceAccount token's pod name…) that authorizers and webhooks may read.
type User struct {
	Name   string
	UID    string
	Groups []string
	Extra  map[string][]string
}

// InGroup reports whether u is a member of group.
func (u *User) InGroup(group string) bool {
	for _, g := range u.Groups {
		if g == group {
			return true
		}
	}
	return false
}

type userKey struct{}

// WithUser returns ctx carrying u as the request's user.
func WithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom returns the user an authentication filter put in ctx, if any.
func UserFrom(ctx context.Context) (*User, bool) {
	u, ok := ctx.Value(userKey{}).(*User)
	return u, ok && u != nil
}
