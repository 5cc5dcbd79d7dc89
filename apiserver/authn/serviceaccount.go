package authn

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// ServiceAccount user names and groups, and the extra attributes of the
// user a ServiceAccount token authenticates, as kube names them.
const (
	ServiceAccountUsernamePrefix = "system:serviceaccount:"
	AllServiceAccountsGroup      = "system:serviceaccounts"
	ServiceAccountGroupPrefix    = "system:serviceaccounts:"

	PodNameKey  = "authentication.kubernetes.io/pod-name"
	PodUIDKey   = "authentication.kubernetes.io/pod-uid"
	NodeNameKey = "authentication.kubernetes.io/node-name"
	NodeUIDKey  = "authentication.kubernetes.io/node-uid"
)

// ServiceAccountUsername is the user name of a ServiceAccount.
func ServiceAccountUsername(namespace, name string) string {
	return ServiceAccountUsernamePrefix + namespace + ":" + name
}

// SplitServiceAccountUsername returns the namespace and name of a
// ServiceAccount user name; ok is false for other users.
func SplitServiceAccountUsername(username string) (namespace, name string, ok bool) {
	rest, found := strings.CutPrefix(username, ServiceAccountUsernamePrefix)
	if !found {
		return "", "", false
	}
	namespace, name, found = strings.Cut(rest, ":")
	if !found || namespace == "" || name == "" || strings.Contains(name, ":") {
		return "", "", false
	}
	return namespace, name, true
}

// ServiceAccountGroups are the groups of a ServiceAccount's user.
func ServiceAccountGroups(namespace string) []string {
	return []string{AllServiceAccountsGroup, ServiceAccountGroupPrefix + namespace}
}

// ObjectGetter reads the objects a ServiceAccount token names: resource is
// "serviceaccounts", "secrets", "pods" or "nodes" (namespace "" for
// nodes). A missing object is a *meta.Status NotFound.
type ObjectGetter interface {
	GetObject(ctx context.Context, resource, namespace, name string) (meta.Object, error)
}

// StoreGetter reads those objects from the store an API server serves, by
// the keys apiserver gives core objects ("/pods/NS/NAME", "/nodes/NAME").
func StoreGetter(st store.Store) ObjectGetter { return storeGetter{st} }

type storeGetter struct{ st store.Store }

func (g storeGetter) GetObject(ctx context.Context, resource, namespace, name string) (meta.Object, error) {
	key := "/" + resource + "/" + name
	if namespace != "" {
		key = "/" + resource + "/" + namespace + "/" + name
	}
	obj, err := g.st.Get(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil, meta.NotFound(meta.GroupResource{Resource: resource}, name)
	}
	if err != nil {
		return nil, err
	}
	return obj.Data(), nil
}

// ServiceAccountConfig configures ServiceAccount tokens, with the meaning
// of kube-apiserver's flags of the same names.
type ServiceAccountConfig struct {
	// Issuers are the accepted "iss" values (--service-account-issuer,
	// repeatable); the first one is put on the tokens issued.
	Issuers []string
	// APIAudiences are the audiences a token must have one of when the
	// request asks for none (--api-audiences); nil means the first issuer.
	APIAudiences []string
	// Keys verify token signatures (--service-account-key-file); nil means
	// the public half of SigningKey.
	Keys []crypto.PublicKey
	// SigningKey signs the tokens issued
	// (--service-account-signing-key-file); nil means tokens are verified
	// but not issued.
	SigningKey crypto.Signer
	// MaxExpiration caps the lifetime a TokenRequest may ask for
	// (--service-account-max-token-expiration); 0 means no cap.
	MaxExpiration time.Duration
	// Objects looks up the ServiceAccount, Secret, Pod or Node a token is
	// bound to, to refuse tokens whose object is gone.
	Objects ObjectGetter
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ServiceAccountTokens issues ServiceAccount tokens (TokenRequest) and
// authenticates them: a JWT signed by one of the keys, from one of the
// issuers, for one of the audiences, neither expired nor used before its
// time, whose ServiceAccount (and bound Secret, Pod or Node) still exists
// with the same UID. Its user is system:serviceaccount:NS:NAME in the
// groups system:serviceaccounts and system:serviceaccounts:NS, with the
// token's pod, node and ID in extra.
//
// A verified signature is remembered for the token (a bounded cache keyed
// by the token's SHA-256), so a client reusing its token costs a map
// lookup and the object lookups, not an RSA verification per request; the
// lookups themselves are never cached, so a deleted ServiceAccount or pod
// invalidates its tokens at once.
type ServiceAccountTokens struct {
	cfg    ServiceAccountConfig
	signer *jwsSigner
	auds   []string

	mu       sync.Mutex
	verified map[[sha256.Size]byte]*tokenClaims
}

// maxVerifiedTokens bounds the cache of verified signatures.
const maxVerifiedTokens = 4096

// NewServiceAccountTokens validates cfg.
func NewServiceAccountTokens(cfg ServiceAccountConfig) (*ServiceAccountTokens, error) {
	if len(cfg.Issuers) == 0 || cfg.Issuers[0] == "" {
		return nil, errors.New("authn: ServiceAccount tokens need an issuer")
	}
	if cfg.Objects == nil {
		return nil, errors.New("authn: ServiceAccount tokens need an ObjectGetter")
	}
	t := &ServiceAccountTokens{cfg: cfg, verified: map[[sha256.Size]byte]*tokenClaims{}}
	if cfg.SigningKey != nil {
		s, err := newJWSSigner(cfg.SigningKey)
		if err != nil {
			return nil, err
		}
		t.signer = s
		if len(t.cfg.Keys) == 0 {
			t.cfg.Keys = []crypto.PublicKey{cfg.SigningKey.Public()}
		}
	}
	if len(t.cfg.Keys) == 0 {
		return nil, errors.New("authn: ServiceAccount tokens need a verification key or a signing key")
	}
	t.auds = cfg.APIAudiences
	if len(t.auds) == 0 {
		t.auds = []string{cfg.Issuers[0]}
	}
	if t.cfg.Now == nil {
		t.cfg.Now = time.Now
	}
	return t, nil
}

// APIAudiences are the audiences a token gets when a TokenRequest names
// none, and that requests are authenticated for.
func (t *ServiceAccountTokens) APIAudiences() []string { return append([]string(nil), t.auds...) }

// tokenClaims are the claims of a ServiceAccount token, in the order kube
// writes them (its JOSE library sorts keys).
type tokenClaims struct {
	Audience   audience     `json:"aud"`
	Expiry     *numericDate `json:"exp,omitempty"`
	IssuedAt   *numericDate `json:"iat,omitempty"`
	Issuer     string       `json:"iss,omitempty"`
	ID         string       `json:"jti,omitempty"`
	Kubernetes kubeClaims   `json:"kubernetes.io"`
	NotBefore  *numericDate `json:"nbf,omitempty"`
	Subject    string       `json:"sub,omitempty"`
}

type kubeClaims struct {
	Namespace      string       `json:"namespace,omitempty"`
	Node           *objectRef   `json:"node,omitempty"`
	Pod            *objectRef   `json:"pod,omitempty"`
	Secret         *objectRef   `json:"secret,omitempty"`
	ServiceAccount objectRef    `json:"serviceaccount"`
	WarnAfter      *numericDate `json:"warnafter,omitempty"`
}

type objectRef struct {
	Name string `json:"name"`
	UID  string `json:"uid,omitempty"`
}

// audience is "aud": a string or a list of them.
type audience []string

func (a audience) MarshalJSON() ([]byte, error) { return json.Marshal([]string(a)) }

func (a *audience) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*a = audience{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("invalid audience claim")
	}
	*a = many
	return nil
}

// numericDate is seconds since the epoch; JSON may write it with a fraction.
type numericDate int64

func (d *numericDate) UnmarshalJSON(b []byte) error {
	var f float64
	if err := json.Unmarshal(b, &f); err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f > math.MaxInt64/2 || f < math.MinInt64/2 {
		return errors.New("invalid numeric date")
	}
	*d = numericDate(f)
	return nil
}

func (d *numericDate) time() time.Time { return time.Unix(int64(*d), 0) }

func newDate(t time.Time) *numericDate { d := numericDate(t.Unix()); return &d }

// jwtLeeway is the clock skew tolerated on exp, nbf and iat (go-jose's
// default, which kube uses).
const jwtLeeway = time.Minute

// AuthenticateToken implements TokenAuthenticator. A token that is not a
// JWT, or is one from another issuer, is not its business (ok false, no
// error); a token from one of its issuers that fails any check is an
// error with kube's message (never the token itself).
func (t *ServiceAccountTokens) AuthenticateToken(ctx context.Context, token string) (*Response, bool, error) {
	jws, ok := parseJWS(token)
	if !ok {
		return nil, false, nil
	}
	var peek struct {
		Issuer string `json:"iss"`
	}
	if json.Unmarshal(jws.payload, &peek) != nil || !t.hasIssuer(peek.Issuer) {
		return nil, false, nil
	}
	claims, err := t.verifiedClaims(token, jws)
	if err != nil {
		return nil, false, err
	}
	requested, ok := AudiencesFrom(ctx)
	if !ok {
		requested = t.auds
	}
	auds := intersect(claims.Audience, requested)
	if len(auds) == 0 {
		return nil, false, fmt.Errorf("token audiences %q is invalid for the target audiences %q", []string(claims.Audience), requested)
	}
	u, err := t.validate(ctx, claims)
	if err != nil {
		return nil, false, err
	}
	return &Response{User: u, Audiences: auds}, true, nil
}

func (t *ServiceAccountTokens) hasIssuer(iss string) bool {
	for _, i := range t.cfg.Issuers {
		if i == iss {
			return true
		}
	}
	return false
}

// verifiedClaims checks the signature (or finds it checked before) and
// decodes the claims.
func (t *ServiceAccountTokens) verifiedClaims(token string, jws parsedJWS) (*tokenClaims, error) {
	sum := sha256.Sum256([]byte(token))
	t.mu.Lock()
	c, ok := t.verified[sum]
	t.mu.Unlock()
	if ok {
		return c, nil
	}
	var errs []error
	verified := false
	for _, k := range t.cfg.Keys {
		if err := jws.verify(k); err != nil {
			errs = append(errs, err)
			continue
		}
		verified = true
		break
	}
	if !verified {
		return nil, Aggregate(errs)
	}
	c = &tokenClaims{}
	if err := json.Unmarshal(jws.payload, c); err != nil {
		return nil, errors.New("service account token claims could not be validated due to unexpected private claim")
	}
	t.mu.Lock()
	if len(t.verified) >= maxVerifiedTokens {
		clear(t.verified)
	}
	t.verified[sum] = c
	t.mu.Unlock()
	return c, nil
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// validate checks the time claims and that the objects the token names
// still exist, with kube's messages, and returns the token's user.
func (t *ServiceAccountTokens) validate(ctx context.Context, c *tokenClaims) (*User, error) {
	now := t.cfg.Now()
	switch {
	case c.NotBefore != nil && now.Add(jwtLeeway).Before(c.NotBefore.time()):
		return nil, errors.New("service account token is not valid yet")
	case c.Expiry != nil && now.Add(-jwtLeeway).After(c.Expiry.time()):
		return nil, errors.New("service account token has expired")
	case c.IssuedAt != nil && now.Add(jwtLeeway).Before(c.IssuedAt.time()):
		return nil, errors.New("service account token is issued in the future")
	}
	deletedBefore := now.Add(-jwtLeeway)
	k := c.Kubernetes
	ns, sa := k.Namespace, k.ServiceAccount
	obj, err := t.cfg.Objects.GetObject(ctx, "serviceaccounts", ns, sa.Name)
	if err != nil {
		return nil, err
	}
	if deletedAt(obj, deletedBefore) {
		return nil, fmt.Errorf("service account %s/%s has been deleted", ns, sa.Name)
	}
	if obj.UID() != sa.UID {
		return nil, fmt.Errorf("service account UID (%s) does not match claim (%s)", obj.UID(), sa.UID)
	}
	invalidated := errors.New("service account token has been invalidated")
	if k.Secret != nil {
		secret, err := t.cfg.Objects.GetObject(ctx, "secrets", ns, k.Secret.Name)
		if err != nil || deletedAt(secret, deletedBefore) {
			return nil, invalidated
		}
		if secret.UID() != k.Secret.UID {
			return nil, fmt.Errorf("secret UID (%s) does not match service account secret ref claim (%s)", secret.UID(), k.Secret.UID)
		}
	}
	extra := map[string][]string{}
	if k.Pod != nil {
		pod, err := t.cfg.Objects.GetObject(ctx, "pods", ns, k.Pod.Name)
		if err != nil || deletedAt(pod, deletedBefore) {
			return nil, invalidated
		}
		if pod.UID() != k.Pod.UID {
			return nil, fmt.Errorf("pod UID (%s) does not match service account pod ref claim (%s)", pod.UID(), k.Pod.UID)
		}
		extra[PodNameKey], extra[PodUIDKey] = []string{k.Pod.Name}, []string{k.Pod.UID}
	}
	if k.Node != nil {
		if k.Pod == nil {
			node, err := t.cfg.Objects.GetObject(ctx, "nodes", "", k.Node.Name)
			if err != nil || deletedAt(node, deletedBefore) {
				return nil, invalidated
			}
			if node.UID() != k.Node.UID {
				return nil, fmt.Errorf("node UID (%s) does not match service account node ref claim (%s)", node.UID(), k.Node.UID)
			}
		}
		extra[NodeNameKey] = []string{k.Node.Name}
		if k.Node.UID != "" {
			extra[NodeUIDKey] = []string{k.Node.UID}
		}
	}
	if c.ID != "" {
		extra[CredentialIDKey] = []string{"JTI=" + c.ID}
	}
	u := &User{Name: ServiceAccountUsername(ns, sa.Name), UID: sa.UID, Groups: ServiceAccountGroups(ns)}
	if len(extra) > 0 {
		u.Extra = extra
	}
	return u, nil
}

// deletedAt reports an object whose deletion started before t.
func deletedAt(obj meta.Object, t time.Time) bool {
	ts := obj.DeletionTimestamp()
	if ts == "" {
		return false
	}
	d, err := time.Parse(time.RFC3339, ts)
	return err == nil && d.Before(t)
}

// BoundObject is what a token is bound to besides its ServiceAccount.
type BoundObject struct {
	Name, UID string
}

// ServiceAccountToken describes a token to issue.
type ServiceAccountToken struct {
	Namespace          string
	ServiceAccountName string
	ServiceAccountUID  string
	// Audiences: nil means the API audiences.
	Audiences []string
	// Expiration is the token's lifetime.
	Expiration time.Duration
	// Pod, Secret, Node bind the token to an object (nil for none); Node
	// with Pod only records where the pod runs.
	Pod, Secret, Node *BoundObject
}

// Issue signs a token. It returns the token and the time it expires.
func (t *ServiceAccountTokens) Issue(spec ServiceAccountToken) (string, time.Time, error) {
	if t.signer == nil {
		return "", time.Time{}, errors.New("authn: no ServiceAccount signing key configured")
	}
	now := t.cfg.Now()
	exp := now.Add(spec.Expiration)
	auds := spec.Audiences
	if len(auds) == 0 {
		auds = t.auds
	}
	c := tokenClaims{
		Audience: audience(auds),
		Expiry:   newDate(exp), IssuedAt: newDate(now), NotBefore: newDate(now),
		Issuer: t.cfg.Issuers[0],
		ID:     newUUID(),
		Kubernetes: kubeClaims{
			Namespace:      spec.Namespace,
			ServiceAccount: objectRef{Name: spec.ServiceAccountName, UID: spec.ServiceAccountUID},
		},
		Subject: ServiceAccountUsername(spec.Namespace, spec.ServiceAccountName),
	}
	ref := func(o *BoundObject) *objectRef {
		if o == nil {
			return nil
		}
		return &objectRef{Name: o.Name, UID: o.UID}
	}
	c.Kubernetes.Pod, c.Kubernetes.Secret, c.Kubernetes.Node = ref(spec.Pod), ref(spec.Secret), ref(spec.Node)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		return "", time.Time{}, err
	}
	tok, err := t.signer.sign(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	if err != nil {
		return "", time.Time{}, err
	}
	return tok, exp, nil
}

// newUUID returns a random RFC 4122 version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
