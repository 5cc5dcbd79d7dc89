package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestNamespaceTeardownLeavesClientsKubesTime: on the example server as it
// ships, the namespace controller waits as kube-controller-manager's does
// before tearing down a deleted namespace, so that what clients do on kube
// works: kubectl delete -k of a kustomization holding its own namespace
// exits 0, and a client that deletes a namespace, reads it and finalizes
// it itself (controller-runtime's client tests) succeeds.
func TestNamespaceTeardownLeavesClientsKubesTime(t *testing.T) {
	c, _ := startSecureControlledCluster(t)
	cs, err := kubernetes.NewForConfig(c.restConfig())
	require.NoError(t, err)
	ctx := context.Background()

	t.Run("kubectl delete -k of a kustomization holding its namespace", func(t *testing.T) {
		dir := t.TempDir()
		files := map[string]string{
			"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n" +
				"resources: [namespace.yaml, configmap.yaml, deployment.yaml]\n",
			"namespace.yaml": "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n",
			"configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {a: b}\n",
			"deployment.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n" +
				"spec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n" +
				"    spec: {containers: [{name: web, image: nginx}]}\n",
		}
		for name, body := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600))
		}
		c.mustKubectl("1.33", "apply", "-k", dir)
		// kubectl waits until what it deleted is gone, so it takes the
		// controller's delay (5 s from the namespace's deletion) as on
		// kube; --wait=false and WaitIdle would not wait at all.
		out, err := c.kubectl("1.33", "delete", "-k", dir)
		require.NoError(t, err, "kubectl delete -k exits 0 as on kube: %s", out)
		assert.Contains(t, out, `namespace "shop" deleted`)
		assert.Contains(t, out, `configmap "settings" deleted`)
		assert.Contains(t, out, `deployment.apps "web" deleted`)
		c.settle() // WaitIdle starts the teardown the delay still holds
		_, err = cs.CoreV1().Namespaces().Get(ctx, "shop", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "the namespace ends gone: %v", err)
	})
	t.Run("a client finalizes the namespace it deleted", func(t *testing.T) {
		_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "finalized"}}, metav1.CreateOptions{})
		require.NoError(t, err)
		require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "finalized", metav1.DeleteOptions{}))
		ns, err := cs.CoreV1().Namespaces().Get(ctx, "finalized", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, []corev1.FinalizerName{corev1.FinalizerKubernetes}, ns.Spec.Finalizers)
		ns.Spec.Finalizers = nil
		_, err = cs.CoreV1().Namespaces().Finalize(ctx, ns, metav1.UpdateOptions{})
		require.NoError(t, err, "the client's own /finalize is not beaten by the controller")
		_, err = cs.CoreV1().Namespaces().Get(ctx, "finalized", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "finalized: gone at once: %v", err)
	})
	t.Run("the controller tears down what nobody finalizes", func(t *testing.T) {
		_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "left"}}, metav1.CreateOptions{})
		require.NoError(t, err)
		require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "left", metav1.DeleteOptions{}))
		c.settle() // WaitIdle does not wait out the delay: it starts the teardown
		_, err = cs.CoreV1().Namespaces().Get(ctx, "left", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "torn down: %v", err)
	})
}
