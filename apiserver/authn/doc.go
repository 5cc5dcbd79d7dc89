// Package authn holds who a request comes from: the User (kube's user
// model: name, uid, groups, extra) that authentication puts in the
// request's context and that authorization, flow control, admission and
// managedFields read from it (WithUser, UserFrom).
package authn
