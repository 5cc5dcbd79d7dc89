package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	appsv1apply "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1apply "k8s.io/client-go/applyconfigurations/core/v1"
	metav1apply "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/kubernetes"
)

func TestKubectlServerSideApply(t *testing.T) {
	c := startCluster(t)
	manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s1\n  namespace: default\ndata:\n  k: v\n"

	out, err := c.kubectlStdin("1.33", manifest, "apply", "--server-side", "-f", "-")
	require.NoError(t, err, out)
	assert.Contains(t, out, "configmap/s1 serverside-applied")

	out, err = c.kubectlStdin("1.33", strings.Replace(manifest, "k: v", "k: v2", 1), "apply", "--server-side", "-f", "-")
	require.NoError(t, err, out)
	assert.Equal(t, "v2", c.mustKubectl("1.33", "get", "cm", "s1", "-o", "jsonpath={.data.k}"))

	out, err = c.kubectlStdin("1.33", strings.Replace(manifest, "k: v", "k: mine", 1), "apply", "--server-side", "--field-manager=other", "-f", "-")
	require.Error(t, err, "a second manager changing an owned field conflicts")
	assert.Contains(t, out, `Apply failed with 1 conflict: conflict with "kubectl": .data.k`)

	out, err = c.kubectlStdin("1.33", strings.Replace(manifest, "k: v", "k: mine", 1), "apply", "--server-side", "--field-manager=other", "--force-conflicts", "-f", "-")
	require.NoError(t, err, out)
	managed := c.mustKubectl("1.33", "get", "cm", "s1", "--show-managed-fields", "-o", "jsonpath={range .metadata.managedFields[*]}{.manager}={.fieldsV1}{\"\\n\"}{end}")
	assert.Contains(t, managed, `other={"f:data":{"f:k":{}}}`, "force moved ownership to the new manager")
	assert.NotContains(t, managed, `kubectl=`, "the old manager owned nothing else and is gone")

	out, err = c.kubectlStdin("1.33", strings.Replace(manifest, "k: v", "k: mine\n  extra: x", 1), "apply", "--server-side", "--field-manager=other", "--dry-run=server", "-f", "-")
	require.NoError(t, err, out)
	assert.Contains(t, out, "serverside-applied (server dry run)")
	assert.Empty(t, c.mustKubectl("1.33", "get", "cm", "s1", "-o", "jsonpath={.data.extra}"), "a dry run stores nothing")
}

func TestApplyConfigurationsFromTwoManagersMergeContainers(t *testing.T) {
	c := startCluster(t)
	cs := c.jsonClient()
	ctx := context.Background()
	deploy := func(containers ...*corev1apply.ContainerApplyConfiguration) *appsv1apply.DeploymentApplyConfiguration {
		return appsv1apply.Deployment("web", "default").WithSpec(appsv1apply.DeploymentSpec().
			WithSelector(metav1apply.LabelSelector().WithMatchLabels(map[string]string{"app": "web"})).
			WithTemplate(corev1apply.PodTemplateSpec().WithLabels(map[string]string{"app": "web"}).
				WithSpec(corev1apply.PodSpec().WithContainers(containers...))))
	}
	_, err := cs.AppsV1().Deployments("default").Apply(ctx, deploy(corev1apply.Container().WithName("app").WithImage("app:1")),
		metav1.ApplyOptions{FieldManager: "team-app"})
	require.NoError(t, err)
	got, err := cs.AppsV1().Deployments("default").Apply(ctx, deploy(corev1apply.Container().WithName("sidecar").WithImage("proxy:1")),
		metav1.ApplyOptions{FieldManager: "team-mesh"})
	require.NoError(t, err)
	var names []string
	for _, ctr := range got.Spec.Template.Spec.Containers {
		names = append(names, ctr.Name+"="+ctr.Image)
	}
	assert.ElementsMatch(t, []string{"app=app:1", "sidecar=proxy:1"}, names, "containers merge by name")

	_, err = cs.AppsV1().Deployments("default").Apply(ctx, deploy(corev1apply.Container().WithName("app").WithImage("app:2")),
		metav1.ApplyOptions{FieldManager: "team-mesh"})
	require.Error(t, err)
	assert.True(t, apierrors.IsConflict(err), "%v", err)
	assert.Contains(t, err.Error(), `conflict with "team-app"`)
}

// TestManagedFieldsAfterCreateUpdateApply replays the sequence recorded
// against kube-apiserver 1.33 in docs/kube-behaviour/05-ssa-crd-openapi.md
// and expects the same entries, entry by entry.
func TestManagedFieldsAfterCreateUpdateApply(t *testing.T) {
	c := startCluster(t)
	cs := c.jsonClient()
	ctx := context.Background()
	cms := cs.CoreV1().ConfigMaps("default")
	_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "mf", Labels: map[string]string{"l1": "a"}},
		Data: map[string]string{"a": "1", "b": "2"}}, metav1.CreateOptions{FieldManager: "creator"})
	require.NoError(t, err)
	_, err = cms.Update(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "mf", Labels: map[string]string{"l1": "a"}},
		Data: map[string]string{"a": "1", "b": "22", "c": "3"}}, metav1.UpdateOptions{FieldManager: "updater"})
	require.NoError(t, err)
	applied, err := cms.Apply(ctx, corev1apply.ConfigMap("mf", "default").WithData(map[string]string{"a": "1", "d": "4"}),
		metav1.ApplyOptions{FieldManager: "applier"})
	require.NoError(t, err)

	type entry struct{ manager, operation, fields string }
	var got []entry
	for _, e := range applied.ManagedFields {
		got = append(got, entry{e.Manager, string(e.Operation), string(e.FieldsV1.Raw)})
	}
	assert.Equal(t, []entry{
		{"applier", "Apply", `{"f:data":{"f:a":{},"f:d":{}}}`},
		{"creator", "Update", `{"f:data":{".":{},"f:a":{}},"f:metadata":{"f:labels":{".":{},"f:l1":{}}}}`},
		{"updater", "Update", `{"f:data":{"f:b":{},"f:c":{}}}`},
	}, got)
	for _, e := range applied.ManagedFields {
		assert.Equal(t, "v1", e.APIVersion)
		assert.Equal(t, "FieldsV1", e.FieldsType)
		assert.NotNil(t, e.Time)
	}

	// Applying again without data.d removes the field its sole owner dropped.
	again, err := cms.Apply(ctx, corev1apply.ConfigMap("mf", "default").WithData(map[string]string{"a": "1"}),
		metav1.ApplyOptions{FieldManager: "applier"})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"a": "1", "b": "22", "c": "3"}, again.Data)
	assert.Equal(t, `{"f:data":{"f:a":{}}}`, string(again.ManagedFields[0].FieldsV1.Raw))

	// A write sending an empty managedFields list clears them.
	patch, _ := json.Marshal(map[string]any{"metadata": map[string]any{"managedFields": []any{}}})
	cleared, err := cms.Patch(ctx, "mf", types.MergePatchType, patch, metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Empty(t, cleared.ManagedFields)
}

// TestStatusOwnerNeverConflictsWithSpecOwner is the controller pattern: a
// user applies the spec, a controller applies the status through the status
// subresource, and neither conflicts with the other, however often.
func TestStatusOwnerNeverConflictsWithSpecOwner(t *testing.T) {
	c := startCluster(t)
	cs := c.jsonClient().(*kubernetes.Clientset)
	ctx := context.Background()
	deployments := cs.AppsV1().Deployments("default")
	spec := func(replicas int32) *appsv1apply.DeploymentApplyConfiguration {
		return appsv1apply.Deployment("ctl", "default").WithSpec(appsv1apply.DeploymentSpec().WithReplicas(replicas).
			WithSelector(metav1apply.LabelSelector().WithMatchLabels(map[string]string{"app": "ctl"})).
			WithTemplate(corev1apply.PodTemplateSpec().WithLabels(map[string]string{"app": "ctl"}).
				WithSpec(corev1apply.PodSpec().WithContainers(corev1apply.Container().WithName("c").WithImage("i")))))
	}
	status := func(ready int32) *appsv1apply.DeploymentApplyConfiguration {
		return appsv1apply.Deployment("ctl", "default").WithStatus(appsv1apply.DeploymentStatus().WithReadyReplicas(ready).WithReplicas(ready))
	}
	for i := int32(1); i <= 3; i++ {
		_, err := deployments.Apply(ctx, spec(i), metav1.ApplyOptions{FieldManager: "user"})
		require.NoError(t, err, "spec apply %d", i)
		_, err = deployments.ApplyStatus(ctx, status(i), metav1.ApplyOptions{FieldManager: "controller"})
		require.NoError(t, err, "status apply %d", i)
	}
	d, err := deployments.Get(ctx, "ctl", metav1.GetOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 3, *d.Spec.Replicas)
	assert.EqualValues(t, 3, d.Status.ReadyReplicas)
	var subresources []string
	for _, e := range d.ManagedFields {
		subresources = append(subresources, e.Manager+":"+e.Subresource)
	}
	assert.ElementsMatch(t, []string{"user:", "controller:status"}, subresources)
	_ = appsv1.Deployment{}
}

// TestClientSideApplyUpgradesToServerSideApply follows the spec's upgrade
// path: objects managed with `kubectl apply` (and its last-applied
// annotation) move to `kubectl apply --server-side` without conflicts, and
// the fields client-side apply owned become the server-side applier's.
func TestClientSideApplyUpgradesToServerSideApply(t *testing.T) {
	c := startCluster(t)
	manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: up\n  namespace: default\ndata:\n  a: \"1\"\n  b: \"2\"\n"
	out, err := c.kubectlStdin("1.33", manifest, "apply", "-f", "-")
	require.NoError(t, err, out)
	assert.Contains(t, c.mustKubectl("1.33", "get", "cm", "up", "-o", "jsonpath={.metadata.annotations}"),
		"kubectl.kubernetes.io/last-applied-configuration")

	changed := strings.Replace(manifest, `a: "1"`, `a: "10"`, 1)
	out, err = c.kubectlStdin("1.33", changed, "apply", "--server-side", "-f", "-")
	require.NoError(t, err, "taking over fields client-side apply owned is not a conflict: %s", out)
	assert.Equal(t, "10", c.mustKubectl("1.33", "get", "cm", "up", "-o", "jsonpath={.data.a}"))
	managed := c.mustKubectl("1.33", "get", "cm", "up", "--show-managed-fields",
		"-o", "jsonpath={range .metadata.managedFields[*]}{.manager}/{.operation}{\"\\n\"}{end}")
	assert.Contains(t, managed, "kubectl/Apply")
}
