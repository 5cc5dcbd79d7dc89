package kapitest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"

	"github.com/kapi-dev/kapi/kapitest"
)

// protobufClient is a typed clientset speaking protobuf, as
// controller-runtime and most controllers do.
func protobufClient(t *testing.T, cfg *rest.Config) kubernetes.Interface {
	t.Helper()
	c := rest.CopyConfig(cfg)
	c.ContentType = "application/vnd.kubernetes.protobuf"
	c.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	cs, err := kubernetes.NewForConfig(c)
	require.NoError(t, err)
	return cs
}

func createConfigMap(t *testing.T, cs kubernetes.Interface, name string) *corev1.ConfigMap {
	t.Helper()
	cm, err := cs.CoreV1().ConfigMaps("default").Create(t.Context(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	return cm
}

// count counts the recorded requests of a verb on configmaps ("relist":
// initial lists, whether lists or watches with initial events).
func count(srv *kapitest.Server, verb string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Resource == "configmaps" && (r.Verb == verb || verb == "relist" && r.IsInitialList()) {
			n++
		}
	}
	return n
}

// configMapInformer starts an informer on the default namespace's
// ConfigMaps and waits for its first list.
func configMapInformer(t *testing.T, cs kubernetes.Interface) cache.SharedIndexInformer {
	t.Helper()
	f := informers.NewSharedInformerFactoryWithOptions(cs, 0, informers.WithNamespace("default"))
	inf := f.Core().V1().ConfigMaps().Informer()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() {
		cancel()
		f.Shutdown()
	})
	f.Start(ctx.Done())
	require.True(t, cache.WaitForCacheSync(ctx.Done(), inf.HasSynced))
	return inf
}

func hasKey(inf cache.SharedIndexInformer, key string) func() bool {
	return func() bool {
		_, ok, _ := inf.GetStore().GetByKey(key)
		return ok
	}
}

func TestAnInformerRelistsAfterAForcedCompaction(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	createConfigMap(t, cs, "before")
	inf := configMapInformer(t, cs)
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, 5*time.Millisecond)

	srv.Faults.Compact()
	createConfigMap(t, cs, "after")
	require.Eventually(t, hasKey(inf, "default/after"), 10*time.Second, 10*time.Millisecond)
	// The first watch is recorded when it ends: with the relist after it,
	// two initial lists.
	require.Eventually(t, func() bool { return count(srv, "relist") >= 1 && srv.Faults.OpenWatches() == 1 }, time.Minute, 10*time.Millisecond)
	srv.Faults.DropWatches()
	require.Eventually(t, func() bool { return count(srv, "relist") >= 2 }, time.Minute, 10*time.Millisecond,
		"the informer listed again after its watch ended with 410")
}

func TestAWatchEndsWithKubesExpiredEventOnCompaction(t *testing.T) {
	for _, contentType := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		t.Run(contentType, func(t *testing.T) {
			srv := kapitest.Start(t)
			cfg := rest.CopyConfig(srv.Config)
			cfg.AcceptContentTypes = contentType
			cs, err := kubernetes.NewForConfig(cfg)
			require.NoError(t, err)
			w, err := cs.CoreV1().ConfigMaps("default").Watch(t.Context(), metav1.ListOptions{})
			require.NoError(t, err)
			defer w.Stop()
			require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, time.Millisecond)
			srv.Faults.Compact()
			select {
			case ev := <-w.ResultChan():
				require.Equal(t, watch.Error, ev.Type)
				err := apierrors.FromObject(ev.Object)
				assert.True(t, apierrors.IsResourceExpired(err), "%v", err)
				assert.Contains(t, err.Error(), "too old resource version")
			case <-time.After(time.Minute):
				t.Fatal("the watch got no event")
			}
		})
	}
}

func TestReadsOfACompactedRevisionAreExpired(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	old := createConfigMap(t, cs, "a").ResourceVersion
	createConfigMap(t, cs, "b")
	page, err := cs.CoreV1().ConfigMaps("default").List(t.Context(), metav1.ListOptions{Limit: 1})
	require.NoError(t, err)
	require.NotEmpty(t, page.Continue)
	createConfigMap(t, cs, "c")

	srv.Faults.Compact()

	_, err = cs.CoreV1().ConfigMaps("default").List(t.Context(), metav1.ListOptions{
		ResourceVersion: old, ResourceVersionMatch: metav1.ResourceVersionMatchExact})
	assert.True(t, apierrors.IsResourceExpired(err), "an exact list of an older revision: %v", err)
	_, err = cs.CoreV1().ConfigMaps("default").List(t.Context(), metav1.ListOptions{Limit: 1, Continue: page.Continue})
	assert.True(t, apierrors.IsResourceExpired(err), "a continue token from before: %v", err)
	assert.Contains(t, err.Error(), "continue parameter is too old")
	_, err = cs.CoreV1().ConfigMaps("default").Watch(t.Context(), metav1.ListOptions{ResourceVersion: old})
	if err == nil {
		t.Log("kube answers an old watch with 200 and an ERROR event")
	}
}

func TestTooLargeResourceVersionIsKubes504WithRetryAfter(t *testing.T) {
	srv := kapitest.Start(t)
	srv.Faults.TooLargeResourceVersion(1)
	hc, err := rest.HTTPClientFor(srv.Config)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodGet, srv.Config.Host+"/api/v1/namespaces/default/configmaps?resourceVersion=5", nil)
	require.NoError(t, err)
	resp, err := hc.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusGatewayTimeout, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))

	// client-go waits as told and tries again; the fault was for one list.
	srv.Faults.TooLargeResourceVersion(1)
	srv.ResetRequests()
	_, err = kubernetes.NewForConfigOrDie(srv.Config).CoreV1().ConfigMaps("default").List(t.Context(), metav1.ListOptions{ResourceVersion: "5"})
	require.NoError(t, err)
	codes := []int{}
	for _, r := range srv.Requests() {
		codes = append(codes, r.Code)
	}
	assert.Equal(t, []int{504, 200}, codes)
}

func TestTooLargeResourceVersionIsClassifiedAsATimeout(t *testing.T) {
	srv := kapitest.Start(t)
	srv.Faults.TooLargeResourceVersion(100)
	rc, err := rest.RESTClientFor(func() *rest.Config {
		c := rest.CopyConfig(srv.Config)
		c.GroupVersion = &corev1.SchemeGroupVersion
		c.APIPath = "/api"
		c.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
		return c
	}())
	require.NoError(t, err)
	err = rc.Get().Namespace("default").Resource("configmaps").Param("resourceVersion", "7").MaxRetries(0).Do(t.Context()).Error()
	assert.True(t, apierrors.IsTimeout(err), "%v", err)
	assert.Contains(t, err.Error(), "Too large resource version")
}

func TestAReflectorResumesAfterADroppedWatch(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	inf := configMapInformer(t, cs)
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, 5*time.Millisecond)

	srv.Faults.DropWatches()
	createConfigMap(t, cs, "after-drop")
	require.Eventually(t, hasKey(inf, "default/after-drop"), 10*time.Second, 10*time.Millisecond)
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, 5*time.Millisecond)
	srv.Faults.DropWatches() // records the second watch when it ends
	require.Eventually(t, func() bool { return count(srv, "watch") >= 2 }, time.Minute, 5*time.Millisecond)

	var watches []kapitest.Request
	for _, r := range srv.Requests() {
		if r.Verb == "watch" && r.Resource == "configmaps" {
			watches = append(watches, r)
		}
	}
	if watches[0].Query.Get("sendInitialEvents") == "true" {
		assert.Empty(t, watches[0].Query.Get("resourceVersion"), "a streaming list (client-go 0.34 and later) starts afresh")
	} else {
		assert.NotEmpty(t, watches[0].Query.Get("resourceVersion"), "a watch after a list (client-go 0.33) starts from the list's resourceVersion")
	}
	assert.NotEmpty(t, watches[1].Query.Get("resourceVersion"), "the next one resumes from the resourceVersion the reflector had")
}

func TestStalledWatchesDeliverNothingUntilResumed(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	inf := configMapInformer(t, cs)
	require.Eventually(t, func() bool { return srv.Faults.OpenWatches() == 1 }, time.Minute, 5*time.Millisecond)

	resume := srv.Faults.StallWatches()
	createConfigMap(t, cs, "stalled")
	time.Sleep(200 * time.Millisecond)
	assert.False(t, hasKey(inf, "default/stalled")(), "no event while stalled")
	_, err := cs.CoreV1().ConfigMaps("default").Get(t.Context(), "stalled", metav1.GetOptions{})
	require.NoError(t, err, "reads go on")
	resume()
	require.Eventually(t, hasKey(inf, "default/stalled"), 10*time.Second, 10*time.Millisecond)
}

func TestAnInjectedFaultAnswersItsRequestsWithTheStatusGiven(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	createConfigMap(t, cs, "target")
	createConfigMap(t, cs, "other")
	remove := srv.Faults.Inject(kapitest.Fault{Verb: "get", Resource: "configmaps", Name: "target",
		Err: apierrors.NewTooManyRequests("slow down", 0)})

	_, err := cs.CoreV1().ConfigMaps("default").Get(t.Context(), "target", metav1.GetOptions{})
	assert.True(t, apierrors.IsTooManyRequests(err), "%v", err)
	_, err = cs.CoreV1().ConfigMaps("default").Get(t.Context(), "other", metav1.GetOptions{})
	require.NoError(t, err, "another name is not matched")
	remove()
	_, err = cs.CoreV1().ConfigMaps("default").Get(t.Context(), "target", metav1.GetOptions{})
	require.NoError(t, err, "removed")
}

func TestAFaultWithTimesGoesAwayByItself(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	srv.Faults.Inject(kapitest.Fault{Verb: "list", Err: apierrors.NewServiceUnavailable("down for a moment"), Times: 2})
	for range 2 {
		_, err := cs.CoreV1().Secrets("default").List(t.Context(), metav1.ListOptions{})
		assert.True(t, apierrors.IsServiceUnavailable(err), "%v", err)
	}
	_, err := cs.CoreV1().Secrets("default").List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
}

func TestADelayHoldsTheRequestAndAClientTimeoutWins(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	srv.Faults.Inject(kapitest.Fault{Verb: "get", Resource: "namespaces", Delay: 150 * time.Millisecond})
	start := time.Now()
	_, err := cs.CoreV1().Namespaces().Get(t.Context(), "default", metav1.GetOptions{})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond)

	srv.Faults.Inject(kapitest.Fault{Verb: "get", Resource: "secrets", Delay: time.Hour})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = cs.CoreV1().Secrets("default").Get(ctx, "x", metav1.GetOptions{})
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
}

func TestTheNthWriteFailsAndWritesNothing(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	srv.Faults.FailNthWrite(2, nil)
	createConfigMap(t, cs, "first")
	_, err := cs.CoreV1().ConfigMaps("default").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "second"}}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsInternalError(err), "%v", err)
	_, err = cs.CoreV1().ConfigMaps("default").Get(t.Context(), "second", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the failed write wrote nothing: %v", err)
	createConfigMap(t, cs, "third")
}

func TestTheNextUpdateConflictsAndRetryOnConflictRecovers(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	createConfigMap(t, cs, "cm")
	srv.Faults.ConflictNextUpdate("configmaps")

	var attempts atomic.Int32
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		attempts.Add(1)
		cm, err := cs.CoreV1().ConfigMaps("default").Get(t.Context(), "cm", metav1.GetOptions{})
		if err != nil {
			return err
		}
		cm.Data["k"] = "updated"
		_, err = cs.CoreV1().ConfigMaps("default").Update(t.Context(), cm, metav1.UpdateOptions{})
		if attempts.Load() == 1 {
			assert.True(t, apierrors.IsConflict(err), "%v", err)
			assert.Contains(t, err.Error(), `Operation cannot be fulfilled on configmaps "cm": the object has been modified`)
		}
		return err
	})
	require.NoError(t, err)
	assert.EqualValues(t, 2, attempts.Load())
}

func TestFaultsAreScopedToTheirServer(t *testing.T) {
	a, b := kapitest.Start(t), kapitest.Start(t)
	a.Faults.Inject(kapitest.Fault{Err: apierrors.NewServiceUnavailable("a is down")})
	_, err := protobufClient(t, a.Config).CoreV1().Namespaces().List(t.Context(), metav1.ListOptions{})
	assert.True(t, apierrors.IsServiceUnavailable(err))
	_, err = protobufClient(t, b.Config).CoreV1().Namespaces().List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
}

func TestAnInjectedConflictIsByteForByteTheServersOwn(t *testing.T) {
	srv := kapitest.Start(t)
	cs := protobufClient(t, srv.Config)
	cm := createConfigMap(t, cs, "cm")
	hc, err := rest.HTTPClientFor(srv.Config)
	require.NoError(t, err)
	put := func() (int, http.Header, string) {
		body := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"default","resourceVersion":"` + cm.ResourceVersion + `"}}`
		req, err := http.NewRequest(http.MethodPut, srv.Config.Host+"/api/v1/namespaces/default/configmaps/cm", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, resp.Header, string(b)
	}
	changed := cm.DeepCopy()
	changed.Data["k"] = "changed"
	_, err = cs.CoreV1().ConfigMaps("default").Update(t.Context(), changed, metav1.UpdateOptions{}) // cm's version is now stale
	require.NoError(t, err)
	realCode, realHeader, realBody := put()

	srv.Faults.ConflictNextUpdate("configmaps")
	cm.ResourceVersion = "" // an update the server would accept
	injectedCode, injectedHeader, injectedBody := put()

	assert.Equal(t, http.StatusConflict, realCode)
	assert.Equal(t, realCode, injectedCode)
	assert.Equal(t, realBody, injectedBody)
	assert.Equal(t, realHeader.Get("Content-Type"), injectedHeader.Get("Content-Type"))
}
