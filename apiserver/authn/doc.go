// Package authn is who a request comes from: the User (kube's user model:
// name, uid, groups, extra) that authentication puts in the request's
// context and that flow control, authorization, admission and
// managedFields read from it (WithUser, UserFrom), and the authenticators
// that find it, as kube-apiserver's:
//
//   - static bearer tokens in --token-auth-file's CSV format
//     (StaticTokens), looked up by hash and compared in constant time;
//   - client certificates verified against a client CA: Common Name the
//     user, Organizations the groups (ClientCertificates);
//   - ServiceAccount tokens: JWTs that ServiceAccountTokens issues (the
//     serviceaccounts/token TokenRequest) and verifies: signature, issuer,
//     audience, expiry, and the ServiceAccount (and bound Secret, Pod or
//     Node) still existing with the same UID, read from the store on every
//     request;
//   - anonymous requests (system:anonymous in system:unauthenticated) when
//     allowed.
//
// An Authenticator answers ok (a user), not ok without error (no
// credential of its kind: the next one may know it) or an error (an
// invalid credential). New chains them as kube does: the first that
// authenticates wins, its user gets system:authenticated, and a request
// without any credential is anonymous if allowed; an invalid credential is
// always refused.
//
//	tokens, _ := authn.LoadTokenFile("tokens.csv")
//	chain := authn.New(false, authn.ClientCertificates(pool, nil),
//		authn.BearerToken(authn.TokenUnion(tokens, serviceAccounts)))
//	handler = authn.Filter(chain, nil)(handler) // 401 for the rest
//
// Filter answers what it cannot authenticate with kube's 401, whose body
// never says why. Credentials never appear in errors or logs: errors name
// records, certificates by serial number and tokens by nothing, and the
// package logs nothing. TokenReview and SelfSubjectReview answer the
// authentication.k8s.io review kinds from the same chain.
package authn
