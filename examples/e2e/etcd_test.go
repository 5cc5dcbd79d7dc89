package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/kapi-dev/kapi/kapitest/kubeproto"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// startOnEtcd starts the example server over the etcd at endpoints, as
// `server -etcd-servers=...` does: following the CRDs other servers write.
func startOnEtcd(t *testing.T, endpoints []string) (*cluster, *etcd.Store) {
	t.Helper()
	return startOnEtcdThen(t, endpoints, nil)
}

// startOnEtcdThen is startOnEtcd calling then with the server before it
// serves (to start controllers beside it).
func startOnEtcdThen(t *testing.T, endpoints []string, then func(*apiserver.Server)) (*cluster, *etcd.Store) {
	t.Helper()
	st, err := etcd.Open(t.Context(), endpoints, etcd.Config{Codec: etcd.Kube{Protobuf: protobuf.New(kubeproto.Resolver())}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	cfg := kapiserver.Config()
	cfg.Store = st
	cfg.HealthChecks = []apiserver.HealthCheck{{Name: "etcd", Check: st.Healthy}, {Name: "etcd-readiness", Check: st.Healthy, ReadyzOnly: true}}
	srv, err := apiserver.New(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	following := make(chan struct{})
	go func() { defer close(following); srv.FollowCRDs(ctx) }()
	t.Cleanup(func() { cancel(); <-following })
	if then != nil {
		then(srv)
	}
	return serveCluster(t, srv), st
}

func TestACRDDefinedThroughOneServerOnEtcdIsServedByTheOther(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	a, _ := startOnEtcd(t, etcdCluster.Endpoints())
	b, _ := startOnEtcd(t, etcdCluster.Endpoints())
	ka, kb := kubectlFor(t, a, "1.33"), kubectlFor(t, b, "1.33")

	ka.withStdin(widgetCRD).must("apply", "-f", "-")
	require.Eventually(t, func() bool {
		_, _, err := kb.run("get", "widgets")
		return err == nil
	}, 2*time.Minute, 20*time.Millisecond, "b serves the type a defined")
	kb.withStdin(widget("w1", "  size: 2\n")).must("apply", "-f", "-")
	assert.Equal(t, "blue", ka.must("get", "widget", "w1", "-o", "jsonpath={.spec.color}"),
		"b created it with the CRD's defaults, a reads it")

	ka.must("delete", "crd", "widgets.example.com")
	require.Eventually(t, func() bool {
		_, _, err := kb.run("get", "widgets")
		return err != nil
	}, 2*time.Minute, 20*time.Millisecond, "the type goes from b when a deletes its CRD")
}

func TestTwoServersOnOneEtcdServeEachOthersObjects(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	a, _ := startOnEtcd(t, etcdCluster.Endpoints())
	b, _ := startOnEtcd(t, etcdCluster.Endpoints())
	ca, cb := clientset(t, a.restConfig()), clientset(t, b.restConfig())
	ctx := t.Context()

	created, err := ca.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "shared"}, Data: map[string]string{"k": "1"},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	list, err := cb.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.Equal(t, created.UID, list.Items[0].UID)
	assert.Equal(t, created.ResourceVersion, list.Items[0].ResourceVersion)

	w, err := cb.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	defer w.Stop()

	got, err := ca.CoreV1().ConfigMaps("default").Get(ctx, "shared", metav1.GetOptions{})
	require.NoError(t, err)
	got.Data["k"] = "2"
	updated, err := ca.CoreV1().ConfigMaps("default").Update(ctx, got, metav1.UpdateOptions{})
	require.NoError(t, err)

	select {
	case ev := <-w.ResultChan():
		require.Equal(t, watch.Modified, ev.Type)
		cm := ev.Object.(*corev1.ConfigMap)
		assert.Equal(t, updated.ResourceVersion, cm.ResourceVersion)
		assert.Equal(t, "2", cm.Data["k"])
	case <-time.After(2 * time.Minute):
		t.Fatal("the watch through b never saw the update through a")
	}

	// An update through b with a's stale resourceVersion is a conflict.
	got.Data["k"] = "3"
	_, err = cb.CoreV1().ConfigMaps("default").Update(ctx, got, metav1.UpdateOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the object has been modified")

	fresh, err := cb.CoreV1().ConfigMaps("default").Get(ctx, "shared", metav1.GetOptions{})
	require.NoError(t, err)
	fresh.Data["k"] = "3"
	_, err = cb.CoreV1().ConfigMaps("default").Update(ctx, fresh, metav1.UpdateOptions{})
	require.NoError(t, err)
	again, err := ca.CoreV1().ConfigMaps("default").Get(ctx, "shared", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "3", again.Data["k"])
}

// A GET at a resourceVersion and a create's namespace lookup read a
// server's cache (as kube's watch cache and NamespaceLifecycle's informer
// serve them); neither misses what the other server just wrote.
func TestCachedReadsOnEtcdSeeWhatTheOtherServerJustWrote(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	a, _ := startOnEtcd(t, etcdCluster.Endpoints())
	b, _ := startOnEtcd(t, etcdCluster.Endpoints())
	ca, cb := clientset(t, a.restConfig()), clientset(t, b.restConfig())
	ctx := t.Context()

	for i := range 20 {
		ns := fmt.Sprintf("fresh-%d", i)
		_, err := ca.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		require.NoError(t, err)
		_, err = cb.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}, metav1.CreateOptions{})
		require.NoError(t, err, "b creates in the namespace a just created")

		updated, err := cb.CoreV1().ConfigMaps(ns).Update(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"},
			Data: map[string]string{"k": "v"}}, metav1.UpdateOptions{})
		require.NoError(t, err)
		got, err := ca.CoreV1().ConfigMaps(ns).Get(ctx, "cm", metav1.GetOptions{ResourceVersion: updated.ResourceVersion})
		require.NoError(t, err)
		assert.Equal(t, "v", got.Data["k"], "a GET at the update's resourceVersion through a is not older than it")
	}

	cached, err := ca.CoreV1().ConfigMaps("fresh-0").Get(ctx, "cm", metav1.GetOptions{ResourceVersion: "0"})
	require.NoError(t, err)
	assert.Equal(t, "cm", cached.Name)
	_, err = ca.CoreV1().ConfigMaps("fresh-0").Get(ctx, "absent", metav1.GetOptions{ResourceVersion: "0"})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
	_, err = cb.CoreV1().ConfigMaps("never-made").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"}}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
}

func TestARestartedServerOnEtcdKeepsObjectsAndResumesWatches(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	first, st := startOnEtcd(t, etcdCluster.Endpoints())
	ctx := t.Context()
	c1 := clientset(t, first.restConfig())
	var rvs []string
	for _, name := range []string{"a", "b", "c"} {
		cm, err := c1.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		require.NoError(t, err)
		rvs = append(rvs, cm.ResourceVersion)
	}
	require.NoError(t, st.Close())

	second, _ := startOnEtcd(t, etcdCluster.Endpoints())
	c2 := clientset(t, second.restConfig())
	list, err := c2.CoreV1().ConfigMaps("default").List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	var got []string
	for _, cm := range list.Items {
		got = append(got, cm.ResourceVersion)
	}
	assert.Equal(t, rvs, got)

	// An informer that saw only the first create reconnects from its
	// resourceVersion: the others come as events, not as a 410.
	w, err := c2.CoreV1().ConfigMaps("default").Watch(ctx, metav1.ListOptions{ResourceVersion: rvs[0]})
	require.NoError(t, err)
	defer w.Stop()
	for _, want := range rvs[1:] {
		select {
		case ev := <-w.ResultChan():
			require.Equal(t, watch.Added, ev.Type, "%v", ev.Object)
			assert.Equal(t, want, ev.Object.(*corev1.ConfigMap).ResourceVersion)
		case <-time.After(2 * time.Minute):
			t.Fatal("no event after the restart")
		}
	}
}

func TestReadyzAndLivezReportEtcdsHealth(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	srv, _ := startOnEtcd(t, etcdCluster.Endpoints())
	get := func(path string) (int, string) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.url+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	code, body := get("/readyz")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok", body)
	code, body = get("/livez?verbose")
	assert.Equal(t, http.StatusOK, code)
	// kube 1.37 lists the loopback certificate after log (1.33: etcd).
	assert.True(t, strings.HasPrefix(body, "[+]ping ok\n[+]log ok\n[+]loopback-serving-certificate ok\n[+]etcd ok\n"), body)
	assert.True(t, strings.HasSuffix(body, "livez check passed\n"), body)

	etcdCluster.Stop()
	for _, path := range []string{"/readyz", "/livez"} {
		code, body = get(path)
		assert.Equal(t, http.StatusInternalServerError, code, path)
		assert.Contains(t, body, "[-]etcd failed: reason withheld\n", path)
	}
	code, body = get("/readyz?verbose")
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.True(t, strings.HasPrefix(body, "[+]ping ok\n[+]log ok\n[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]informer-sync ok\n"), body)
	assert.True(t, strings.HasSuffix(body, "readyz check failed\n"), body)
	code, body = get("/livez/etcd")
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.Equal(t, "internal server error: error getting data from etcd: context deadline exceeded\n", body)
	code, _ = get("/livez/ping")
	assert.Equal(t, http.StatusOK, code)
}
