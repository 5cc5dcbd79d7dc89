package authn

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// objects is an ObjectGetter over a map "resource/ns/name".
type objects map[string]meta.Object

func (o objects) GetObject(_ context.Context, resource, namespace, name string) (meta.Object, error) {
	if obj, ok := o[resource+"/"+namespace+"/"+name]; ok {
		return obj, nil
	}
	return nil, meta.NotFound(meta.GroupResource{Resource: resource}, name)
}

func obj(name, uid string, extra ...string) meta.Object {
	md := map[string]any{"name": name, "uid": uid}
	for i := 0; i+1 < len(extra); i += 2 {
		md[extra[i]] = extra[i+1]
	}
	return meta.Object{"metadata": md}
}

var ecKey = func() *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return k
}()

var rsaKey = func() *rsa.PrivateKey {
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	return k
}()

const issuer = "https://kubernetes.default.svc.cluster.local"

var t0 = time.Date(2026, 11, 24, 20, 0, 0, 0, time.UTC)

type fixture struct {
	objs   objects
	now    time.Time
	tokens *ServiceAccountTokens
}

func newFixture(t *testing.T, key crypto.Signer) *fixture {
	f := &fixture{objs: objects{
		"serviceaccounts/ns1/sa1": obj("sa1", "sa-uid"),
		"pods/ns1/p1":             {"metadata": map[string]any{"name": "p1", "uid": "pod-uid"}, "spec": map[string]any{"serviceAccountName": "sa1", "nodeName": "n1"}},
		"pods/ns1/other":          {"metadata": map[string]any{"name": "other", "uid": "other-uid"}, "spec": map[string]any{"serviceAccountName": "sa2"}},
		"secrets/ns1/s1":          obj("s1", "secret-uid"),
		"nodes//n1":               obj("n1", "node-uid"),
	}, now: t0}
	var err error
	f.tokens, err = NewServiceAccountTokens(ServiceAccountConfig{
		Issuers: []string{issuer}, SigningKey: key, Objects: f.objs, Now: func() time.Time { return f.now },
	})
	require.NoError(t, err)
	return f
}

func (f *fixture) issue(t *testing.T, spec ServiceAccountToken) string {
	t.Helper()
	if spec.Namespace == "" {
		spec.Namespace, spec.ServiceAccountName, spec.ServiceAccountUID = "ns1", "sa1", "sa-uid"
	}
	if spec.Expiration == 0 {
		spec.Expiration = time.Hour
	}
	tok, exp, err := f.tokens.Issue(spec)
	require.NoError(t, err)
	assert.Equal(t, f.now.Add(spec.Expiration), exp)
	return tok
}

func TestServiceAccountTokenRoundTrip(t *testing.T) {
	for name, key := range map[string]crypto.Signer{"RSA": rsaKey, "ECDSA": ecKey} {
		t.Run("a token signed with an "+name+" key authenticates its ServiceAccount", func(t *testing.T) {
			f := newFixture(t, key)
			resp, ok, err := f.tokens.AuthenticateToken(context.Background(), f.issue(t, ServiceAccountToken{}))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, "system:serviceaccount:ns1:sa1", resp.User.Name)
			assert.Equal(t, "sa-uid", resp.User.UID)
			assert.Equal(t, []string{"system:serviceaccounts", "system:serviceaccounts:ns1"}, resp.User.Groups)
			assert.Len(t, resp.User.Extra, 1)
			assert.True(t, strings.HasPrefix(resp.User.Extra[CredentialIDKey][0], "JTI="))
			assert.Equal(t, []string{issuer}, resp.Audiences)
		})
	}
}

func TestServiceAccountTokenClaims(t *testing.T) {
	f := newFixture(t, rsaKey)
	tok := f.issue(t, ServiceAccountToken{Pod: &BoundObject{Name: "p1", UID: "pod-uid"}, Node: &BoundObject{Name: "n1", UID: "node-uid"}})
	parts := strings.Split(tok, ".")
	header, _ := base64.RawURLEncoding.DecodeString(parts[0])
	payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
	kid, _ := KeyID(rsaKey.Public())
	assert.Equal(t, `{"alg":"RS256","kid":"`+kid+`"}`, string(header))
	// kube's claims, keys sorted as its JOSE library writes them.
	jti := strings.Split(string(payload), `"jti":"`)[1][:36]
	now, exp := strconv.FormatInt(t0.Unix(), 10), strconv.FormatInt(t0.Add(time.Hour).Unix(), 10)
	assert.Equal(t, `{"aud":["`+issuer+`"],"exp":`+exp+`,"iat":`+now+`,"iss":"`+issuer+`","jti":"`+jti+`",`+
		`"kubernetes.io":{"namespace":"ns1","node":{"name":"n1","uid":"node-uid"},"pod":{"name":"p1","uid":"pod-uid"},`+
		`"serviceaccount":{"name":"sa1","uid":"sa-uid"}},"nbf":`+now+`,"sub":"system:serviceaccount:ns1:sa1"}`, string(payload))
}

func TestKeyIDIsKubes(t *testing.T) {
	// kube-apiserver 1.33 signed testdata/kube-sa1.jwt with the key of
	// testdata/kube-sa.pub and named it by this kid.
	pem, err := os.ReadFile("testdata/kube-sa.pub")
	require.NoError(t, err)
	keys, err := ParsePublicKeysPEM(pem)
	require.NoError(t, err)
	kid, err := KeyID(keys[0])
	require.NoError(t, err)
	assert.Equal(t, "CTdL3Ey-YLFcO92RVeG4CUL3VhWDh5EtcX4VY4iPbxw", kid)
}

func TestAKubeIssuedTokenVerifies(t *testing.T) {
	pem, err := os.ReadFile("testdata/kube-sa.pub")
	require.NoError(t, err)
	keys, err := ParsePublicKeysPEM(pem)
	require.NoError(t, err)
	raw, err := os.ReadFile("testdata/kube-sa1.jwt")
	require.NoError(t, err)
	token := strings.TrimSpace(string(raw))
	objs := objects{"serviceaccounts/ns1/sa1": obj("sa1", "5d2661fd-38d7-4063-bab4-171b02415931")}
	tokens, err := NewServiceAccountTokens(ServiceAccountConfig{Issuers: []string{issuer}, Keys: keys, Objects: objs,
		Now: func() time.Time { return time.Unix(1795553340, 0) }})
	require.NoError(t, err)
	resp, ok, err := tokens.AuthenticateToken(context.Background(), token)
	require.NoError(t, err)
	require.True(t, ok)
	// what kube-apiserver's own TokenReview answered for this token
	assert.Equal(t, &User{Name: "system:serviceaccount:ns1:sa1", UID: "5d2661fd-38d7-4063-bab4-171b02415931",
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:ns1"},
		Extra:  map[string][]string{CredentialIDKey: {"JTI=3aa99612-2a82-4506-acd5-c808b295c660"}}}, resp.User)
}

func TestServiceAccountTokenFailures(t *testing.T) {
	cases := []struct {
		name   string
		spec   ServiceAccountToken
		change func(f *fixture)
		err    string
	}{
		{"an expired token", ServiceAccountToken{}, func(f *fixture) { f.now = f.now.Add(time.Hour + 61*time.Second) },
			"service account token has expired"},
		{"a token used before its time", ServiceAccountToken{}, func(f *fixture) { f.now = f.now.Add(-2 * time.Minute) },
			"service account token is not valid yet"},
		{"a token of a deleted ServiceAccount", ServiceAccountToken{}, func(f *fixture) { delete(f.objs, "serviceaccounts/ns1/sa1") },
			`serviceaccounts "sa1" not found`},
		{"a token of a ServiceAccount recreated since", ServiceAccountToken{}, func(f *fixture) { f.objs["serviceaccounts/ns1/sa1"] = obj("sa1", "new-uid") },
			"service account UID (new-uid) does not match claim (sa-uid)"},
		{"a token of a ServiceAccount being deleted", ServiceAccountToken{}, func(f *fixture) {
			f.objs["serviceaccounts/ns1/sa1"] = obj("sa1", "sa-uid", "deletionTimestamp", meta.FormatTime(t0.Add(-time.Hour)))
		}, "service account ns1/sa1 has been deleted"},
		{"a token bound to a deleted secret", ServiceAccountToken{Secret: &BoundObject{Name: "s1", UID: "secret-uid"}},
			func(f *fixture) { delete(f.objs, "secrets/ns1/s1") }, "service account token has been invalidated"},
		{"a token bound to a recreated secret", ServiceAccountToken{Secret: &BoundObject{Name: "s1", UID: "secret-uid"}},
			func(f *fixture) { f.objs["secrets/ns1/s1"] = obj("s1", "x") }, "secret UID (x) does not match service account secret ref claim (secret-uid)"},
		{"a token bound to a deleted pod", ServiceAccountToken{Pod: &BoundObject{Name: "p1", UID: "pod-uid"}},
			func(f *fixture) { delete(f.objs, "pods/ns1/p1") }, "service account token has been invalidated"},
		{"a token bound to a recreated pod", ServiceAccountToken{Pod: &BoundObject{Name: "p1", UID: "pod-uid"}},
			func(f *fixture) { f.objs["pods/ns1/p1"] = obj("p1", "y") }, "pod UID (y) does not match service account pod ref claim (pod-uid)"},
		{"a token for another audience", ServiceAccountToken{Audiences: []string{"vault"}}, nil,
			`token audiences ["vault"] is invalid for the target audiences ["` + issuer + `"]`},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused with kube's message", func(t *testing.T) {
			f := newFixture(t, ecKey)
			tok := f.issue(t, c.spec)
			if c.change != nil {
				_, ok, err := f.tokens.AuthenticateToken(context.Background(), tok) // cached signature from now on
				require.NoError(t, err)
				require.True(t, ok)
				c.change(f)
			}
			_, ok, err := f.tokens.AuthenticateToken(context.Background(), tok)
			assert.False(t, ok)
			require.EqualError(t, err, c.err)
			assert.NotContains(t, err.Error(), tok)
		})
	}
}

func TestForgedTokens(t *testing.T) {
	f := newFixture(t, ecKey)
	good := f.issue(t, ServiceAccountToken{})
	parts := strings.Split(good, ".")
	other := newFixture(t, rsaKey).issue(t, ServiceAccountToken{})
	forgedPayload := base64.RawURLEncoding.EncodeToString([]byte(`{"aud":["` + issuer + `"],"iss":"` + issuer +
		`","kubernetes.io":{"namespace":"kube-system","serviceaccount":{"name":"admin","uid":"x"}},"sub":"x"}`))
	cases := []struct {
		name, token string
		mine        bool
	}{
		{"a changed signature", parts[0] + "." + parts[1] + "." + flip(parts[2]), true},
		{"a changed payload", parts[0] + "." + forgedPayload + "." + parts[2], true},
		{"a token signed by another key", other, true},
		{"an unsigned token (alg none)", base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`)) + "." + parts[1] + ".", false},
		{"an HMAC token", base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256"}`)) + "." + parts[1] + "." + parts[2], false},
		{"another issuer's token", parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"iss":"evil"}`)) + "." + parts[2], false},
		{"not a JWT", "static-token", false},
		{"two parts", parts[0] + "." + parts[1], false},
		{"bad base64", parts[0] + ".!!!." + parts[2], false},
		{"a huge token", strings.Repeat("a", 1<<20) + "." + parts[1] + "." + parts[2], false},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused", func(t *testing.T) {
			resp, ok, err := f.tokens.AuthenticateToken(context.Background(), c.token)
			assert.False(t, ok)
			assert.Nil(t, resp)
			if c.mine {
				require.EqualError(t, err, "go-jose/go-jose: error in cryptographic primitive")
			} else {
				assert.NoError(t, err, "not a token of this issuer: the next authenticator's business")
			}
		})
	}
}

func flip(s string) string {
	b := []byte(s)
	if b[0] == 'A' {
		b[0] = 'B'
	} else {
		b[0] = 'A'
	}
	return string(b)
}

func TestIssueWithoutSigningKey(t *testing.T) {
	tokens, err := NewServiceAccountTokens(ServiceAccountConfig{Issuers: []string{issuer}, Keys: []crypto.PublicKey{ecKey.Public()}, Objects: objects{}})
	require.NoError(t, err)
	_, _, err = tokens.Issue(ServiceAccountToken{Namespace: "ns", ServiceAccountName: "sa"})
	assert.Error(t, err)
}

func TestParseKeys(t *testing.T) {
	_, err := ParsePublicKeysPEM([]byte("not pem"))
	assert.Error(t, err)
	_, err = ParsePrivateKeyPEM([]byte("not pem"))
	assert.Error(t, err)
}
