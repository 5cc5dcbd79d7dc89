package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// kubectlRunner runs kubectl against one cluster on behalf of one test (or
// subtest): failures are reported on that test, so it is safe to use from
// parallel subtests, unlike the cluster's own helpers which report on the
// test that started the cluster. Runs share one discovery cache.
type kubectlRunner struct {
	t       *testing.T
	c       *cluster
	version string
	env     []string
	stdin   string
	cache   string
	home    string
}

// kubectlFor returns a runner for kubectl version against c.
func kubectlFor(t *testing.T, c *cluster, version string) *kubectlRunner {
	t.Helper()
	return &kubectlRunner{t: t, c: c, version: version, cache: filepath.Join(t.TempDir(), "cache"), home: t.TempDir()}
}

// withEnv returns a copy of the runner that adds environment variables.
func (k *kubectlRunner) withEnv(env ...string) *kubectlRunner {
	cp := *k
	cp.env = append(append([]string(nil), k.env...), env...)
	return &cp
}

// withStdin returns a copy of the runner that feeds stdin to kubectl.
func (k *kubectlRunner) withStdin(stdin string) *kubectlRunner {
	cp := *k
	cp.stdin = stdin
	return &cp
}

// forTest returns a copy of the runner reporting on t.
func (k *kubectlRunner) forTest(t *testing.T) *kubectlRunner {
	cp := *k
	cp.t = t
	return &cp
}

// run runs kubectl and returns its stdout, stderr and error.
func (k *kubectlRunner) run(args ...string) (stdout, stderr string, err error) {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a bound for a hung kubectl only
	defer cancel()
	cmd := exec.CommandContext(ctx, kubectlBinary(k.t, k.version), append([]string{"--kubeconfig", k.c.kubeconfig}, args...)...)
	cmd.Env = append(append(os.Environ(), "KUBECACHEDIR="+k.cache, "HOME="+k.home), k.env...)
	if k.stdin != "" {
		cmd.Stdin = strings.NewReader(k.stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// combined runs kubectl and returns stdout and stderr together.
func (k *kubectlRunner) combined(args ...string) (string, error) {
	k.t.Helper()
	out, errOut, err := k.run(args...)
	return out + errOut, err
}

// must runs kubectl, fails the test on error and returns stdout.
func (k *kubectlRunner) must(args ...string) string {
	k.t.Helper()
	out, errOut, err := k.run(args...)
	require.NoError(k.t, err, "kubectl %s\nstdout: %s\nstderr: %s", strings.Join(args, " "), out, errOut)
	return out
}

// clientsetFor is a typed clientset for c speaking contentType, without
// client-side rate limiting, reporting on t.
func clientsetFor(t *testing.T, c *cluster, contentType string) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(restConfigFor(t, c, contentType))
	require.NoError(t, err)
	return cs
}

// clientsetWithConfig is a typed clientset for cfg, reporting on t.
func clientsetWithConfig(t *testing.T, cfg *rest.Config) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	return cs
}

// restConfigFor is c's rest config speaking contentType, without client-side
// rate limiting.
func restConfigFor(t *testing.T, c *cluster, contentType string) *rest.Config {
	t.Helper()
	cfg := c.restConfig()
	cfg.ContentType = contentType
	cfg.QPS, cfg.Burst = -1, 0
	return cfg
}

// warningRecorder is a rest.WarningHandler that keeps every warning.
type warningRecorder struct {
	mu       sync.Mutex
	warnings []string
}

func (w *warningRecorder) HandleWarningHeader(_ int, _ string, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.warnings = append(w.warnings, text)
}

func (w *warningRecorder) reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.warnings = nil
}

func (w *warningRecorder) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.warnings...)
}

// twoContainerDeployment is a Deployment with containers a (nginx:1) and b
// (busybox:1, env X=1), like the one of docs/kube-behaviour/04-writes.md.
func twoContainerDeployment(name string) *appsv1.Deployment {
	replicas := int32(1)
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{
					{Name: "a", Image: "nginx:1"},
					{Name: "b", Image: "busybox:1", Env: []corev1.EnvVar{{Name: "X", Value: "1"}}},
				}},
			},
		},
	}
}

// twoContainerDeploymentYAML is twoContainerDeployment as a manifest, with
// extra lines inserted after container a's image (indented for a
// container field) and the replicas value given.
func twoContainerDeploymentYAML(name, replicas, extraContainerField string) string {
	extra := ""
	if extraContainerField != "" {
		extra = "        " + extraContainerField + "\n"
	}
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ` + name + `
  labels:
    app: ` + name + `
spec:
  replicas: ` + replicas + `
  selector:
    matchLabels:
      app: ` + name + `
  template:
    metadata:
      labels:
        app: ` + name + `
    spec:
      containers:
      - name: a
        image: nginx:1
` + extra + `      - name: b
        image: busybox:1
        env:
        - name: X
          value: "1"
`
}

// assertSemanticEqual asserts equality.Semantic.DeepEqual(want, got), the
// equality Kubernetes itself uses for objects (times compared as instants,
// quantities by value), ignoring nothing.
func assertSemanticEqual(t *testing.T, want, got any, msgAndArgs ...any) bool {
	t.Helper()
	if equality.Semantic.DeepEqual(want, got) {
		return true
	}
	return assert.Fail(t, "objects differ (-want +got):\n"+diff.Diff(want, got), msgAndArgs...)
}
