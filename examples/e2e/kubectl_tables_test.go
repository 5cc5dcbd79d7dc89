package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestKubectlGetWideShowsKubesColumns: kubectl prints the server's Tables;
// the columns and cells are those of kube-apiserver's built-in printers.
func TestKubectlGetWideShowsKubesColumns(t *testing.T) {
	c := startCluster(t)
	cs := clientsetFor(t, c, "application/json")
	ctx := context.Background()

	// A Deployment whose status a controller would have written.
	d := createDeployment(t, cs, twoContainerDeployment("web"))
	d.Spec.Replicas = ptr(int32(2))
	d, err := cs.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{})
	require.NoError(t, err)
	d.Status = appsv1.DeploymentStatus{Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 1, AvailableReplicas: 1}
	_, err = cs.AppsV1().Deployments("default").UpdateStatus(ctx, d, metav1.UpdateOptions{})
	require.NoError(t, err)

	_, err = cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "three-keys"},
		Data:       map[string]string{"a": "1", "b": "2"}, BinaryData: map[string][]byte{"c": {3}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	// A pending pod, and a running one on a node.
	pod := func(name string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "nginx:1"}}}}
	}
	_, err = cs.CoreV1().Pods("default").Create(ctx, pod("pending"), metav1.CreateOptions{})
	require.NoError(t, err)
	running := pod("running")
	running.Spec.NodeName = "node-1"
	running, err = cs.CoreV1().Pods("default").Create(ctx, running, metav1.CreateOptions{})
	require.NoError(t, err)
	running.Status = corev1.PodStatus{
		Phase: corev1.PodRunning, PodIP: "10.0.0.5", PodIPs: []corev1.PodIP{{IP: "10.0.0.5"}},
		ContainerStatuses: []corev1.ContainerStatus{{
			Name: "app", Image: "nginx:1", Ready: true, RestartCount: 2,
			State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.Now()}},
		}},
	}
	_, err = cs.CoreV1().Pods("default").UpdateStatus(ctx, running, metav1.UpdateOptions{})
	require.NoError(t, err)

	age := `\d+s`
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			t.Parallel()
			k := kubectlFor(t, c, version)
			out := k.must("get", "deploy,cm,ns,pods", "-o", "wide")
			sections := strings.Split(strings.TrimSpace(out), "\n\n")
			require.Len(t, sections, 4, out)
			deploys, cms, nss, pods := sections[0], sections[1], sections[2], sections[3]

			assertLines(t, deploys,
				`NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR`,
				`deployment.apps/web\s+1/2\s+2\s+1\s+`+age+`\s+a,b\s+nginx:1,busybox:1\s+app=web`)
			assertLines(t, cms,
				`NAME\s+DATA\s+AGE`,
				`configmap/three-keys\s+3\s+`+age)
			assertLines(t, nss,
				`NAME\s+STATUS\s+AGE`,
				`namespace/default\s+Active\s+`+age,
				`namespace/kube-node-lease\s+Active\s+`+age,
				`namespace/kube-public\s+Active\s+`+age,
				`namespace/kube-system\s+Active\s+`+age)
			assertLines(t, pods,
				`NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES`,
				`pod/pending\s+0/1\s+Pending\s+0\s+`+age+`\s+<none>\s+<none>\s+<none>\s+<none>`,
				`pod/running\s+1/1\s+Running\s+2\s+`+age+`\s+10\.0\.0\.5\s+node-1\s+<none>\s+<none>`)

			// Without -o wide, the priority-1 columns are left out.
			out = k.must("get", "deploy")
			assertLines(t, strings.TrimSpace(out),
				`NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE`,
				`web\s+1/2\s+2\s+1\s+`+age)
		})
	}
}

// assertLines asserts that text has exactly one line per pattern, each
// matching it in full.
func assertLines(t *testing.T, text string, patterns ...string) {
	t.Helper()
	lines := strings.Split(text, "\n")
	if !assert.Len(t, lines, len(patterns), text) {
		return
	}
	for i, p := range patterns {
		assert.Regexp(t, regexp.MustCompile(`^`+p+`\s*$`), lines[i])
	}
}
