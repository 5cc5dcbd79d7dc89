package kapiserver

import (
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"os"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/authz/rbac"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// Options are the example server's security settings, each with the
// meaning of the kube-apiserver flag of the same name.
type Options struct {
	// TLSCertFile and TLSPrivateKeyFile are the serving certificate and
	// key; empty means a certificate generated at start, signed by a CA
	// generated with it (whose certificate the kubeconfig carries).
	TLSCertFile, TLSPrivateKeyFile string
	// ClientCAFile holds CAs whose client certificates authenticate, besides
	// the server's own client CA (which signs the admin's certificate).
	ClientCAFile string
	// TokenAuthFile is a static token file (token,user,uid,"groups").
	TokenAuthFile string
	// AuthorizationMode is a comma-separated chain of AlwaysAllow,
	// AlwaysDeny and RBAC; empty means RBAC.
	AuthorizationMode string
	// AnonymousAuth serves requests without credentials as
	// system:anonymous (kube-apiserver's default is true).
	AnonymousAuth bool
	// ServiceAccountIssuer is the issuer of ServiceAccount tokens; empty
	// means https://kubernetes.default.svc.cluster.local.
	ServiceAccountIssuer string
	// ServiceAccountKeyFiles verify ServiceAccount tokens (besides the
	// signing key's public half).
	ServiceAccountKeyFiles []string
	// ServiceAccountSigningKeyFile signs ServiceAccount tokens; empty means
	// a key generated at start.
	ServiceAccountSigningKeyFile string
	// Hosts are the names and addresses of a generated serving certificate
	// besides localhost, 127.0.0.1 and ::1.
	Hosts []string
	// CertDir keeps the generated CAs, serving certificate and
	// ServiceAccount signing key (kube-apiserver's --cert-dir), written
	// there on the first start and read on the next, so that kubeconfigs
	// and ServiceAccount tokens outlive a restart; empty generates them
	// afresh, in memory, at each start. See certdir.go for its files.
	CertDir string
	// Store keeps the objects; nil means a new in-memory store.
	Store store.Store
}

// AdminUser is the user of the admin credential the kubeconfig carries.
const AdminUser = "kapi-admin"

// Secure is the example server set up with TLS, authentication and
// authorization as kube-apiserver is, with the credentials of its admin.
type Secure struct {
	// Config is the server's configuration: Config's kinds plus the RBAC
	// and review kinds and serviceaccounts/token, authentication,
	// authorization and the RBAC escalation check.
	Config apiserver.Config
	// TLS serves HTTPS with the serving certificate and asks for client
	// certificates (verified by the authenticator, as kube does).
	TLS *tls.Config
	// CAData is the PEM a client trusts the serving certificate with.
	CAData []byte
	// ClientCA signs client certificates the server accepts.
	ClientCA *CA
	// AdminCert and AdminKey are a client certificate of AdminUser in
	// system:masters, PEM.
	AdminCert, AdminKey []byte
	// ServiceAccounts issues and verifies ServiceAccount tokens.
	ServiceAccounts *authn.ServiceAccountTokens
	// RBAC is the RBAC authorizer (nil when the chain has no RBAC).
	RBAC *rbac.Authorizer
	// Authorizer is the whole authorization chain.
	Authorizer authz.Authorizer
}

// NewSecure sets the example server up as opts say. The RBAC bootstrap
// policy is written to the store and the ClusterRole aggregation runs until
// ctx is done.
func NewSecure(ctx context.Context, opts Options) (*Secure, error) {
	now := time.Now()
	s := &Secure{Config: Config()}
	st := opts.Store
	if st == nil {
		st = memory.New(memory.Config{})
	}
	s.Config.Store = st

	// TLS.
	dir := certDir(opts.CertDir)
	if err := dir.prepare(); err != nil {
		return nil, err
	}
	var err error
	if s.ClientCA, err = dir.ca(clientCAName, "kapi-client-ca", now); err != nil {
		return nil, err
	}
	var certPEM, keyPEM []byte
	if opts.TLSCertFile != "" || opts.TLSPrivateKeyFile != "" {
		if certPEM, err = os.ReadFile(opts.TLSCertFile); err != nil {
			return nil, fmt.Errorf("-tls-cert-file: %w", err)
		}
		if keyPEM, err = os.ReadFile(opts.TLSPrivateKeyFile); err != nil {
			return nil, fmt.Errorf("-tls-private-key-file: %w", err)
		}
		s.CAData = certPEM
	} else {
		servingCA, err := dir.ca(servingCAName, "kapi-serving-ca", now)
		if err != nil {
			return nil, err
		}
		if certPEM, keyPEM, err = dir.serving(servingCA, append([]string{"localhost", "127.0.0.1", "::1"}, opts.Hosts...), now); err != nil {
			return nil, err
		}
		s.CAData = servingCA.PEM
	}
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("serving certificate: %w", err)
	}
	s.TLS = &tls.Config{Certificates: []tls.Certificate{pair}, ClientAuth: tls.RequestClientCert, MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"}}
	if s.AdminCert, s.AdminKey, err = s.ClientCA.IssueClient(AdminUser, []string{authn.SystemPrivilegedGroup}, now); err != nil {
		return nil, err
	}
	clientCAs := x509.NewCertPool()
	clientCAs.AddCert(s.ClientCA.Cert)
	if opts.ClientCAFile != "" {
		b, err := os.ReadFile(opts.ClientCAFile)
		if err != nil {
			return nil, fmt.Errorf("-client-ca-file: %w", err)
		}
		if !clientCAs.AppendCertsFromPEM(b) {
			return nil, fmt.Errorf("-client-ca-file %s holds no PEM certificate", opts.ClientCAFile)
		}
	}

	// ServiceAccount tokens.
	var signing crypto.Signer
	if opts.ServiceAccountSigningKeyFile != "" {
		if signing, err = authn.LoadPrivateKey(opts.ServiceAccountSigningKeyFile); err != nil {
			return nil, fmt.Errorf("-service-account-signing-key-file: %w", err)
		}
	} else if dir != "" {
		if signing, err = dir.signingKey(); err != nil {
			return nil, err
		}
	} else if signing, err = newKey(); err != nil {
		return nil, err
	}
	keys := []crypto.PublicKey{signing.Public()}
	for _, f := range opts.ServiceAccountKeyFiles {
		more, err := authn.LoadPublicKeys(f)
		if err != nil {
			return nil, fmt.Errorf("-service-account-key-file: %w", err)
		}
		keys = append(keys, more...)
	}
	issuer := opts.ServiceAccountIssuer
	if issuer == "" {
		issuer = "https://kubernetes.default.svc.cluster.local"
	}
	if s.ServiceAccounts, err = authn.NewServiceAccountTokens(authn.ServiceAccountConfig{
		Issuers: []string{issuer}, Keys: keys, SigningKey: signing, Objects: authn.StoreGetter(st),
	}); err != nil {
		return nil, err
	}
	auds := s.ServiceAccounts.APIAudiences()

	// Authentication: client certificates, then bearer tokens (static,
	// then ServiceAccount), as kube-apiserver orders them.
	tokens := []authn.TokenAuthenticator{}
	if opts.TokenAuthFile != "" {
		static, err := authn.LoadTokenFile(opts.TokenAuthFile)
		if err != nil {
			return nil, fmt.Errorf("-token-auth-file: %w", err)
		}
		tokens = append(tokens, authn.AudienceAgnostic(auds, static))
	}
	tokens = append(tokens, s.ServiceAccounts)
	authenticators := []authn.Authenticator{authn.ClientCertificates(clientCAs, nil), authn.BearerToken(authn.TokenUnion(tokens...))}
	s.Config.Authenticator = authn.New(opts.AnonymousAuth, authenticators...)

	// Authorization.
	mode := opts.AuthorizationMode
	if mode == "" {
		mode = authz.ModeRBAC
	}
	if s.RBAC, err = rbac.Start(ctx, st, nil); err != nil {
		return nil, err
	}
	if s.Authorizer, err = authz.New(mode, map[string]authz.Authorizer{authz.ModeRBAC: s.RBAC}); err != nil {
		return nil, err
	}
	s.Config.Authorizer = s.Authorizer
	s.Config.Admission = append(s.Config.Admission, (&rbac.Escalation{Authorizer: s.Authorizer, Rules: s.RBAC}).Admission())

	// Kinds: the reviews answer from the same chains (TokenReview without
	// anonymous access, as kube's).
	s.Config.Resources = builtin.WithReviews(s.Config.Resources, builtin.Reviews{
		Authenticator: authn.New(false, authenticators...), APIAudiences: auds, Authorizer: s.Authorizer})
	s.Config.Resources = builtin.WithTokenRequest(s.Config.Resources, s.ServiceAccounts)
	return s, nil
}

// Kubeconfig returns a kubeconfig for the server at url (https://host:port)
// that trusts its serving certificate and authenticates as the admin.
func (s *Secure) Kubeconfig(url string) string {
	b64 := base64.StdEncoding.EncodeToString
	return fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: %s
  user:
    client-certificate-data: %s
    client-key-data: %s
contexts:
- name: kapi
  context:
    cluster: kapi
    user: %s
    namespace: default
current-context: kapi
`, url, b64(s.CAData), AdminUser, b64(s.AdminCert), b64(s.AdminKey), AdminUser)
}

// WriteKubeconfig writes Kubeconfig(url) to path, readable by its owner
// only (it holds the admin's key).
func (s *Secure) WriteKubeconfig(path, url string) error {
	return os.WriteFile(path, []byte(s.Kubeconfig(url)), 0o600)
}
