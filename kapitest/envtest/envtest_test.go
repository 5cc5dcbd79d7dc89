package envtest_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/kapitest"
	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// withoutLine drops the lines of s that contain substr.
func withoutLine(s, substr string) (string, int) {
	var keep []string
	dropped := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, substr) {
			dropped++
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n"), dropped
}

// originalSuite is a suite written for controller-runtime's envtest, kept
// in testdata as it was, and its copy in a package here with only the
// envtest import changed.
type originalSuite struct {
	name     string
	original string // testdata/…, the suite as written for envtest
	copy     string // the suite in this module, running on kapi
	// others are the files of the copy's package the suite needs
	// besides itself (its webhook code, its specs).
	others []string
}

var originalSuites = []originalSuite{
	{name: "controller", original: "testdata/suite_test.go.envtest", copy: "suite_test.go"},
	{name: "webhook", original: "testdata/webhook_suite_test.go.envtest", copy: "internal/webhook/v1/webhook_suite_test.go",
		others: []string{"internal/webhook/v1/widget_webhook.go", "internal/webhook/v1/widget_webhook_test.go"}},
}

func TestTheSuitesDifferFromEnvtestsOnlyInTheirImport(t *testing.T) {
	for _, s := range originalSuites {
		t.Run(s.name, func(t *testing.T) {
			ours, err := os.ReadFile(s.copy)
			require.NoError(t, err)
			original, err := os.ReadFile(s.original)
			require.NoError(t, err)
			a, n := withoutLine(string(ours), `"github.com/kapi-dev/kapi/kapitest/envtest"`)
			require.Equal(t, 1, n)
			b, m := withoutLine(string(original), `"sigs.k8s.io/controller-runtime/pkg/envtest"`)
			require.Equal(t, 1, m)
			assert.Equal(t, b, a)
		})
	}
}

func TestStartInstallsTypedCRDsAndPathsAndReportsThem(t *testing.T) {
	raw, err := os.ReadFile("../testdata/crds/widgets.yaml")
	require.NoError(t, err)
	gadgets := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, yaml.Unmarshal([]byte(strings.NewReplacer("widget", "gadget", "Widget", "Gadget").Replace(string(raw))), gadgets))

	env := &envtest.Environment{
		CRDs:                     []*apiextensionsv1.CustomResourceDefinition{gadgets},
		CRDInstallOptions:        envtest.CRDInstallOptions{Paths: []string{"../testdata/crds"}},
		CRDDirectoryPaths:        []string{"no/such/dir"}, // skipped: ErrorIfCRDPathMissing is false
		ControlPlaneStartTimeout: time.Minute,
		AttachControlPlaneOutput: true,
	}
	env.ControlPlane.GetAPIServer().Configure().Set("feature-gates", "WatchList=true") // at its 1.37 default: accepted
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, env.Stop()) })

	names := []string{}
	for _, c := range env.CRDs {
		names = append(names, c.Name)
	}
	assert.ElementsMatch(t, []string{"gadgets.example.kapi.dev", "widgets.example.kapi.dev"}, names)
	dyn := dynamic.NewForConfigOrDie(cfg)
	for _, r := range []string{"widgets", "gadgets"} {
		_, err := dyn.Resource(schema.GroupVersionResource{Group: "example.kapi.dev", Version: "v1", Resource: r}).
			Namespace("default").List(t.Context(), metav1.ListOptions{})
		require.NoError(t, err, r)
	}

	kc, err := clientcmd.RESTConfigFromKubeConfig(env.KubeConfig)
	require.NoError(t, err)
	_, err = kubernetes.NewForConfigOrDie(kc).CoreV1().Namespaces().Get(t.Context(), "default", metav1.GetOptions{})
	require.NoError(t, err, "the kubeconfig reaches the server over loopback as the administrator")
}

func TestAMissingCRDPathFailsStartWhenAskedTo(t *testing.T) {
	env := &envtest.Environment{CRDDirectoryPaths: []string{"no/such/dir"}, ErrorIfCRDPathMissing: true}
	_, err := env.Start()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no/such/dir")
	require.NoError(t, env.Stop())
}

func TestAddUserGivesAConfigAndAKubeconfigForThatUser(t *testing.T) {
	env := &envtest.Environment{}
	_, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })

	u, err := env.ControlPlane.AddUser(envtest.User{Name: "carol", Groups: []string{"system:masters"}}, &rest.Config{QPS: 50, Burst: 100})
	require.NoError(t, err)
	assert.EqualValues(t, 50, u.Config().QPS, "the base config's settings are kept")
	who, err := kubernetes.NewForConfigOrDie(u.Config()).AuthenticationV1().SelfSubjectReviews().
		Create(t.Context(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "carol", who.Status.UserInfo.Username)

	kubeconfig, err := u.KubeConfig()
	require.NoError(t, err)
	kc, err := clientcmd.RESTConfigFromKubeConfig(kubeconfig)
	require.NoError(t, err)
	who, err = kubernetes.NewForConfigOrDie(kc).AuthenticationV1().SelfSubjectReviews().
		Create(t.Context(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "carol", who.Status.UserInfo.Username)
}

func TestTheServerBehindTheEnvironmentInjectsFaults(t *testing.T) {
	env := &envtest.Environment{}
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })
	env.Server.Faults.Inject(kapitest.Fault{Verb: "get", Resource: "namespaces", Err: apierrors.NewServiceUnavailable("maintenance")})
	_, err = kubernetes.NewForConfigOrDie(cfg).CoreV1().Namespaces().Get(t.Context(), "default", metav1.GetOptions{})
	assert.True(t, apierrors.IsServiceUnavailable(err), "%v", err)
}

// TestTheOriginalSuitesPassOnEnvtest runs the suites' envtest originals on
// controller-runtime's envtest, with etcd and kube-apiserver, where their
// binaries are (KUBEBUILDER_ASSETS): the specs kapi passes are the specs
// a real API server passes. Skipped elsewhere (CI has no binaries).
func TestTheOriginalSuitesPassOnEnvtest(t *testing.T) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if _, err := os.Stat(filepath.Join(assets, "kube-apiserver")); assets == "" || err != nil {
		t.Skip("no envtest binaries: set KUBEBUILDER_ASSETS to a directory with etcd and kube-apiserver")
	}
	for _, s := range originalSuites {
		t.Run(s.name, func(t *testing.T) {
			// A package beside the copy's, so that the suite's relative
			// paths (../testdata/crds) name the same directories.
			pkg, err := filepath.Abs(filepath.Dir(s.copy))
			require.NoError(t, err)
			dir, err := os.MkdirTemp(filepath.Dir(pkg), "envtest-original-")
			require.NoError(t, err)
			t.Cleanup(func() { _ = os.RemoveAll(dir) })
			for _, f := range append([]string{s.original}, s.others...) {
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				name := filepath.Base(f)
				if f == s.original {
					name = filepath.Base(s.copy)
				}
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), src, 0o600))
			}
			// Building and running the copy is as long as the machine is busy:
			// it has what is left of this test binary's -timeout.
			ctx := t.Context()
			if deadline, ok := t.Deadline(); ok {
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, deadline)
				defer cancel()
			}
			cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "./"+filepath.Base(dir)+"/")
			cmd.Dir = filepath.Dir(dir)
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
		})
	}
}

func TestAUsersKubectlActsAsThatUserAndStopRemovesItsKubeconfig(t *testing.T) {
	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("no kubectl on PATH")
	}
	env := &envtest.Environment{}
	_, err := env.Start()
	require.NoError(t, err)
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = env.Stop()
		}
	})
	u, err := env.AddUser(envtest.User{Name: "dave", Groups: []string{"qa"}}, nil)
	require.NoError(t, err)
	k, err := u.Kubectl()
	require.NoError(t, err)

	// dave has no role: RBAC names him in its refusal.
	_, stderr, err := k.Run("get", "configmaps", "-n", "default")
	require.Error(t, err)
	assert.Contains(t, readAll(t, stderr), `User "dave" cannot list resource "configmaps" in API group "" in the namespace "default"`)

	require.Len(t, k.Opts, 1)
	kubeconfig := strings.TrimPrefix(k.Opts[0], "--kubeconfig=")
	require.FileExists(t, kubeconfig)
	require.NoError(t, env.Stop())
	stopped = true
	assert.NoFileExists(t, kubeconfig)
}

func TestTheControlPlanesDeprecatedAccessorsReachTheServer(t *testing.T) {
	env := &envtest.Environment{}
	_, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })

	assert.Equal(t, "127.0.0.1", env.ControlPlane.APIURL().Hostname())
	cfg, err := env.ControlPlane.RESTClientConfig()
	require.NoError(t, err)
	_, err = kubernetes.NewForConfigOrDie(cfg).CoreV1().Namespaces().Get(t.Context(), "default", metav1.GetOptions{})
	require.NoError(t, err)

	if _, err := exec.LookPath("kubectl"); err != nil {
		t.Skip("no kubectl on PATH")
	}
	stdout, stderr, err := env.ControlPlane.KubeCtl().Run("get", "namespace", "default", "-o", "name")
	require.NoError(t, err, "%s", readAll(t, stderr))
	assert.Equal(t, "namespace/default\n", readAll(t, stdout))
}

func readAll(t *testing.T, r io.Reader) string {
	t.Helper()
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return string(b)
}
