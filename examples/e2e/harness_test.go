package e2e

import (
	"bytes"
	"context"
	"fmt"
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

// progressContext guards a fixed amount of work with a deadline that moves
// with it: the context is canceled, with a cause naming the stall, only when
// progressed has not been called for stall. A wall-clock deadline for the
// whole work fails on a loaded machine; this one fails only on a hang.
func progressContext(t *testing.T, stall time.Duration) (ctx context.Context, progressed func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	timer := time.AfterFunc(stall, func() { cancel(fmt.Errorf("no progress for %s", stall)) })
	t.Cleanup(func() {
		timer.Stop()
		cancel(nil)
	})
	return ctx, func() { timer.Reset(stall) }
}

// restConfig is the client-go configuration for the cluster.
func (c *cluster) restConfig() *rest.Config {
	c.t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", c.kubeconfig)
	require.NoError(c.t, err)
	return cfg
}

// kubectlBinary finds kubectl.1.NN beside the real file behind kubectl on
// PATH, where every development and CI machine has versions 1.27 to 1.33,
// or else in the kubectl cache, where .ci/run builds the newer releases
// (hack/kubectl.sh).
func kubectlBinary(t *testing.T, version string) string {
	t.Helper()
	bin, ok := findKubectl(version)
	require.True(t, ok, "kubectl %s must stand beside the kubectl on PATH or in %s: run hack/kubectl.sh %s", version, kubectlCache(), version)
	return bin
}

func findKubectl(version string) (string, bool) {
	var dirs []string
	if onPath, err := exec.LookPath("kubectl"); err == nil {
		if real, err := filepath.EvalSymlinks(onPath); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	for _, dir := range append(dirs, kubectlCache()) {
		bin := filepath.Join(dir, "kubectl."+version)
		if info, err := os.Stat(bin); err == nil && !info.IsDir() {
			return bin, true
		}
	}
	return "", false
}

// kubectlCache is the directory hack/kubectl.sh builds kubectl releases into.
func kubectlCache() string {
	if dir := os.Getenv("KAPI_KUBECTL_CACHE"); dir != "" {
		return dir
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "kapi-kubectl")
	}
	return filepath.Join(home, ".cache", "kapi-kubectl")
}

// newerKubectls are the releases after 1.33 found on this machine (.ci/run
// builds 1.35 to 1.37): tests that run every kubectl of kubectlVersions run
// them too.
func newerKubectls() []string {
	var found []string
	for _, v := range []string{"1.34", "1.35", "1.36", "1.37"} {
		if _, ok := findKubectl(v); ok {
			found = append(found, v)
		}
	}
	return found
}

// kubectl runs one kubectl command against the cluster and returns its
// combined output and error.
func (c *cluster) kubectl(version string, args ...string) (string, error) {
	return c.kubectlStdin(version, "", args...)
}

func (c *cluster) kubectlStdin(version, stdin string, args ...string) (string, error) {
	c.t.Helper()
	// A bound for a hung kubectl only: one command takes well under a second
	// on a quiet machine, and many seconds on two cores loaded to 20.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
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
