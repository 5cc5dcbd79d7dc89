// Package example_test shows a controller tested against kapitest: with
// plain testing (this file) and with Ginkgo and Gomega (ginkgo_test.go).
// Both run controller-runtime's Manager with the Widget reconciler
// (internal/widget) against a server of their own.
package example_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/kapi-dev/kapi/kapitest"
	"github.com/kapi-dev/kapi/kapitest/internal/widget"
)

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	_ = clientgoscheme.AddToScheme(s)
	_ = widget.AddToScheme(s)
	return s
}

// startManager runs the Widget controller against cfg until the test ends
// and returns how many reconciles have finished.
func startManager(t testing.TB, cfg *rest.Config) *atomic.Int64 {
	cfg = rest.CopyConfig(cfg)
	cfg.UserAgent = "widget-controller"
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                 newScheme(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		// Controller names are process-wide; every test has its own.
		Controller: config.Controller{SkipNameValidation: ptr(true)},
	})
	require.NoError(t, err)
	inner := &widget.Reconciler{Client: mgr.GetClient()}
	var reconciles atomic.Int64
	err = ctrl.NewControllerManagedBy(mgr).For(&widget.Widget{}).Owns(&corev1.ConfigMap{}).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			defer reconciles.Add(1)
			return inner.Reconcile(ctx, req)
		}))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.True(t, mgr.GetCache().WaitForCacheSync(ctx))
	return &reconciles
}

func ptr[T any](v T) *T { return &v }

// settle waits until no reconcile has finished for 200ms: the events
// already sent have been handled.
func settle(t *testing.T, reconciles *atomic.Int64) {
	t.Helper()
	last, since := reconciles.Load(), time.Now()
	require.Eventually(t, func() bool {
		if n := reconciles.Load(); n != last {
			last, since = n, time.Now()
		}
		return time.Since(since) > 200*time.Millisecond
	}, time.Minute, 10*time.Millisecond)
}

func TestTheWidgetControllerCreatesAConfigMapAndReportsReady(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithCRDPaths("../testdata/crds"))
	startManager(t, srv.Config)
	k8s, err := client.New(srv.Config, client.Options{Scheme: newScheme()})
	require.NoError(t, err)

	w := &widget.Widget{ObjectMeta: metav1.ObjectMeta{Name: "red", Namespace: "default"}, Spec: widget.WidgetSpec{Size: 2, Color: "red"}}
	require.NoError(t, k8s.Create(t.Context(), w))
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		var got widget.Widget
		require.NoError(c, k8s.Get(t.Context(), client.ObjectKeyFromObject(w), &got))
		assert.True(c, got.Status.Ready)
		var cm corev1.ConfigMap
		require.NoError(c, k8s.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "widget-red"}, &cm))
		assert.Equal(c, "2", cm.Data["size"])
	}, time.Minute, 20*time.Millisecond)
}

// What no fake client or envtest tells: a reconcile of an object that is
// already as it should be writes nothing.
func TestAReconcileOfAnUnchangedWidgetWritesNothing(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithCRDPaths("../testdata/crds"),
		kapitest.WithObjects("apiVersion: example.kapi.dev/v1\nkind: Widget\nmetadata: {name: calm, namespace: default}\nspec: {size: 1}\n"))
	reconciles := startManager(t, srv.Config)
	k8s, err := client.New(srv.Config, client.Options{Scheme: newScheme()})
	require.NoError(t, err)
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		var got widget.Widget
		require.NoError(c, k8s.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "calm"}, &got))
		assert.True(c, got.Status.Ready)
	}, time.Minute, 20*time.Millisecond)
	settle(t, reconciles) // the reconciles the create, the ConfigMap and the status update caused are done

	// A label the controller does not care about: one more reconcile.
	srv.ResetRequests()
	before := reconciles.Load()
	var w widget.Widget
	require.NoError(t, k8s.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: "calm"}, &w))
	w.Labels = map[string]string{"touched": "yes"}
	require.NoError(t, k8s.Update(t.Context(), &w))
	require.Eventually(t, func() bool { return reconciles.Load() > before }, time.Minute, 5*time.Millisecond)
	settle(t, reconciles)

	for _, r := range srv.Requests() {
		if r.UserAgent == "widget-controller" {
			assert.False(t, r.IsWrite(), "the controller wrote: %s %s/%s", r.Verb, r.Resource, r.Name)
		}
	}
}

// With the cluster's controllers running in the server (WithControllers),
// what the reconciler owns goes with its Widget, as in a cluster: the
// ConfigMap carries the Widget as its controller owner.
func TestTheConfigMapOfADeletedWidgetIsGarbageCollected(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithCRDPaths("../testdata/crds"), kapitest.WithControllers())
	startManager(t, srv.Config)
	k8s, err := client.New(srv.Config, client.Options{Scheme: newScheme()})
	require.NoError(t, err)
	w := &widget.Widget{ObjectMeta: metav1.ObjectMeta{Name: "brief", Namespace: "default"}, Spec: widget.WidgetSpec{Size: 1}}
	require.NoError(t, k8s.Create(t.Context(), w))
	cm := client.ObjectKey{Namespace: "default", Name: "widget-brief"}
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		require.NoError(c, k8s.Get(t.Context(), cm, &corev1.ConfigMap{}))
	}, time.Minute, 20*time.Millisecond)

	require.NoError(t, k8s.Delete(t.Context(), w))
	// The reconciler may still see the Widget in its cache when the
	// ConfigMap's deletion reaches it, and create the ConfigMap again (as
	// against a cluster); the garbage collector then collects that one too.
	// WaitIdle waits for the collector, Eventually for the reconciler.
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		require.NoError(c, srv.Controllers.WaitIdle(ctx))
		err := k8s.Get(t.Context(), cm, &corev1.ConfigMap{})
		assert.True(c, apierrors.IsNotFound(err), "the ConfigMap went with its Widget: %v", err)
	}, time.Minute, 20*time.Millisecond)
}
