package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr/funcr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"
	"k8s.io/client-go/metadata/metadatainformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

// listCounter counts what a reflector asks of one resource: lists, watches
// that stream the list first (sendInitialEvents, client-go's
// WatchListClient), watches that resume at a resourceVersion, and the
// bookmarks those watches receive. Lists and streamed lists beyond the
// first are relists.
type listCounter struct {
	rt                                       http.RoundTripper
	resource                                 string
	lists, streamedLists, resumes, bookmarks atomic.Int32
}

func (c *listCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	watch := false
	if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/"+c.resource) {
		q := r.URL.Query()
		switch watch = q.Get("watch") == "true"; {
		case !watch:
			c.lists.Add(1)
		case q.Get("sendInitialEvents") == "true":
			c.streamedLists.Add(1)
		default:
			c.resumes.Add(1)
		}
	}
	resp, err := c.rt.RoundTrip(r)
	if watch && err == nil {
		if resp.StatusCode != http.StatusOK && r.URL.Query().Get("sendInitialEvents") == "true" {
			// Refused (kube 1.33's WatchList gate): the reflector lists
			// instead, and that list is the one counted.
			c.streamedLists.Add(-1)
		}
		resp.Body = &bookmarkCounter{ReadCloser: resp.Body, n: &c.bookmarks}
	}
	return resp, err
}

// watchListRefused is kube-apiserver 1.33's answer to a streamed list (its
// WatchList gate is off by default), after which client-go lists instead:
// no fault of the server's.
const watchListRefused = "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"

// logRecorder keeps the messages a reflector logs with an error: "watch
// ended with error" carries a decode error, after which the reflector
// relists without telling the WatchErrorHandler.
type logRecorder struct {
	mu     sync.Mutex
	errors []string
}

func (l *logRecorder) logger() klog.Logger {
	return funcr.New(func(prefix, args string) {
		if !strings.Contains(args, `"err"`) || strings.Contains(args, watchListRefused) {
			return
		}
		l.mu.Lock()
		defer l.mu.Unlock()
		l.errors = append(l.errors, prefix+" "+args)
	}, funcr.Options{Verbosity: 4})
}

func (l *logRecorder) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.errors)
}

// TestAMetadataInformerSoaksOnTheExampleServer runs, for KAPI_SOAK (a Go
// duration, for example 5m), a client-go metadata informer on apps/v1
// Deployments, the informer controller-runtime's OnlyMetadata builds,
// against the example server as it ships (kube's one-minute bookmark
// interval), while Deployments are created, updated and deleted, and
// holds it to no decode error, no watch error and no relist; at the end
// its cache holds what the server lists. KAPI_SOAK_KUBECONFIG runs it
// against another server (a kube-apiserver, to compare) instead of
// building the example server.
func TestAMetadataInformerSoaksOnTheExampleServer(t *testing.T) {
	v := os.Getenv("KAPI_SOAK")
	if v == "" {
		t.Skip("a soak: KAPI_SOAK=5m runs it")
	}
	run, err := time.ParseDuration(v)
	require.NoError(t, err)
	kubeconfig := os.Getenv("KAPI_SOAK_KUBECONFIG")
	if kubeconfig == "" {
		kubeconfig = runExampleServer(t, buildExampleServer(t)).kubeconfig
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	require.NoError(t, err)
	cfg.QPS, cfg.Burst = 50, 100

	writer, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ns := fmt.Sprintf("soak-%d", time.Now().UnixNano())
	_, err = writer.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = writer.CoreV1().Namespaces().Delete(context.Background(), ns, metav1.DeleteOptions{})
	})

	counter := &listCounter{resource: "deployments"}
	informerCfg := rest.CopyConfig(cfg)
	informerCfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { counter.rt = rt; return counter }
	client, err := metadata.NewForConfig(informerCfg)
	require.NoError(t, err)
	informer := metadatainformer.NewFilteredMetadataInformer(client, appsv1.SchemeGroupVersion.WithResource("deployments"),
		ns, 0, cache.Indexers{}, nil).Informer()
	var watchErrors []string
	var mu sync.Mutex
	require.NoError(t, informer.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
		mu.Lock()
		defer mu.Unlock()
		watchErrors = append(watchErrors, err.Error())
	}))
	logs := &logRecorder{}
	informerCtx, stopInformer := context.WithCancel(klog.NewContext(ctx, logs.logger()))
	done := make(chan struct{})
	go func() { defer close(done); informer.RunWithContext(informerCtx) }()
	defer func() { stopInformer(); <-done }()
	require.True(t, cache.WaitForCacheSync(ctx.Done(), informer.HasSynced))

	// The writer keeps about ten Deployments: each round creates one,
	// updates the one before and deletes the one ten before.
	deployments := writer.AppsV1().Deployments(ns)
	var creates, updates, deletes int
	deadline := time.Now().Add(run)
	for i := 0; time.Now().Before(deadline); i++ {
		name := func(n int) string { return fmt.Sprintf("d-%d", n) }
		_, err := deployments.Create(ctx, soakDeployment(name(i)), metav1.CreateOptions{})
		require.NoError(t, err)
		creates++
		if i >= 1 {
			d, err := deployments.Get(ctx, name(i-1), metav1.GetOptions{})
			require.NoError(t, err)
			d.Labels["round"] = fmt.Sprint(i)
			d.Spec.Replicas = ptr(int32(i % 5))
			_, err = deployments.Update(ctx, d, metav1.UpdateOptions{})
			require.NoError(t, err)
			updates++
		}
		if i >= 10 {
			require.NoError(t, deployments.Delete(ctx, name(i-10), metav1.DeleteOptions{}))
			deletes++
		}
	}

	listed, err := deployments.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	want := map[string]string{}
	for _, d := range listed.Items {
		want[d.Name] = d.ResourceVersion
	}
	cached := func() map[string]string {
		got := map[string]string{}
		for _, o := range informer.GetStore().List() {
			m := o.(*metav1.PartialObjectMetadata)
			got[m.Name] = m.ResourceVersion
		}
		return got
	}
	require.Eventually(t, func() bool { return assert.ObjectsAreEqual(want, cached()) }, time.Minute, 10*time.Millisecond,
		"the informer's cache holds what the server lists: %v, cached %v", want, cached())

	stopInformer()
	<-done
	t.Logf("%v: %d creates, %d updates, %d deletes; %d lists, %d streamed lists, %d resumed watches, %d bookmarks",
		run, creates, updates, deletes, counter.lists.Load(), counter.streamedLists.Load(), counter.resumes.Load(), counter.bookmarks.Load())
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, watchErrors, "no watch of the informer failed")
	assert.Empty(t, logs.snapshot(), "the reflector logged no error (a decode error ends its watch and relists)")
	assert.EqualValues(t, 1, counter.lists.Load()+counter.streamedLists.Load(), "one list, streamed or not: no relist")
	if run >= 2*time.Minute {
		// A streamed list ends with a bookmark of its own; the others come
		// at kube's one-minute interval.
		assert.Greater(t, counter.bookmarks.Load(), counter.streamedLists.Load(), "bookmarks came at kube's interval")
	}
}

func soakDeployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": "soak"}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "soak"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr(int32(1)),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
			},
		},
	}
}
