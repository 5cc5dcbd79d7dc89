package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlHealthAndMetrics reads the health endpoints and /metrics with
// `kubectl get --raw`, as against kube-apiserver 1.33
// (docs/kube-behaviour/12-health-metrics.md).
func TestKubectlHealthAndMetrics(t *testing.T) {
	c := startCluster(t)
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			out := c.mustKubectl(v, "get", "--raw", "/readyz?verbose")
			assert.True(t, strings.HasPrefix(out, "[+]ping ok\n[+]log ok\n[+]informer-sync ok\n"), "in memory, no etcd checks: %s", out)
			assert.NotContains(t, out, "etcd")
			assert.True(t, strings.HasSuffix(out, "[+]shutdown ok\nreadyz check passed\n"), out)
			assert.Equal(t, "ok", c.mustKubectl(v, "get", "--raw", "/livez/log"))
			assert.Contains(t, c.mustKubectl(v, "get", "--raw", "/healthz?verbose&exclude=log"), "[+]log excluded: ok\n")

			out, err := c.kubectl(v, "get", "--raw", "/readyz/nope")
			require.Error(t, err)
			assert.Contains(t, out, "the server could not find the requested resource", "kubectl's wording of a plain 404")

			c.mustKubectl(v, "get", "configmaps", "-n", "default")
			metrics := c.mustKubectl(v, "get", "--raw", "/metrics")
			assert.Contains(t, metrics, "# TYPE apiserver_request_total counter\n")
			assert.Contains(t, metrics,
				`apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"}`)
			assert.Contains(t, metrics, `apiserver_storage_objects{resource="namespaces"} 4`)
		})
	}
}
