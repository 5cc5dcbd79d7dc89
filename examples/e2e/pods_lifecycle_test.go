package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// startClusterWithNodes is the example server with Nodes and
// PodDisruptionBudgets served (registered here until builtin registers
// them).
func startClusterWithNodes(t *testing.T) *cluster {
	t.Helper()
	cfg := kapiserver.Config()
	has := func(group, plural string) bool {
		for _, r := range cfg.Resources {
			if r.Group == group && r.Plural == plural {
				return true
			}
		}
		return false
	}
	if !has("", "nodes") {
		cfg.Resources = append(cfg.Resources, apiserver.Resource{Version: "v1", Kind: "Node", Plural: "nodes",
			ShortNames: []string{"no"}, StatusSubresource: true, WithoutGeneration: true})
	}
	if !has("policy", "poddisruptionbudgets") {
		cfg.Resources = append(cfg.Resources, apiserver.Resource{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget",
			Plural: "poddisruptionbudgets", Namespaced: true, ShortNames: []string{"pdb"}, StatusSubresource: true})
	}
	return startClusterWith(t, cfg)
}

const drainManifest = `apiVersion: v1
kind: Node
metadata: {name: dn}
---
apiVersion: v1
kind: Pod
metadata: {name: dp1, namespace: default}
spec: {nodeName: dn, containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: Pod
metadata: {name: dp2, namespace: default}
spec: {nodeName: dn, containers: [{name: c, image: nginx}]}
`

// TestKubectlDrainAndDelete drains a node on a server dry run and deletes
// a pod gracefully and by force, as against kube-apiserver 1.33
// (docs/kube-behaviour/09-services-pods.md).
func TestKubectlDrainAndDelete(t *testing.T) {
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			c := startClusterWithNodes(t)
			_, err := c.kubectlStdin(v, drainManifest, "create", "-f", "-")
			require.NoError(t, err)

			out := c.mustKubectl(v, "drain", "dn", "--dry-run=server", "--ignore-daemonsets", "--force")
			assert.Contains(t, out, "node/dn cordoned (server dry run)\n")
			assert.Contains(t, out, "evicting pod default/dp1 (server dry run)\n")
			assert.Contains(t, out, "evicting pod default/dp2 (server dry run)\n")
			assert.Contains(t, out, "node/dn drained (server dry run)\n")
			assert.Equal(t, "", c.mustKubectl(v, "get", "node", "dn", "-o", "jsonpath={.spec.unschedulable}"), "a dry run cordons nothing")
			assert.Equal(t, 2, strings.Count(c.mustKubectl(v, "get", "pods", "--no-headers"), "Pending"), "nor evicts")

			assert.Contains(t, c.mustKubectl(v, "delete", "pod", "dp1", "--wait=false"), `pod "dp1" deleted`)
			assert.Equal(t, "30", c.mustKubectl(v, "get", "pod", "dp1", "-o", "jsonpath={.metadata.deletionGracePeriodSeconds}"),
				"a pod on a node is kept for its grace period")
			assert.Contains(t, c.mustKubectl(v, "delete", "pod", "dp1", "--grace-period=0", "--force"), `pod "dp1" force deleted`)
			_, err = c.kubectl(v, "get", "pod", "dp1")
			assert.Error(t, err)
		})
	}
}

// TestClientGoBindingAndEviction binds a pod as a scheduler does and
// evicts pods through client-go, a PodDisruptionBudget refusing one.
func TestClientGoBindingAndEviction(t *testing.T) {
	c := startClusterWithNodes(t)
	cfg := c.restConfig()
	cfg.ContentType = "application/json" // Binding and Eviction in protobuf come with every kind's descriptors (issue 13)
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	ctx := context.Background()
	pods := cs.CoreV1().Pods("default")
	for _, name := range []string{"a", "b"} {
		_, err := pods.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"app": "x"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}, metav1.CreateOptions{})
		require.NoError(t, err)
	}

	for _, name := range []string{"a", "b"} {
		require.NoError(t, pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: name},
			Target: corev1.ObjectReference{Kind: "Node", Name: "n1"}}, metav1.CreateOptions{}))
	}
	err = pods.Bind(ctx, &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Target: corev1.ObjectReference{Name: "n2"}},
		metav1.CreateOptions{})
	require.True(t, apierrors.IsConflict(err), "%v", err)
	assert.Equal(t, `Operation cannot be fulfilled on pods/binding "a": pod a is already assigned to node "n1"`, err.Error())
	pod, err := pods.Get(ctx, "a", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "n1", pod.Spec.NodeName)

	for _, name := range []string{"a", "b"} {
		pod, err := pods.Get(ctx, name, metav1.GetOptions{})
		require.NoError(t, err)
		pod.Status.Phase = corev1.PodRunning
		pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue})
		_, err = pods.UpdateStatus(ctx, pod, metav1.UpdateOptions{})
		require.NoError(t, err)
	}
	one := intstr.FromInt32(1)
	_, err = cs.PolicyV1().PodDisruptionBudgets("default").Create(ctx, &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "pdb"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	require.NoError(t, pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "a"}}))
	pdb, err := cs.PolicyV1().PodDisruptionBudgets("default").Get(ctx, "pdb", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), pdb.Status.DisruptionsAllowed, "the eviction took the budget's one disruption")
	assert.Contains(t, pdb.Status.DisruptedPods, "a")

	err = pods.EvictV1(ctx, &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "b"}})
	require.True(t, apierrors.IsTooManyRequests(err), "%v", err)
	assert.Equal(t, "Cannot evict pod as it would violate the pod's disruption budget.", err.Error())
	pdb, err = cs.PolicyV1().PodDisruptionBudgets("default").Get(ctx, "pdb", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(1), pdb.Status.CurrentHealthy, "a, being deleted, is no longer counted, as kube's controller counts")
	pod, err = pods.Get(ctx, "a", metav1.GetOptions{})
	require.NoError(t, err)
	assert.NotNil(t, pod.DeletionTimestamp, "the evicted pod is being deleted gracefully")
}
