package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// A restarted example server keeps the CAs, serving certificate and
// ServiceAccount signing key of its certificate directory (kube-apiserver's
// --cert-dir; by default .kapi beside the kubeconfig), so what it gave out
// before the restart still works after it.

func TestTheExampleServerRestartedInMemoryServesTheKubeconfigItWroteBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server")
	}
	bin := buildExampleServer(t)
	dir := t.TempDir()
	first := runExampleServerIn(t, bin, dir)
	saved := saveKubeconfig(t, first)
	first.mustKubectl("1.33", "get", "namespaces")
	require.NoError(t, first.stop(t))
	for _, f := range []string{"serving-ca.crt", "serving-ca.key", "apiserver.crt", "apiserver.key", "client-ca.crt", "client-ca.key", "sa.key"} {
		assert.FileExists(t, filepath.Join(dir, ".kapi", f), "the certificate directory beside the kubeconfig keeps it")
	}

	second := runExampleServerIn(t, bin, dir, "-addr", first.addr)
	before := &cluster{t: t, url: second.url, kubeconfig: saved}
	out, err := before.kubectl("1.33", "get", "namespaces")
	require.NoError(t, err, "the kubeconfig written before the restart still works: %s", out)
	assert.NotContains(t, out, "x509")
	assert.Contains(t, out, "kube-system")
}

func TestTheExampleServerRestartedOnEtcdServesTheKubeconfigAndTokensItGaveOutBefore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server")
	}
	bin := buildExampleServer(t)
	etcdCluster := etcdtest.Start(t)
	dir := t.TempDir()
	etcdFlag := "-etcd-servers=" + strings.Join(etcdCluster.Endpoints(), ",")
	first := runExampleServerIn(t, bin, dir, etcdFlag)
	saved := saveKubeconfig(t, first)
	first.mustKubectl("1.33", "create", "configmap", "kept", "--from-literal=a=b")
	require.Eventually(t, func() bool {
		_, err := first.kubectl("1.33", "get", "serviceaccount", "default")
		return err == nil
	}, 30*time.Second, 100*time.Millisecond, "the serviceaccount controller creates default/default")
	token := strings.TrimSpace(first.mustKubectl("1.33", "create", "token", "default", "--duration=1h"))
	require.NotEmpty(t, token)
	require.NoError(t, first.stop(t))

	second := runExampleServerIn(t, bin, dir, etcdFlag, "-addr", first.addr)
	before := &cluster{t: t, url: second.url, kubeconfig: saved}
	out, err := before.kubectl("1.33", "get", "configmap", "kept", "-o", "jsonpath={.data.a}")
	require.NoError(t, err, "the kubeconfig written before the restart still works: %s", out)
	assert.Equal(t, "b", out)

	withToken := &cluster{t: t, url: second.url, kubeconfig: tokenKubeconfig(t, second.url, filepath.Join(dir, ".kapi", "serving-ca.crt"), token)}
	out, err = withToken.kubectl("1.33", "auth", "whoami", "-o", "jsonpath={.status.userInfo.username}")
	require.NoError(t, err, "the ServiceAccount token issued before the restart still authenticates: %s", out)
	assert.Equal(t, "system:serviceaccount:default:default", out)
}

// saveKubeconfig copies the kubeconfig a server wrote, which its next
// start overwrites, and returns the copy's path.
func saveKubeconfig(t *testing.T, s *exampleServer) string {
	t.Helper()
	b, err := os.ReadFile(s.kubeconfig)
	require.NoError(t, err)
	saved := filepath.Join(t.TempDir(), "saved.kubeconfig")
	require.NoError(t, os.WriteFile(saved, b, 0o600))
	return saved
}

// tokenKubeconfig writes a kubeconfig that trusts caFile and authenticates
// with a bearer token only.
func tokenKubeconfig(t *testing.T, url, caFile, token string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "token.kubeconfig")
	require.NoError(t, os.WriteFile(path, []byte(fmt.Sprintf(`apiVersion: v1
kind: Config
clusters:
- name: kapi
  cluster:
    server: %s
    certificate-authority: %s
users:
- name: token
  user:
    token: %s
contexts:
- name: kapi
  context: {cluster: kapi, user: token, namespace: default}
current-context: kapi
`, url, caFile, token)), 0o600))
	return path
}
