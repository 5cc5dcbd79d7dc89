package e2e

import (
	"bufio"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's first command is `go run -C examples ./server`. These tests
// build that program and run it as a newcomer does, with its default
// flags (HTTPS, RBAC, APF, every controller), on a port of its own.

// exampleServer is one running example server process.
type exampleServer struct {
	*cluster
	cmd  *exec.Cmd
	addr string
	exit chan error
}

// buildExampleServer compiles examples/server once per test binary.
func buildExampleServer(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "kapi-example-server")
	out, err := exec.Command(goBin, "build", "-o", bin, "github.com/kapi-dev/kapi/examples/server").CombinedOutput()
	require.NoError(t, err, "go build ./server: %s", out)
	return bin
}

var servingLine = regexp.MustCompile(`^kapi serving on (https?://(\S+)) \(kubeconfig: (.+)\)$`)

// runExampleServer starts the binary with args on a free loopback port and
// waits for the line it prints once it serves.
func runExampleServer(t *testing.T, bin string, args ...string) *exampleServer {
	t.Helper()
	return runExampleServerIn(t, bin, t.TempDir(), args...)
}

// runExampleServerIn is runExampleServer in dir, where the server writes
// its kubeconfig (and, by default, its certificate directory): a server
// run again in the same dir finds what the first wrote.
func runExampleServerIn(t *testing.T, bin, dir string, args ...string) *exampleServer {
	t.Helper()
	kubeconfig := filepath.Join(dir, "kapi.kubeconfig")
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0", "-kubeconfig", kubeconfig}, args...)...)
	cmd.Dir = dir
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	s := &exampleServer{cmd: cmd, exit: make(chan error, 1)}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.exit
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
		s.exit <- cmd.Wait()
	}()
	select {
	case line := <-lines:
		m := servingLine.FindStringSubmatch(line)
		require.NotNil(t, m, "first line: %q", line)
		s.cluster = &cluster{t: t, url: m[1], kubeconfig: m[3]}
		s.addr = m[2]
		assert.Equal(t, kubeconfig, m[3])
	case err := <-s.exit:
		s.exit <- err
		t.Fatalf("the example server exited before serving: %v\n%s", err, stderr.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("the example server printed nothing in 60 s\n%s", stderr.String())
	}
	return s
}

// stop sends SIGTERM, as Ctrl-C or a process manager does, and returns how
// the process ended.
func (s *exampleServer) stop(t *testing.T) error {
	t.Helper()
	require.NoError(t, s.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-s.exit:
		s.exit <- err
		return err
	case <-time.After(2 * time.Minute):
		t.Fatal("the example server did not stop within 20 s of SIGTERM")
		return nil
	}
}

func TestTheExampleServerServesKubectlWithItsControllersAndStopsOnSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example server")
	}
	s := runExampleServer(t, buildExampleServer(t))
	kubectl := func(args ...string) string { return s.mustKubectl("1.33", args...) }

	kubectl("create", "namespace", "newcomer")
	require.Eventually(t, func() bool {
		_, errSA := s.kubectl("1.33", "-n", "newcomer", "get", "serviceaccount", "default")
		_, errCA := s.kubectl("1.33", "-n", "newcomer", "get", "configmap", "kube-root-ca.crt")
		return errSA == nil && errCA == nil
	}, 2*time.Minute, 100*time.Millisecond, "the serviceaccount and root-ca-cert-publisher controllers fill a new namespace")

	kubectl("-n", "newcomer", "create", "configmap", "settings", "--from-literal=a=b")
	kubectl("delete", "namespace", "newcomer", "--wait", "--timeout=30s")
	out, err := s.kubectl("1.33", "get", "namespace", "newcomer")
	require.Error(t, err, "the namespace controller emptied and removed the namespace")
	assert.Contains(t, out, `namespaces "newcomer" not found`)

	require.NoError(t, s.stop(t), "a SIGTERM ends the server cleanly")
	ln, err := net.Listen("tcp", s.addr)
	require.NoError(t, err, "the port is free once the server has stopped")
	require.NoError(t, ln.Close())
}
