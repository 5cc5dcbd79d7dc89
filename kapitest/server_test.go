package kapitest_test

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/kapitest"
	"github.com/kapi-dev/kapi/store/memory"
)

//go:embed testdata/crds
var crdFS embed.FS

var widgets = schema.GroupVersionResource{Group: "example.kapi.dev", Version: "v1", Resource: "widgets"}

func TestCRDsComeFromFilesDirectoriesEmbeddedFilesAndObjects(t *testing.T) {
	raw := mustRead(t, "testdata/crds/widgets.yaml")
	typed := &apiextensionsv1.CustomResourceDefinition{}
	require.NoError(t, yaml.Unmarshal(raw, typed))
	typed.APIVersion, typed.Kind = "", "" // as Go code builds them
	var asMap map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &asMap))
	for name, opt := range map[string]kapitest.Option{
		"a directory":         kapitest.WithCRDPaths("testdata/crds"),
		"a file":              kapitest.WithCRDPaths("testdata/crds/widgets.yaml"),
		"an embed.FS":         kapitest.WithCRDFS(crdFS, "testdata/crds"),
		"a typed object":      kapitest.WithCRDs(typed),
		"YAML in a []byte":    kapitest.WithCRDs(raw),
		"an unstructured map": kapitest.WithCRDs(asMap),
	} {
		t.Run(name, func(t *testing.T) {
			srv := kapitest.Start(t, opt)
			dyn := dynamic.NewForConfigOrDie(srv.Config)
			_, err := dyn.Resource(widgets).Namespace("default").List(t.Context(), metav1.ListOptions{})
			require.NoError(t, err)
		})
	}
}

func TestAMissingCRDPathFailsStart(t *testing.T) {
	ft := &fakeT{TB: t}
	func() {
		defer func() { _ = recover() }()
		kapitest.Start(ft, kapitest.WithCRDPaths("testdata/no-such-dir"))
	}()
	assert.True(t, ft.failed)
	assert.Contains(t, ft.msg, "no-such-dir")
}

// fakeT records a fatal failure instead of ending the test.
type fakeT struct {
	testing.TB
	failed bool
	msg    string
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.failed = true
	f.msg = strings.TrimSpace(sprintf(format, args...))
	panic("fatal")
}

func TestSeededObjectsExistAtStart(t *testing.T) {
	srv := kapitest.Start(t,
		kapitest.WithCRDPaths("testdata/crds"),
		kapitest.WithObjects(
			&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}},
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings", Namespace: "team-a"}, Data: map[string]string{"a": "1"}},
			"apiVersion: example.kapi.dev/v1\nkind: Widget\nmetadata: {name: w, namespace: team-a}\nspec: {size: 3}\n",
		))
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	cm, err := cs.CoreV1().ConfigMaps("team-a").Get(t.Context(), "settings", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "1", cm.Data["a"])
	_, err = dynamic.NewForConfigOrDie(srv.Config).Resource(widgets).Namespace("team-a").Get(t.Context(), "w", metav1.GetOptions{})
	require.NoError(t, err)
	for _, r := range srv.Requests() {
		assert.False(t, r.IsWrite(), "seeding is not recorded: %+v", r)
	}
}

func TestTheClockStampsWhatTheServerWrites(t *testing.T) {
	srv := kapitest.Start(t)
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	srv.Clock.Set(at)
	srv.Clock.Freeze()
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	cm := createConfigMap(t, cs, "stamped")
	assert.True(t, cm.CreationTimestamp.Time.Equal(at), "%v", cm.CreationTimestamp)
	assert.True(t, cm.ManagedFields[0].Time.Time.Equal(at))

	srv.Clock.Advance(time.Hour)
	ns, err := cs.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "later"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.True(t, ns.CreationTimestamp.Time.Equal(at.Add(time.Hour)))
}

func TestAdvancingTheClockExpiresAServiceAccountToken(t *testing.T) {
	srv := kapitest.Start(t)
	admin := kubernetes.NewForConfigOrDie(srv.Config)
	_, err := admin.CoreV1().ServiceAccounts("default").Create(t.Context(), &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	tr, err := admin.CoreV1().ServiceAccounts("default").CreateToken(t.Context(), "robot", &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)}}, metav1.CreateOptions{})
	require.NoError(t, err)

	robotConfig := rest.CopyConfig(srv.Config)
	robotConfig.BearerToken = tr.Status.Token
	robot := kubernetes.NewForConfigOrDie(robotConfig)
	who, err := robot.AuthenticationV1().SelfSubjectReviews().Create(t.Context(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "system:serviceaccount:default:robot", who.Status.UserInfo.Username)

	srv.Clock.Advance(61 * time.Minute)
	_, err = robot.AuthenticationV1().SelfSubjectReviews().Create(t.Context(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsUnauthorized(err), "an expired token: %v", err)
}

func TestAsUserActsAsThatUserUnderRBAC(t *testing.T) {
	srv := kapitest.Start(t, kapitest.AsUser("alice", "developers"))
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	_, err := cs.CoreV1().Secrets("default").List(t.Context(), metav1.ListOptions{})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.Contains(t, err.Error(), `User "alice" cannot list resource "secrets" in API group "" in the namespace "default"`)

	admin := kubernetes.NewForConfigOrDie(srv.AdminConfig())
	_, err = admin.RbacV1().RoleBindings("default").Create(t.Context(), &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "developers-view"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "admin"},
		Subjects:   []rbacv1.Subject{{Kind: "Group", APIGroup: "rbac.authorization.k8s.io", Name: "developers"}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.CoreV1().Secrets("default").List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err, "allowed once bound")
	_, err = cs.CoreV1().Secrets("kube-system").List(t.Context(), metav1.ListOptions{})
	assert.True(t, apierrors.IsForbidden(err), "only in its namespace: %v", err)
}

func TestConfigForAuthenticatesAnotherUser(t *testing.T) {
	srv := kapitest.Start(t)
	bob := kubernetes.NewForConfigOrDie(srv.ConfigFor("bob", "qa"))
	who, err := bob.AuthenticationV1().SelfSubjectReviews().Create(t.Context(), &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "bob", who.Status.UserInfo.Username)
	assert.ElementsMatch(t, []string{"qa", "system:authenticated"}, who.Status.UserInfo.Groups)
}

func TestTheKubeconfigReachesTheServerOverLoopback(t *testing.T) {
	srv := kapitest.Start(t)
	createConfigMap(t, kubernetes.NewForConfigOrDie(srv.Config), "seen-by-kubectl")
	cfg, err := clientcmd.BuildConfigFromFlags("", srv.Kubeconfig())
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(cfg.Host, "https://127.0.0.1:"), cfg.Host)
	_, err = kubernetes.NewForConfigOrDie(cfg).CoreV1().ConfigMaps("default").Get(t.Context(), "seen-by-kubectl", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, filepath.Base(srv.Kubeconfig()), "kubeconfig")

	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("no kubectl on PATH")
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, kubectl, "--kubeconfig", srv.Kubeconfig(), "get", "configmap", "seen-by-kubectl", "-o", "name").CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, "configmap/seen-by-kubectl\n", string(out))
}

func TestRequestsAreRecordedWithVerbResourceUserAgentAndFieldManager(t *testing.T) {
	srv := kapitest.Start(t)
	cfg := rest.CopyConfig(srv.Config)
	cfg.UserAgent = "my-controller/1.0"
	cs := kubernetes.NewForConfigOrDie(cfg)
	_, err := cs.CoreV1().ConfigMaps("default").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "r"}},
		metav1.CreateOptions{FieldManager: "my-manager"})
	require.NoError(t, err)
	_, err = cs.CoreV1().ConfigMaps("default").Get(t.Context(), "missing", metav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err))

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "create", reqs[0].Verb)
	assert.Equal(t, "configmaps", reqs[0].Resource)
	assert.Equal(t, "default", reqs[0].Namespace)
	assert.Equal(t, "my-manager", reqs[0].FieldManager)
	assert.Equal(t, "my-controller/1.0", reqs[0].UserAgent)
	assert.Equal(t, 201, reqs[0].Code)
	assert.True(t, reqs[0].IsWrite())
	assert.Positive(t, reqs[0].Latency)
	assert.Equal(t, "get", reqs[1].Verb)
	assert.Equal(t, "missing", reqs[1].Name)
	assert.Equal(t, 404, reqs[1].Code)
	assert.False(t, reqs[1].IsWrite())

	srv.ResetRequests()
	assert.Empty(t, srv.Requests())
}

func TestAWatchThroughTheInProcessTransportEndsWhenTheClientStops(t *testing.T) {
	srv := kapitest.Start(t)
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	w, err := cs.CoreV1().ConfigMaps("default").Watch(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, time.Millisecond)
	createConfigMap(t, cs, "watched")
	ev := <-w.ResultChan()
	assert.Equal(t, "watched", ev.Object.(*corev1.ConfigMap).Name)
	w.Stop()
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 0 }, time.Minute, time.Millisecond,
		"the handler saw the client go")
}

func TestAHundredParallelServersAreIndependent(t *testing.T) {
	start := time.Now()
	t.Cleanup(func() { t.Logf("100 servers started and used in parallel in %v", time.Since(start)) })
	for i := range 100 {
		t.Run(sprintf("server-%d", i), func(t *testing.T) {
			t.Parallel()
			srv := kapitest.Start(t, kapitest.WithCRDPaths("testdata/crds"))
			cs := kubernetes.NewForConfigOrDie(srv.Config)
			createConfigMap(t, cs, "same-name")
			list, err := cs.CoreV1().ConfigMaps("default").List(t.Context(), metav1.ListOptions{})
			require.NoError(t, err)
			assert.Len(t, list.Items, 1)
		})
	}
}

var sprintf = fmt.Sprintf

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func TestServersOnOneStoreShareTheirObjects(t *testing.T) {
	shared := memory.New(memory.Config{})
	a := kapitest.Start(t, kapitest.WithStore(shared), kapitest.WithCRDPaths("testdata/crds"))
	b := kapitest.Start(t, kapitest.WithStore(shared), kapitest.WithCRDPaths("testdata/crds"))
	createConfigMap(t, kubernetes.NewForConfigOrDie(a.Config), "written-by-a")
	_, err := kubernetes.NewForConfigOrDie(b.Config).CoreV1().ConfigMaps("default").Get(t.Context(), "written-by-a", metav1.GetOptions{})
	require.NoError(t, err)
	_, err = dynamic.NewForConfigOrDie(b.Config).Resource(widgets).Namespace("default").List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err, "the second server serves the CRD the first installed")
}

func TestACRDInstalledThroughOneServerIsServedByAnotherOnTheSameStore(t *testing.T) {
	shared := memory.New(memory.Config{})
	a := kapitest.Start(t, kapitest.WithStore(shared))
	b := kapitest.Start(t, kapitest.WithStore(shared))
	crd := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal(mustRead(t, "testdata/crds/widgets.yaml"), &crd.Object))
	_, err := dynamic.NewForConfigOrDie(a.Config).Resource(schema.GroupVersionResource{
		Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).
		Create(t.Context(), crd, metav1.CreateOptions{})
	require.NoError(t, err)

	require.EventuallyWithT(t, func(c *assert.CollectT) {
		_, err := dynamic.NewForConfigOrDie(b.Config).Resource(widgets).Namespace("default").List(t.Context(), metav1.ListOptions{})
		assert.NoError(c, err)
	}, time.Minute, 5*time.Millisecond, "the second server serves the CRD the first created")
}

func TestACRDWithArraysMapsAndDefaultsIsServedAsWritten(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithCRDPaths("testdata/crds"), kapitest.WithObjects(
		"apiVersion: example.kapi.dev/v1\nkind: Widget\nmetadata: {name: full, namespace: default}\n"+
			"spec: {size: 1, tags: [a, b], labels: {team: blue}, parts: [{name: wheel}]}\n"))
	crd, err := dynamic.NewForConfigOrDie(srv.Config).Resource(schema.GroupVersionResource{
		Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}).Get(t.Context(), "widgets.example.kapi.dev", metav1.GetOptions{})
	require.NoError(t, err)
	spec := crd.Object["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
	assert.Equal(t, map[string]any{"type": "string"}, spec["tags"].(map[string]any)["items"])
	assert.Equal(t, map[string]any{"type": "string"}, spec["labels"].(map[string]any)["additionalProperties"])
	assert.Equal(t, "grey", spec["color"].(map[string]any)["default"])

	w, err := dynamic.NewForConfigOrDie(srv.Config).Resource(widgets).Namespace("default").Get(t.Context(), "full", metav1.GetOptions{})
	require.NoError(t, err)
	ws := w.Object["spec"].(map[string]any)
	assert.Equal(t, []any{"a", "b"}, ws["tags"])
	assert.Equal(t, map[string]any{"team": "blue"}, ws["labels"])
	assert.Equal(t, "grey", ws["color"], "the schema's default")
	assert.EqualValues(t, 1, ws["parts"].([]any)[0].(map[string]any)["count"], "a default inside a list item")
}

func TestTheRecordKeepsEveryRequestInTheOrderAnswered(t *testing.T) {
	srv := kapitest.Start(t)
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	srv.ResetRequests()
	const n = 1200 // more than one chunk of the record
	for i := range n {
		_, err := cs.CoreV1().ConfigMaps("default").Get(t.Context(), fmt.Sprintf("cm-%d", i), metav1.GetOptions{})
		require.True(t, apierrors.IsNotFound(err), "%v", err)
	}
	reqs := srv.Requests()
	require.Len(t, reqs, n)
	for i, r := range reqs {
		require.Equal(t, fmt.Sprintf("cm-%d", i), r.Name)
		require.Equal(t, 404, r.Code)
	}
	srv.ResetRequests()
	assert.Empty(t, srv.Requests())
}
