package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// The copier controller's RBAC markers, as a kubebuilder project writes
// them above its Reconcile:
//
//	// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch;patch
//	// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
//	// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete
//
// and managerRole is the ClusterRole `controller-gen rbac:roleName=manager-role`
// generates from them (config/rbac/role.yaml), with its binding to the
// manager's ServiceAccount (config/rbac/role_binding.yaml).
const managerRole = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: manager-role
rules:
- apiGroups:
  - ""
  resources:
  - configmaps
  verbs:
  - get
  - list
  - patch
  - watch
- apiGroups:
  - ""
  resources:
  - events
  verbs:
  - create
  - patch
- apiGroups:
  - coordination.k8s.io
  resources:
  - leases
  verbs:
  - create
  - delete
  - get
  - list
  - patch
  - update
  - watch
---
apiVersion: v1
kind: Namespace
metadata:
  name: system
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: controller-manager
  namespace: system
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: manager-rolebinding
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: manager-role
subjects:
- kind: ServiceAccount
  name: controller-manager
  namespace: system
`

// TestControllerRuntimeManagerWithItsRBAC runs a controller-runtime Manager
// as the ServiceAccount its kubebuilder RBAC markers are bound to, and
// nothing else: leader election, informers, a server-side-apply
// reconciler all work; once one rule is removed from the ClusterRole, the
// reconciler fails with kube's forbidden error.
func TestControllerRuntimeManagerWithItsRBAC(t *testing.T) {
	c := startSecureCluster(t, kapiserver.Options{})
	out, err := c.kubectlStdin("1.33", managerRole, "apply", "-f", "-")
	require.NoError(t, err, out)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	admin := clientset(t, c.restConfig())
	tr, err := admin.CoreV1().ServiceAccounts("system").CreateToken(ctx, "controller-manager", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	require.NoError(t, err)

	mgr, err := ctrl.NewManager(c.tokenConfig(tr.Status.Token), ctrl.Options{
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		LeaderElection:          true,
		LeaderElectionID:        "copier.kapi.dev",
		LeaderElectionNamespace: "system",
		Controller:              config.Controller{SkipNameValidation: ptr(true)},
	})
	require.NoError(t, err)
	var mu sync.Mutex
	var failures []error
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
			err := mgr.GetClient().Patch(ctx, patch, client.Apply, client.FieldOwner("copier"), client.ForceOwnership)
			if err != nil {
				mu.Lock()
				failures = append(failures, err)
				mu.Unlock()
			}
			return ctrl.Result{}, err
		}))
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	require.True(t, mgr.GetCache().WaitForCacheSync(ctx))

	key := types.NamespacedName{Namespace: "default", Name: "cr"}
	_, err = admin.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cr"},
		Data: map[string]string{"source": "v1"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Eventually(t, func() bool {
		cm, err := admin.CoreV1().ConfigMaps("default").Get(ctx, key.Name, metav1.GetOptions{})
		return err == nil && cm.Data["copied"] == "v1"
	}, 2*time.Minute, 20*time.Millisecond, "the manager, running with its RBAC only, reconciled")
	lease, err := admin.CoordinationV1().Leases("system").Get(ctx, "copier.kapi.dev", metav1.GetOptions{})
	require.NoError(t, err, "leader election took its lease")
	assert.NotEmpty(t, *lease.Spec.HolderIdentity)
	mu.Lock()
	require.Empty(t, failures)
	mu.Unlock()

	// Remove "patch" from the configmaps rule: the next reconcile's apply is
	// refused with kube's message.
	_, err = admin.RbacV1().ClusterRoles().Patch(ctx, "manager-role", types.JSONPatchType,
		[]byte(`[{"op":"replace","path":"/rules/0/verbs","value":["get","list","watch"]}]`), metav1.PatchOptions{})
	require.NoError(t, err)
	_, err = admin.CoreV1().ConfigMaps("default").Patch(ctx, key.Name, types.MergePatchType, []byte(`{"data":{"source":"v2"}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	var failure error
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		if len(failures) > 0 {
			failure = failures[0]
		}
		return failure != nil
	}, 2*time.Minute, 20*time.Millisecond, "the reconciler's apply failed")
	assert.True(t, apierrors.IsForbidden(failure), "%v", failure)
	assert.Equal(t, `configmaps "cr" is forbidden: User "system:serviceaccount:system:controller-manager" cannot patch resource "configmaps" in API group "" in the namespace "default"`, failure.Error())
	cm, err := admin.CoreV1().ConfigMaps("default").Get(ctx, key.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "v1", cm.Data["copied"], "nothing was written")

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(2 * time.Minute):
		t.Fatal("the manager did not stop")
	}
}
