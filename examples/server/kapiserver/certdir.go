package kapiserver

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/kapi-dev/kapi/apiserver/authn"
)

// A certificate directory (kube-apiserver's --cert-dir) keeps what the
// example server generates, so that a restart keeps serving the
// kubeconfigs and ServiceAccount tokens it gave out:
//
//	serving-ca.crt, serving-ca.key  the CA of the serving certificate (the kubeconfig trusts it)
//	apiserver.crt, apiserver.key    the serving certificate (kube's names in --cert-dir)
//	client-ca.crt, client-ca.key    the CA of the client certificates (the admin's)
//	sa.key                          the key that signs ServiceAccount tokens
//
// Files present are used as they are; missing ones are generated and
// written. A serving certificate that does not name every host, or expires
// within a day, is issued again by the same CA.
const (
	servingCAName    = "serving-ca"
	servingCertName  = "apiserver"
	clientCAName     = "client-ca"
	saKeyFile        = "sa.key"
	renewServingWhen = 24 * time.Hour
)

// DefaultCertDir is where the example command keeps its certificates when
// -cert-dir is not given: .kapi beside its kubeconfig.
func DefaultCertDir(kubeconfig string) string {
	return filepath.Join(filepath.Dir(kubeconfig), ".kapi")
}

// certDir is a certificate directory; "" keeps everything in memory.
type certDir string

func (d certDir) path(name string) string { return filepath.Join(string(d), name) }

// prepare creates the directory, readable by its owner only.
func (d certDir) prepare() error {
	if d == "" {
		return nil
	}
	if err := os.MkdirAll(string(d), 0o700); err != nil {
		return fmt.Errorf("-cert-dir: %w", err)
	}
	return nil
}

// read returns the contents of name, or nil when the directory or the
// file does not exist.
func (d certDir) read(name string) ([]byte, error) {
	if d == "" {
		return nil, nil
	}
	b, err := os.ReadFile(d.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("-cert-dir: %w", err)
	}
	return b, nil
}

// write replaces name with data (a key: owner only), through a temporary
// file so that a file is never seen half written.
func (d certDir) write(name string, data []byte) error {
	if d == "" {
		return nil
	}
	tmp, err := os.CreateTemp(string(d), "."+name+".*")
	if err != nil {
		return fmt.Errorf("-cert-dir: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("-cert-dir: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("-cert-dir: %w", err)
	}
	if err := os.Rename(tmp.Name(), d.path(name)); err != nil {
		return fmt.Errorf("-cert-dir: %w", err)
	}
	return nil
}

// pair reads name.crt and name.key; both nil when neither exists.
func (d certDir) pair(name string) (certPEM, keyPEM []byte, err error) {
	if certPEM, err = d.read(name + ".crt"); err != nil {
		return nil, nil, err
	}
	if keyPEM, err = d.read(name + ".key"); err != nil {
		return nil, nil, err
	}
	if (certPEM == nil) != (keyPEM == nil) {
		return nil, nil, fmt.Errorf("-cert-dir: %s holds only one of %s.crt and %s.key", d, name, name)
	}
	return certPEM, keyPEM, nil
}

// ca returns the CA kept as name.crt and name.key, generating and writing
// it (with Common Name cn) when absent.
func (d certDir) ca(name, cn string, now time.Time) (*CA, error) {
	certPEM, keyPEM, err := d.pair(name)
	if err != nil {
		return nil, err
	}
	if certPEM != nil {
		return parseCA(certPEM, keyPEM)
	}
	ca, err := NewCA(cn, now)
	if err != nil {
		return nil, err
	}
	keyPEM, err = marshalKey(ca.Key)
	if err != nil {
		return nil, err
	}
	if err := d.write(name+".key", keyPEM); err != nil {
		return nil, err
	}
	if err := d.write(name+".crt", ca.PEM); err != nil {
		return nil, err
	}
	return ca, nil
}

// serving returns the serving certificate and key kept in the directory
// when they were issued by ca for every one of hosts and stay valid for a
// day more; otherwise it issues new ones and writes them.
func (d certDir) serving(ca *CA, hosts []string, now time.Time) (certPEM, keyPEM []byte, err error) {
	certPEM, keyPEM, err = d.pair(servingCertName)
	if err != nil {
		return nil, nil, err
	}
	if certPEM != nil && servingStillFits(certPEM, ca, hosts, now) {
		return certPEM, keyPEM, nil
	}
	if certPEM, keyPEM, err = ca.IssueServing(hosts, now); err != nil {
		return nil, nil, err
	}
	if err := d.write(servingCertName+".key", keyPEM); err != nil {
		return nil, nil, err
	}
	if err := d.write(servingCertName+".crt", certPEM); err != nil {
		return nil, nil, err
	}
	return certPEM, keyPEM, nil
}

// servingStillFits reports whether certPEM is signed by ca, names every
// host and is valid from now until a day later.
func servingStillFits(certPEM []byte, ca *CA, hosts []string, now time.Time) bool {
	block, _ := pem.Decode(certPEM)
	if block == nil {
		return false
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil || cert.CheckSignatureFrom(ca.Cert) != nil {
		return false
	}
	if now.Before(cert.NotBefore) || now.Add(renewServingWhen).After(cert.NotAfter) {
		return false
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			h = ip.String()
		}
		if cert.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

// signingKey returns the ServiceAccount signing key kept in the directory,
// generating and writing it when absent.
func (d certDir) signingKey() (crypto.Signer, error) {
	keyPEM, err := d.read(saKeyFile)
	if err != nil {
		return nil, err
	}
	if keyPEM != nil {
		key, err := authn.ParsePrivateKeyPEM(keyPEM)
		if err != nil {
			return nil, fmt.Errorf("-cert-dir: %s: %w", d.path(saKeyFile), err)
		}
		return key, nil
	}
	key, err := newKey()
	if err != nil {
		return nil, err
	}
	if keyPEM, err = marshalKey(key); err != nil {
		return nil, err
	}
	if err := d.write(saKeyFile, keyPEM); err != nil {
		return nil, err
	}
	return key, nil
}

// parseCA reads a CA's certificate and key (PEM).
func parseCA(certPEM, keyPEM []byte) (*CA, error) {
	block, _ := pem.Decode(certPEM)
	if block == nil || block.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("-cert-dir: a CA certificate file holds no PEM certificate")
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("-cert-dir: %w", err)
	}
	key, err := authn.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return nil, fmt.Errorf("-cert-dir: CA %s: %w", cert.Subject.CommonName, err)
	}
	return &CA{Cert: cert, Key: key, PEM: certPEM}, nil
}

// marshalKey is PEM of a private key, in PKCS #8.
func marshalKey(key crypto.Signer) ([]byte, error) {
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}
