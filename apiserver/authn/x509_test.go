package authn

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"math/big"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newTestCA(t testing.TB, name string) *testCA {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: name},
		NotBefore: t0.Add(-time.Hour), NotAfter: t0.Add(time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return &testCA{cert: cert, key: key}
}

func (ca *testCA) issue(t testing.TB, cn string, orgs []string, usage x509.ExtKeyUsage) *x509.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: cn, Organization: orgs},
		NotBefore: t0.Add(-time.Hour), NotAfter: t0.Add(time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{usage}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, key.Public(), ca.key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return cert
}

func TestClientCertificates(t *testing.T) {
	ca, other := newTestCA(t, "ca"), newTestCA(t, "other")
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	a := ClientCertificates(pool, func() time.Time { return t0 })
	withCert := func(c *x509.Certificate) *http.Request {
		r := request("")
		r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{c}}
		return r
	}

	t.Run("a certificate from the CA is its Common Name in its Organizations", func(t *testing.T) {
		c := ca.issue(t, "alice", []string{"dev", "system:masters"}, x509.ExtKeyUsageClientAuth)
		resp, ok, err := a.AuthenticateRequest(withCert(c))
		require.NoError(t, err)
		require.True(t, ok)
		sum := sha256.Sum256(c.Raw)
		assert.Equal(t, &User{Name: "alice", Groups: []string{"dev", "system:masters"},
			Extra: map[string][]string{CredentialIDKey: {"X509SHA256=" + hex.EncodeToString(sum[:])}}}, resp.User)
	})
	t.Run("a certificate from another CA is an error", func(t *testing.T) {
		_, ok, err := a.AuthenticateRequest(withCert(other.issue(t, "mallory", nil, x509.ExtKeyUsageClientAuth)))
		assert.False(t, ok)
		assert.ErrorContains(t, err, "verifying certificate SN=2")
	})
	t.Run("a serving certificate is not a client certificate", func(t *testing.T) {
		_, ok, err := a.AuthenticateRequest(withCert(ca.issue(t, "server", nil, x509.ExtKeyUsageServerAuth)))
		assert.False(t, ok)
		assert.Error(t, err)
	})
	t.Run("a certificate without a Common Name is not a user", func(t *testing.T) {
		_, ok, err := a.AuthenticateRequest(withCert(ca.issue(t, "", []string{"g"}, x509.ExtKeyUsageClientAuth)))
		assert.False(t, ok)
		assert.NoError(t, err)
	})
	t.Run("a certificate verified on a connection is the same response on its next requests", func(t *testing.T) {
		r := withCert(ca.issue(t, "bob", []string{"dev"}, x509.ExtKeyUsageClientAuth))
		first, ok, err := a.AuthenticateRequest(r)
		require.NoError(t, err)
		require.True(t, ok)
		again, ok, err := a.AuthenticateRequest(r)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Same(t, first, again)
	})
	t.Run("the chain adds system:authenticated to a certificate's user once per connection, leaving the certificate's user as it was", func(t *testing.T) {
		chain := New(false, a)
		r := withCert(ca.issue(t, "dave", []string{"dev"}, x509.ExtKeyUsageClientAuth))
		inner, ok, err := a.AuthenticateRequest(r)
		require.NoError(t, err)
		require.True(t, ok)
		first, ok, err := chain.AuthenticateRequest(r)
		require.NoError(t, err)
		require.True(t, ok)
		again, ok, err := chain.AuthenticateRequest(r)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Same(t, first, again)
		assert.Equal(t, []string{"dev", AllAuthenticated}, first.User.Groups)
		assert.Equal(t, "dave", first.User.Name)
		assert.Equal(t, inner.User.Extra, first.User.Extra)
		assert.Equal(t, []string{"dev"}, inner.User.Groups)
	})
	t.Run("two certificates of one user on two connections are decorated each on its own", func(t *testing.T) {
		chain := New(false, a)
		r1 := withCert(ca.issue(t, "erin", []string{"dev"}, x509.ExtKeyUsageClientAuth))
		r2 := withCert(ca.issue(t, "erin", []string{"ops"}, x509.ExtKeyUsageClientAuth))
		one, ok, err := chain.AuthenticateRequest(r1)
		require.NoError(t, err)
		require.True(t, ok)
		two, ok, err := chain.AuthenticateRequest(r2)
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, []string{"dev", AllAuthenticated}, one.User.Groups)
		assert.Equal(t, []string{"ops", AllAuthenticated}, two.User.Groups)
	})
	t.Run("a remembered certificate is verified again once the clock leaves its validity", func(t *testing.T) {
		clock := t0
		b := ClientCertificates(pool, func() time.Time { return clock })
		r := withCert(ca.issue(t, "carol", nil, x509.ExtKeyUsageClientAuth))
		_, ok, err := b.AuthenticateRequest(r)
		require.NoError(t, err)
		require.True(t, ok)
		clock = t0.Add(2 * time.Hour)
		_, ok, err = b.AuthenticateRequest(r)
		assert.False(t, ok)
		assert.ErrorContains(t, err, "certificate has expired or is not yet valid")
	})
	t.Run("a certificate without a Common Name stays no user on its next requests", func(t *testing.T) {
		r := withCert(ca.issue(t, "", []string{"g"}, x509.ExtKeyUsageClientAuth))
		for range 2 {
			_, ok, err := a.AuthenticateRequest(r)
			assert.False(t, ok)
			assert.NoError(t, err)
		}
	})
	t.Run("a request without a certificate is not its business", func(t *testing.T) {
		_, ok, err := a.AuthenticateRequest(request(""))
		assert.False(t, ok)
		assert.NoError(t, err)
	})
}

// BenchmarkClientCertificates: the authentication of one request on a
// connection whose certificate was verified before, against the chain's
// verification alone (what every request paid before).
func BenchmarkClientCertificates(b *testing.B) {
	ca := newTestCA(b, "ca")
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	leaf := ca.issue(b, "alice", []string{"dev"}, x509.ExtKeyUsageClientAuth)
	r := request("")
	r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{leaf}}
	b.Run("verify", func(b *testing.B) {
		opts := x509.VerifyOptions{Roots: pool, CurrentTime: t0, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
		for b.Loop() {
			if _, err := leaf.Verify(opts); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("authenticate", func(b *testing.B) {
		a := ClientCertificates(pool, func() time.Time { return t0 })
		for b.Loop() {
			if _, ok, err := a.AuthenticateRequest(r); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("chain", func(b *testing.B) {
		a := New(false, ClientCertificates(pool, func() time.Time { return t0 }), BearerToken(TokenUnion()))
		b.ReportAllocs()
		for b.Loop() {
			if _, ok, err := a.AuthenticateRequest(r); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
}
