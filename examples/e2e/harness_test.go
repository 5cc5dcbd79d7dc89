package e2e

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/stretchr/testify/require"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// cluster is one example server started in-process for a test, with a
// kubeconfig that kubectl and client-go use to reach it.
type cluster struct {
	t          *testing.T
	url        string
	kubeconfig string
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	return startClusterWith(t, kapiserver.Config())
}

// startClusterWith starts the example server with an adjusted config.
func startClusterWith(t *testing.T, cfg apiserver.Config) *cluster {
	t.Helper()
	handler, err := apiserver.New(cfg)
	require.NoError(t, err)
	return serveCluster(t, handler)
}

// serveCluster serves a server built by the test on a loopback listener.
func serveCluster(t *testing.T, handler *apiserver.Server) *cluster {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, kapiserver.WriteKubeconfig(path, srv.URL))
	return &cluster{t: t, url: srv.URL, kubeconfig: path}
}

// restConfig is the client-go configuration for the cluster.
func (c *cluster) restConfig() *rest.Config {
	c.t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	require.NoError(c.t, err)
	return cfg
}

// kubectlBinary finds kubectl.1.NN beside the real file behind kubectl on
// PATH, where every development and CI machine has versions 1.27 to 1.33.
func kubectlBinary(t *testing.T, version string) string {
	t.Helper()
	onPath, err := exec.LookPath("kubectl")
	require.NoError(t, err, "kubectl must be on PATH")
	real, err := filepath.EvalSymlinks(onPath)
	require.NoError(t, err)
	bin := filepath.Join(filepath.Dir(real), "kubectl."+version)
	_, err = os.Stat(bin)
	require.NoError(t, err, "kubectl %s must stand beside %s", version, real)
	return bin
}

// kubectl runs one kubectl command against the cluster and returns its
// combined output and error.
func (c *cluster) kubectl(version string, args ...string) (string, error) {
	return c.kubectlStdin(version, "", args...)
}

func (c *cluster) kubectlStdin(version, stdin string, args ...string) (string, error) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, kubectlBinary(c.t, version), append([]string{"--kubeconfig", c.kubeconfig}, args...)...)
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(c.t.TempDir(), "cache"), "HOME="+c.t.TempDir())
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// mustKubectl runs kubectl and fails the test on error.
func (c *cluster) mustKubectl(version string, args ...string) string {
	c.t.Helper()
	out, err := c.kubectl(version, args...)
	require.NoError(c.t, err, "kubectl %s: %s", strings.Join(args, " "), out)
	return out
}
