package authn

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"
)

// CredentialIDKey is the extra attribute naming the credential a user
// authenticated with (a client certificate's fingerprint, a token's ID),
// as kube records it.
const CredentialIDKey = "authentication.kubernetes.io/credential-id"

// ClientCertificates authenticates requests by the client certificate of
// their TLS connection, verified against the CAs in roots for client
// authentication (the intermediates the client sent help build the chain):
// the certificate's Common Name is the user, its Organizations are the
// groups. Requests over plain HTTP or without a certificate are not its
// business; a certificate that does not verify is an error. now is the
// clock (nil: time.Now).
//
// Every request of one TLS connection carries the same certificates, so a
// verified chain is remembered per connection's leaf certificate while the
// clock stays inside the chain's validity: a connection pays for one
// signature check, not one per request (each is most of a GET's cost), and
// its requests share one Response (and user), never modified.
func ClientCertificates(roots *x509.CertPool, now func() time.Time) Authenticator {
	if now == nil {
		now = time.Now
	}
	var cache verifiedCerts
	return AuthenticatorFunc(func(r *http.Request) (*Response, bool, error) {
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
			return nil, false, nil
		}
		leaf := r.TLS.PeerCertificates[0]
		t := now()
		if resp, ok := cache.get(leaf, t); ok {
			if resp == nil {
				return nil, false, nil
			}
			return resp, true, nil
		}
		opts := x509.VerifyOptions{
			Roots:       roots,
			CurrentTime: t,
			KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		}
		if len(r.TLS.PeerCertificates) > 1 {
			opts.Intermediates = x509.NewCertPool()
			for _, c := range r.TLS.PeerCertificates[1:] {
				opts.Intermediates.AddCert(c)
			}
		}
		chains, err := leaf.Verify(opts)
		if err != nil {
			return nil, false, fmt.Errorf("verifying certificate %s failed: %w", certificateIdentifier(leaf), err)
		}
		var resp *Response
		if leaf.Subject.CommonName != "" {
			sum := sha256.Sum256(leaf.Raw)
			resp = shared(&User{
				Name:   leaf.Subject.CommonName,
				Groups: append([]string(nil), leaf.Subject.Organization...),
				Extra:  map[string][]string{CredentialIDKey: {"X509SHA256=" + hex.EncodeToString(sum[:])}},
			})
		}
		cache.put(leaf, chains[0], resp)
		if resp == nil {
			return nil, false, nil
		}
		return resp, true, nil
	})
}

// verifiedCertsMax bounds the remembered certificates (one per open
// connection); when full, they are forgotten all at once.
const verifiedCertsMax = 4096

// verifiedCerts remembers verified leaf certificates, by the pointer TLS
// hands every request of one connection, with the window in which their
// chain is valid and the response naming each one's user (nil: no Common
// Name).
type verifiedCerts struct {
	mu sync.Mutex
	m  map[*x509.Certificate]verifiedCert
}

type verifiedCert struct {
	notBefore, notAfter time.Time
	resp                *Response
}

func (c *verifiedCerts) get(leaf *x509.Certificate, now time.Time) (*Response, bool) {
	c.mu.Lock()
	v, ok := c.m[leaf]
	c.mu.Unlock()
	if !ok || now.Before(v.notBefore) || now.After(v.notAfter) {
		return nil, false
	}
	return v.resp, true
}

func (c *verifiedCerts) put(leaf *x509.Certificate, chain []*x509.Certificate, resp *Response) {
	v := verifiedCert{notBefore: leaf.NotBefore, notAfter: leaf.NotAfter, resp: resp}
	for _, cert := range chain {
		if cert.NotBefore.After(v.notBefore) {
			v.notBefore = cert.NotBefore
		}
		if cert.NotAfter.Before(v.notAfter) {
			v.notAfter = cert.NotAfter
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= verifiedCertsMax {
		c.m = make(map[*x509.Certificate]verifiedCert)
	}
	c.m[leaf] = v
}

// certificateIdentifier names a certificate in errors by its subject,
// issuer and serial number, as kube does (public facts, no secret).
func certificateIdentifier(c *x509.Certificate) string {
	return fmt.Sprintf("SN=%s, SKID=%s, AKID=%s", c.SerialNumber, hexColons(c.SubjectKeyId), hexColons(c.AuthorityKeyId))
}

func hexColons(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	const digits = "0123456789ABCDEF"
	out := make([]byte, 0, len(b)*3-1)
	for i, c := range b {
		if i > 0 {
			out = append(out, ':')
		}
		out = append(out, digits[c>>4], digits[c&0xf])
	}
	return string(out)
}

// LoadCertPool reads the PEM certificates of a file (--client-ca-file).
func LoadCertPool(path string) (*x509.CertPool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	return pool, nil
}
