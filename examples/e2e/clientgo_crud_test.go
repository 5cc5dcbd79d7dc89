package e2e

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
)

// contentTypes are the wire formats client-go's typed clients use: protobuf
// is their default for built-in kinds since client-go 1.35.
var contentTypes = []string{"application/json", "application/vnd.kubernetes.protobuf"}

func TestTypedClientCRUD(t *testing.T) {
	for _, ct := range contentTypes {
		t.Run(ct, func(t *testing.T) { testTypedClientCRUD(t, ct) })
	}
}

func testTypedClientCRUD(t *testing.T, contentType string) {
	c := startCluster(t)
	cfg := c.restConfig()
	cfg.ContentType = contentType
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	ctx := context.Background()
	cms := cs.CoreV1().ConfigMaps("default")

	created, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Data: map[string]string{"a": "b"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.NotEmpty(t, created.UID)
	assert.NotEmpty(t, created.ResourceVersion)
	assert.False(t, created.CreationTimestamp.IsZero())

	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsAlreadyExists(err), "%v", err)

	got, err := cms.Get(ctx, "x", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "b", got.Data["a"])

	got.Data["a"] = "c"
	updated, err := cms.Update(ctx, got, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "c", updated.Data["a"])

	got.Data["a"] = "stale"
	_, err = cms.Update(ctx, got, metav1.UpdateOptions{})
	assert.True(t, apierrors.IsConflict(err), "an update from a stale resourceVersion conflicts: %v", err)

	list, err := cms.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)
	assert.NotEmpty(t, list.ResourceVersion)

	require.NoError(t, cms.Delete(ctx, "x", metav1.DeleteOptions{}))
	_, err = cms.Get(ctx, "x", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
	err = cms.Delete(ctx, "x", metav1.DeleteOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)

	// A cluster-scoped kind: namespaces.
	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.NamespaceActive, ns.Status.Phase)
	assert.Equal(t, []corev1.FinalizerName{corev1.FinalizerKubernetes}, ns.Spec.Finalizers)
	_, err = cs.CoreV1().ConfigMaps("team-a").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "in-team-a"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.CoreV1().ConfigMaps("nowhere").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "y"}}, metav1.CreateOptions{})
	assert.True(t, apierrors.IsNotFound(err), "creating in a missing namespace is NotFound: %v", err)
}

func TestDynamicClientCRUD(t *testing.T) {
	c := startCluster(t)
	dc, err := dynamic.NewForConfig(c.restConfig())
	require.NoError(t, err)
	ctx := context.Background()
	gvr := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	cms := dc.Resource(gvr).Namespace("default")

	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "dyn"}, "data": map[string]any{"k": "v"},
	}}
	created, err := cms.Create(ctx, obj, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.NotEmpty(t, created.GetUID())

	_, err = cms.Create(ctx, obj, metav1.CreateOptions{})
	assert.True(t, apierrors.IsAlreadyExists(err), "%v", err)

	unstructured.SetNestedField(created.Object, "w", "data", "k")
	updated, err := cms.Update(ctx, created, metav1.UpdateOptions{})
	require.NoError(t, err)
	v, _, _ := unstructured.NestedString(updated.Object, "data", "k")
	assert.Equal(t, "w", v)
	_, err = cms.Update(ctx, created, metav1.UpdateOptions{})
	assert.True(t, apierrors.IsConflict(err), "%v", err)

	list, err := cms.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list.Items, 1)

	// A cluster-scoped kind through the dynamic client.
	nsGVR := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "dyn-ns"}}}
	_, err = dc.Resource(nsGVR).Create(ctx, ns, metav1.CreateOptions{})
	require.NoError(t, err)
	got, err := dc.Resource(nsGVR).Get(ctx, "dyn-ns", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "dyn-ns", got.GetName())

	require.NoError(t, cms.Delete(ctx, "dyn", metav1.DeleteOptions{}))
	_, err = cms.Get(ctx, "dyn", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
}
