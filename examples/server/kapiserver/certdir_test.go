package kapiserver

import (
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func servingLeaf(t *testing.T, s *Secure) *x509.Certificate {
	t.Helper()
	leaf, err := x509.ParseCertificate(s.TLS.Certificates[0].Certificate[0])
	require.NoError(t, err)
	return leaf
}

func TestASecondStartWithTheSameCertDirKeepsItsCAsCertificateAndSigningKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".kapi")
	first, err := NewSecure(t.Context(), Options{CertDir: dir, Hosts: []string{"127.0.0.1"}})
	require.NoError(t, err)
	second, err := NewSecure(t.Context(), Options{CertDir: dir, Hosts: []string{"127.0.0.1"}})
	require.NoError(t, err)

	assert.Equal(t, first.CAData, second.CAData, "the kubeconfig's CA stays")
	assert.True(t, first.ClientCA.Cert.Equal(second.ClientCA.Cert), "the admin's client CA stays")
	assert.True(t, servingLeaf(t, first).Equal(servingLeaf(t, second)), "the serving certificate is reused")
	saKey, err := os.ReadFile(filepath.Join(dir, "sa.key"))
	require.NoError(t, err)
	assert.Contains(t, string(saKey), "PRIVATE KEY")
	for _, f := range []string{"serving-ca.key", "client-ca.key", "apiserver.key", "sa.key"} {
		info, err := os.Stat(filepath.Join(dir, f))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), info.Mode().Perm(), "%s is its owner's only", f)
	}

	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(first.CAData))
	_, err = servingLeaf(t, second).Verify(x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"})
	assert.NoError(t, err, "the second start's serving certificate verifies with the first start's CA")
}

func TestANewHostGetsANewServingCertificateFromTheSameCA(t *testing.T) {
	dir := t.TempDir()
	first, err := NewSecure(t.Context(), Options{CertDir: dir})
	require.NoError(t, err)
	second, err := NewSecure(t.Context(), Options{CertDir: dir, Hosts: []string{"kapi.example"}})
	require.NoError(t, err)
	assert.Equal(t, first.CAData, second.CAData)
	leaf := servingLeaf(t, second)
	assert.Contains(t, leaf.DNSNames, "kapi.example")
	assert.False(t, leaf.Equal(servingLeaf(t, first)))
}

func TestWithoutACertDirEachStartGeneratesItsOwn(t *testing.T) {
	first, err := NewSecure(t.Context(), Options{})
	require.NoError(t, err)
	second, err := NewSecure(t.Context(), Options{})
	require.NoError(t, err)
	assert.NotEqual(t, first.CAData, second.CAData)
}

func TestAHalfWrittenCertDirIsAnError(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "client-ca.crt"), []byte("x"), 0o600))
	_, err := NewSecure(t.Context(), Options{CertDir: dir})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "holds only one of client-ca.crt and client-ca.key")
}

func TestDefaultCertDirIsBesideTheKubeconfig(t *testing.T) {
	assert.Equal(t, ".kapi", DefaultCertDir("kapi.kubeconfig"))
	assert.Equal(t, filepath.Join("/tmp/x", ".kapi"), DefaultCertDir("/tmp/x/kapi.kubeconfig"))
}
