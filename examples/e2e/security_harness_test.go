package e2e

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// secureCluster is the example server as `go run ./server` runs it (HTTPS,
// client certificates, tokens, RBAC), started in-process for a test, with
// the static tokens of tokensCSV.
type secureCluster struct {
	*cluster
	sec *kapiserver.Secure
}

// tokensCSV are the static users of every secure test cluster, as the
// reference kube-apiserver's token file had them for
// docs/kube-behaviour/08-security.md.
const tokensCSV = `alice-token,alice,alice-uid,"dev,qa"
bob-token,bob,bob-uid
carol-token,carol,,"system:authenticated"
`

func startSecureCluster(t *testing.T, opts kapiserver.Options) *secureCluster {
	t.Helper()
	if opts.TokenAuthFile == "" {
		opts.TokenAuthFile = filepath.Join(t.TempDir(), "tokens.csv")
		require.NoError(t, os.WriteFile(opts.TokenAuthFile, []byte(tokensCSV), 0o600))
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sec, err := kapiserver.NewSecure(ctx, opts)
	require.NoError(t, err)
	return startSecureClusterWith(t, sec, sec.Config)
}

func startSecureClusterWith(t *testing.T, sec *kapiserver.Secure, cfg apiserver.Config) *secureCluster {
	t.Helper()
	handler, err := apiserver.New(cfg)
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(handler)
	srv.TLS = sec.TLS
	srv.StartTLS()
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, sec.WriteKubeconfig(path, srv.URL))
	return &secureCluster{cluster: &cluster{t: t, url: srv.URL, kubeconfig: path}, sec: sec}
}

// tokenKubeconfig writes a kubeconfig that trusts the server and sends
// token.
func (c *secureCluster) tokenKubeconfig(token string) string {
	return c.writeKubeconfig(fmt.Sprintf("    token: %s\n", token))
}

// certKubeconfig writes a kubeconfig that authenticates with a client
// certificate.
func (c *secureCluster) certKubeconfig(cert, key []byte) string {
	b64 := base64.StdEncoding.EncodeToString
	return c.writeKubeconfig(fmt.Sprintf("    client-certificate-data: %s\n    client-key-data: %s\n", b64(cert), b64(key)))
}

func (c *secureCluster) writeKubeconfig(user string) string {
	c.t.Helper()
	cfg := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster:
    server: %s
    certificate-authority-data: %s
users:
- name: u
  user:
%scontexts:
- name: kapi
  context: {cluster: kapi, user: u, namespace: default}
current-context: kapi
`, c.url, base64.StdEncoding.EncodeToString(c.sec.CAData), user)
	path := filepath.Join(c.t.TempDir(), "kubeconfig")
	require.NoError(c.t, os.WriteFile(path, []byte(cfg), 0o600))
	return path
}

// kubectlAs runs kubectl with another kubeconfig.
func (c *secureCluster) kubectlAs(kubeconfig, version string, args ...string) (string, error) {
	other := *c.cluster
	other.kubeconfig = kubeconfig
	return other.kubectl(version, args...)
}

// tokenConfig is a client-go configuration sending token.
func (c *secureCluster) tokenConfig(token string) *rest.Config {
	return &rest.Config{Host: c.url, BearerToken: token, TLSClientConfig: rest.TLSClientConfig{CAData: c.sec.CAData}}
}

// clientset is a typed client for cfg.
func clientset(t *testing.T, cfg *rest.Config) *kubernetes.Clientset {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	return cs
}

// lines splits kubectl output into lines without the trailing empty one.
func lines(s string) []string { return strings.Split(strings.TrimRight(s, "\n"), "\n") }
