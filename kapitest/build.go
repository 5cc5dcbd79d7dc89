package kapitest

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"slices"
	"sync"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/authz/rbac"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
	"github.com/kapi-dev/kapi/store"
)

// AdminUser is the name of the administrator AdminConfig (and Config,
// unless AsUser says otherwise) authenticates as, in group system:masters.
const AdminUser = "kapitest-admin"

// serviceAccountIssuer is kube's default --service-account-issuer.
const serviceAccountIssuer = "https://kubernetes.default.svc.cluster.local"

// signingKey signs the ServiceAccount tokens of every server of the
// process: generating a key per server would cost more than the rest of a
// start.
var signingKey = sync.OnceValues(func() (crypto.Signer, error) {
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
})

// build assembles the server as kube-apiserver is set up by default: every
// built-in kind, JSON, YAML and protobuf, bearer-token and ServiceAccount
// token authentication, RBAC with kube's bootstrap policy (or the
// authorization chain WithAuthorizationMode names), ValidatingAdmissionPolicies
// enforced (kube-apiserver's ValidatingAdmissionPolicy plugin is on by
// default), the clock, and
// what kube-apiserver stores at start (the default/kubernetes Service, an
// APIService per served group version).
//
// A prepared store (a template's clone) already holds the bootstrap policy
// with its aggregated roles; any other gets them written now.
func (s *Server) build(ctx context.Context, st store.Store, prepared bool) error {
	fs := newFaultStore(st)
	s.Store = fs
	s.users = &users{}
	s.admin = s.users.add(AdminUser, []string{authn.SystemPrivilegedGroup})

	key, err := signingKey()
	if err != nil {
		return err
	}
	sa, err := authn.NewServiceAccountTokens(authn.ServiceAccountConfig{
		Issuers: []string{serviceAccountIssuer}, SigningKey: key, Objects: authn.StoreGetter(st), Now: s.Clock.Now,
	})
	if err != nil {
		return err
	}
	auds := sa.APIAudiences()
	tokens := authn.BearerToken(authn.TokenUnion(authn.AudienceAgnostic(auds, s.users), sa))

	var rules *rbac.Authorizer
	if prepared {
		if rules, err = rbac.New(st); err != nil {
			return err
		}
		go func() { _ = rbac.RunAggregation(ctx, st, s.Clock.Now) }()
	} else if rules, err = rbac.Start(ctx, st, s.Clock.Now); err != nil {
		return err
	}
	mode := s.settings.authorization
	if mode == "" {
		mode = authz.ModeRBAC
	}
	authorizer, err := authz.New(mode, map[string]authz.Authorizer{authz.ModeRBAC: rules})
	if err != nil {
		return err
	}
	release := s.settings.release.OrDefault()
	resources, err := builtin.ResourcesWith(release, s.settings.builtin)
	if err != nil {
		return err
	}
	// Every built-in kind; the review kinds answer from this server's own
	// chains (TokenReview without anonymous access, as kube's).
	rs := builtin.WithReviews(resources, builtin.Reviews{
		Authenticator: authn.New(false, tokens), APIAudiences: auds, Authorizer: authorizer, Now: s.Clock.Now,
		Release: release})

	hooks, err := builtin.PostStartHooks(s.settings.builtin)
	if err != nil {
		return err
	}
	cfg := apiserver.Config{
		Store:             fs,
		PostStartHooks:    hooks,
		Release:           release,
		Resources:         builtin.WithTokenRequest(rs, sa),
		OpenAPIComponents: builtin.OpenAPIComponentsFor(release),
		Codecs:            append(codec.Default(), protobuf.New(kubeproto.Resolver())),
		Admission:         []any{(&rbac.Escalation{Authorizer: authorizer, Rules: rules}).Admission()},
		// kube-apiserver enforces ValidatingAdmissionPolicies by default.
		ValidatingAdmissionPolicy: true,
		Now:                       s.Clock.Now,
		Authenticator:             authn.New(true, tokens),
		Authorizer:                authorizer,
	}
	for _, f := range s.settings.configure {
		f(&cfg)
	}
	api, err := apiserver.New(cfg)
	if err != nil {
		return err
	}
	s.API = api
	s.kinds = newKinds(cfg.Resources)
	s.Faults = &Faults{write: api.WriteError, store: fs}
	s.handler = s.rec.wrap(s.Faults.wrap(api))
	token := s.admin
	if u := s.settings.user; u != nil {
		token = s.users.add(u.name, u.groups)
	}
	s.Config = s.configWithToken(token)
	return nil
}

// users authenticates the bearer tokens the server hands out (the admin's,
// AsUser's, ConfigFor's and AddUser's).
type users struct{ byToken sync.Map }

type user struct {
	name   string
	groups []string
}

func (u *users) add(name string, groups []string) string {
	token := newToken()
	groups = slices.Clone(groups)
	// system:authenticated, which the server's authenticator would add to
	// every request's copy of the user, is added once here.
	if name != authn.Anonymous && !slices.Contains(groups, authn.AllAuthenticated) && !slices.Contains(groups, authn.AllUnauthenticated) {
		groups = append(groups, authn.AllAuthenticated)
	}
	u.byToken.Store(token, &authn.Response{User: &authn.User{Name: name, Groups: groups}})
	return token
}

// AuthenticateToken implements authn.TokenAuthenticator. Every request
// with a token gets the same response and user, allocated once: the
// server only reads them (the chain's wrappers copy what they change).
func (u *users) AuthenticateToken(_ context.Context, token string) (*authn.Response, bool, error) {
	v, ok := u.byToken.Load(token)
	if !ok {
		return nil, false, nil
	}
	return v.(*authn.Response), true, nil
}
