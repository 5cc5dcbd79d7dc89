package e2e

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// The example server on an etcd that is down, or goes away: it says so
// plainly, naming etcd, within seconds.

func TestTheExampleServerOnAnEtcdThatIsDownExitsWithinSecondsNamingEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server")
	}
	bin := buildExampleServer(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	endpoint := "http://" + l.Addr().String()
	require.NoError(t, l.Close())

	// Bounded by a minute: a server that hangs (as it did, until stopped)
	// is told apart from one that gives up after etcd.OpenTimeout.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "-addr", "127.0.0.1:0", "-kubeconfig", dir+"/kapi.kubeconfig", "-etcd-servers="+endpoint)
	cmd.Dir = dir
	start := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(start)
	require.Error(t, err, "the server does not serve without its etcd: %s", out)
	require.NoError(t, ctx.Err(), "the server gave up on its own, within a minute: %s", out)
	assert.Contains(t, string(out), "etcd at "+endpoint+" did not answer within 5s")
	assert.Contains(t, string(out), "connection refused")
	t.Logf("exited after %v: %s", elapsed.Round(time.Millisecond), strings.TrimSpace(string(out)))
	assert.Less(t, elapsed, etcd.OpenTimeout+20*time.Second, "etcd.OpenTimeout, plus the process's start on a busy machine")
}

func TestTheExampleServerFailsItsEtcdReadinessCheckWhileEtcdIsDown(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server")
	}
	bin := buildExampleServer(t)
	etcdCluster := etcdtest.Start(t)
	s := runExampleServer(t, bin, "-etcd-servers="+strings.Join(etcdCluster.Endpoints(), ","))
	code, body := s.anonymousGet(t, "/readyz?verbose")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "[+]log ok\n[+]etcd ok\n[+]etcd-readiness ok\n")

	etcdCluster.Stop()
	code, body = s.anonymousGet(t, "/readyz?verbose")
	assert.Equal(t, http.StatusInternalServerError, code, "/readyz fails while etcd is down")
	assert.Contains(t, body, "[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n")
	out, err := s.kubectl("1.33", "get", "--raw", "/readyz/etcd") // a named check is not public: the admin reads it
	require.Error(t, err)
	assert.Contains(t, out, "error getting data from etcd", "the check's own path says why")

	require.NoError(t, etcdCluster.Members[0].Start())
	require.Eventually(t, func() bool {
		code, body := s.anonymousGet(t, "/readyz")
		return code == http.StatusOK && body == "ok"
	}, 30*time.Second, 200*time.Millisecond, "/readyz recovers with etcd")
}

// anonymousGet reads path without credentials (kube's
// system:public-info-viewer lets anyone read the health endpoints),
// trusting the CA in the server's certificate directory.
func (s *exampleServer) anonymousGet(t *testing.T, path string) (int, string) {
	t.Helper()
	ca, err := os.ReadFile(filepath.Join(filepath.Dir(s.kubeconfig), ".kapi", "serving-ca.crt"))
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(ca))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}, Timeout: 30 * time.Second}
	defer client.CloseIdleConnections()
	resp, err := client.Get(s.url + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}
