package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// jsonClient is a typed clientset speaking JSON, for seeding test data.
func (c *cluster) jsonClient() kubernetes.Interface {
	c.t.Helper()
	cfg := c.restConfig()
	cfg.ContentType = "application/json"
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(c.t, err)
	return cs
}

func (c *cluster) createConfigMap(name string, labels map[string]string) {
	c.t.Helper()
	_, err := c.jsonClient().CoreV1().ConfigMaps("default").Create(context.Background(),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}, metav1.CreateOptions{})
	require.NoError(c.t, err)
}

func TestKubectlListAndWatch(t *testing.T) {
	c := startCluster(t)
	for i := 0; i < 10; i++ {
		labels := map[string]string{"a": []string{"x", "y", "z"}[i%3]}
		if i == 4 {
			labels["b"] = "set"
		}
		c.createConfigMap(fmt.Sprintf("cm%02d", i), labels)
	}

	t.Run("get --chunk-size=3 over 10 objects returns them all", func(t *testing.T) {
		out, err := c.kubectl("1.33", "get", "cm", "--chunk-size=3", "-o", "name", "-v=6")
		require.NoError(t, err, out)
		for i := 0; i < 10; i++ {
			assert.Contains(t, out, fmt.Sprintf("configmap/cm%02d", i))
		}
		assert.Equal(t, 4, strings.Count(out, "limit=3"), "kubectl fetched four pages")
	})
	t.Run("a set-based label selector filters", func(t *testing.T) {
		out := c.mustKubectl("1.33", "get", "cm", "-l", "a in (x,y),!b", "-o", "name")
		assert.Equal(t, []string{"configmap/cm00", "configmap/cm01", "configmap/cm03", "configmap/cm06", "configmap/cm07", "configmap/cm09"},
			strings.Fields(out))
	})
	t.Run("a field selector filters", func(t *testing.T) {
		out := c.mustKubectl("1.33", "get", "cm", "--field-selector", "metadata.name=cm05", "-o", "name")
		assert.Equal(t, "configmap/cm05", strings.TrimSpace(out))
	})
	t.Run("an unknown field label is refused", func(t *testing.T) {
		out, err := c.kubectl("1.33", "get", "cm", "--field-selector", "spec.foo=x")
		require.Error(t, err)
		assert.Contains(t, out, `"spec.foo" is not a known field selector`)
	})
	t.Run("pods listed by spec.nodeName are the pods of that node, with kubectl and client-go", func(t *testing.T) {
		cs := c.jsonClient()
		for i, node := range []string{"n1", "n2", "n1", "", "n1"} {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i)},
				Spec: corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "c", Image: "i"}}}}
			_, err := cs.CoreV1().Pods("default").Create(context.Background(), pod, metav1.CreateOptions{})
			require.NoError(t, err)
		}
		for _, version := range []string{"1.27", "1.33"} {
			out := c.mustKubectl(version, "get", "pods", "--field-selector", "spec.nodeName=n1", "-o", "name")
			assert.Equal(t, []string{"pod/p0", "pod/p2", "pod/p4"}, strings.Fields(out), "kubectl %s", version)
		}
		list, err := cs.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{FieldSelector: "spec.nodeName=n1", Limit: 2})
		require.NoError(t, err)
		assert.Len(t, list.Items, 2)
		require.NotEmpty(t, list.Continue)
		rest, err := cs.CoreV1().Pods("").List(context.Background(), metav1.ListOptions{FieldSelector: "spec.nodeName=n1", Continue: list.Continue})
		require.NoError(t, err)
		require.Len(t, rest.Items, 1)
		assert.Equal(t, "p4", rest.Items[0].Name)
		unscheduled, err := cs.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{FieldSelector: "spec.nodeName="})
		require.NoError(t, err)
		require.Len(t, unscheduled.Items, 1)
		assert.Equal(t, "p3", unscheduled.Items[0].Name)
	})
	t.Run("get -w shows a change made by another client", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, kubectlBinary(t, "1.33"), "--kubeconfig", c.kubeconfig, "get", "cm", "cm01", "-w", "-o", "jsonpath={.metadata.name}={.data.v}{\"\\n\"}")
		var out syncBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		require.NoError(t, cmd.Start())
		defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
		require.Eventually(t, func() bool { return strings.Contains(out.String(), "cm01=") }, 2*time.Minute, 20*time.Millisecond)
		_, err := c.jsonClient().CoreV1().ConfigMaps("default").Update(context.Background(),
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm01"}, Data: map[string]string{"v": "changed"}}, metav1.UpdateOptions{})
		require.NoError(t, err)
		assert.Eventually(t, func() bool { return strings.Contains(out.String(), "cm01=changed") }, 2*time.Minute, 20*time.Millisecond, out.String())
	})
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
