package e2e

import (
	"crypto/tls"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// TestSecureServerOptions: the example server's kube-apiserver flags do
// what kube-apiserver's do.
func TestSecureServerOptions(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o600))
		return p
	}
	servingCA, err := kapiserver.NewCA("my-serving-ca", now)
	require.NoError(t, err)
	cert, key, err := servingCA.IssueServing([]string{"127.0.0.1"}, now)
	require.NoError(t, err)
	clientCA, err := kapiserver.NewCA("my-client-ca", now)
	require.NoError(t, err)
	c := startSecureCluster(t, kapiserver.Options{
		TLSCertFile: write("tls.crt", cert), TLSPrivateKeyFile: write("tls.key", key),
		ClientCAFile:      write("client-ca.crt", clientCA.PEM),
		AuthorizationMode: "RBAC,AlwaysAllow",
		AnonymousAuth:     true,
	})
	// -tls-cert-file: the server presents it, and the kubeconfig trusts
	// what the file holds (every test below goes through it).

	t.Run("-client-ca-file: its client certificates authenticate", func(t *testing.T) {
		cert, key, err := clientCA.IssueClient("erin", []string{"ops"}, now)
		require.NoError(t, err)
		out, err := c.kubectlAs(c.certKubeconfig(cert, key), "1.33", "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}")
		require.NoError(t, err, out)
		assert.Equal(t, "erin", out)
	})
	t.Run("-authorization-mode=RBAC,AlwaysAllow: what RBAC does not allow, AlwaysAllow does", func(t *testing.T) {
		out, err := c.kubectlAs(c.tokenKubeconfig("bob-token"), "1.33", "get", "secrets", "-A")
		require.NoError(t, err, out)
	})
	t.Run("-anonymous-auth: a request without credentials is system:anonymous", func(t *testing.T) {
		client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: rootCAs(t, c.sec.CAData)}}}
		resp, err := client.Get(c.url + "/version")
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, string(body))
	})
}

// TestSecureServerAnonymousAccessUnderRBAC: with RBAC alone, anonymous
// requests may read health and version, and nothing else (kube's
// system:public-info-viewer).
func TestSecureServerAnonymousAccessUnderRBAC(t *testing.T) {
	c := startSecureCluster(t, kapiserver.Options{AnonymousAuth: true})
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: rootCAs(t, c.sec.CAData)}}}
	for path, want := range map[string]int{"/version": 200, "/healthz": 200, "/readyz": 200, "/livez": 200, "/api": 403, "/api/v1/namespaces": 403} {
		resp, err := client.Get(c.url + path)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, want, resp.StatusCode, "%s: %s", path, body)
		if path == "/api" {
			assert.Equal(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \"system:anonymous\" cannot get path \"/api\"","reason":"Forbidden","details":{},"code":403}`+"\n", string(body))
		}
	}
}
