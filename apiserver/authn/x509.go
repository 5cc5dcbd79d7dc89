package authn

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
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
func ClientCertificates(roots *x509.CertPool, now func() time.Time) Authenticator {
	if now == nil {
		now = time.Now
	}
	return AuthenticatorFunc(func(r *http.Request) (*Response, bool, error) {
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
			return nil, false, nil
		}
		leaf := r.TLS.PeerCertificates[0]
		opts := x509.VerifyOptions{
			Roots:       roots,
			CurrentTime: now(),
			KeyUsages:   []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		}
		if len(r.TLS.PeerCertificates) > 1 {
			opts.Intermediates = x509.NewCertPool()
			for _, c := range r.TLS.PeerCertificates[1:] {
				opts.Intermediates.AddCert(c)
			}
		}
		if _, err := leaf.Verify(opts); err != nil {
			return nil, false, fmt.Errorf("verifying certificate %s failed: %w", certificateIdentifier(leaf), err)
		}
		if leaf.Subject.CommonName == "" {
			return nil, false, nil
		}
		sum := sha256.Sum256(leaf.Raw)
		return &Response{User: &User{
			Name:   leaf.Subject.CommonName,
			Groups: append([]string(nil), leaf.Subject.Organization...),
			Extra:  map[string][]string{CredentialIDKey: {"X509SHA256=" + hex.EncodeToString(sum[:])}},
		}}, true, nil
	})
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
