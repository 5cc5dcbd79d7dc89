package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// TestControllerRuntimeManager runs a controller-runtime Manager against
// kapi, as a controller's unit test would instead of envtest: leader
// election, a cached client fed by informers, a reconciler that writes with
// server-side apply, and a status update.
func TestControllerRuntimeManager(t *testing.T) {
	c := startCluster(t)
	mgr, err := ctrl.NewManager(c.restConfig(), ctrl.Options{
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		LeaderElection:          true,
		LeaderElectionID:        "kapi-e2e",
		LeaderElectionNamespace: "default",
		// Controller names are process-global: -count=N runs this again.
		Controller: config.Controller{SkipNameValidation: ptr(true)},
	})
	require.NoError(t, err)

	// The reconciler copies each ConfigMap's "source" key to "copied" with
	// server-side apply, under its own field manager.
	err = ctrl.NewControllerManagedBy(mgr).For(&corev1.ConfigMap{}).Complete(reconcilerFunc(
		func(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
			var cm corev1.ConfigMap
			if err := mgr.GetClient().Get(ctx, req.NamespacedName, &cm); err != nil {
				return ctrl.Result{}, client.IgnoreNotFound(err)
			}
			src, ok := cm.Data["source"]
			if !ok || cm.Data["copied"] == src {
				return ctrl.Result{}, nil
			}
			patch := &corev1.ConfigMap{
				TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: metav1.ObjectMeta{Name: cm.Name, Namespace: cm.Namespace},
				Data:       map[string]string{"copied": src},
			}
			return ctrl.Result{}, mgr.GetClient().Patch(ctx, patch, client.Apply, client.FieldOwner("copier"), client.ForceOwnership)
		}))
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	require.True(t, mgr.GetCache().WaitForCacheSync(ctx))

	cl := mgr.GetClient()
	require.NoError(t, cl.Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "cr", Namespace: "default"},
		Data:       map[string]string{"source": "v1"},
	}))
	key := types.NamespacedName{Namespace: "default", Name: "cr"}
	assert.Eventually(t, func() bool {
		var cm corev1.ConfigMap
		return cl.Get(ctx, key, &cm) == nil && cm.Data["copied"] == "v1"
	}, 2*time.Minute, 20*time.Millisecond, "the reconciler applied its field")

	var cm corev1.ConfigMap
	require.NoError(t, cl.Get(ctx, key, &cm))
	cm.Data["source"] = "v2"
	require.NoError(t, cl.Update(ctx, &cm))
	assert.Eventually(t, func() bool {
		var got corev1.ConfigMap
		return cl.Get(ctx, key, &got) == nil && got.Data["copied"] == "v2"
	}, 2*time.Minute, 20*time.Millisecond, "the reconciler saw the update through its cache")

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the manager did not stop")
	}
}

type reconcilerFunc func(context.Context, ctrl.Request) (ctrl.Result, error)

func (f reconcilerFunc) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	return f(ctx, req)
}
