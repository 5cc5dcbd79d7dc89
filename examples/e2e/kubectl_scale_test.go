package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlScale scales through /scale as against kube-apiserver 1.33:
// kubectl's answers and the stored replicas.
func TestKubectlScale(t *testing.T) {
	c := startCluster(t)
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			name := "sc-" + v[2:]
			c.mustKubectl(v, "create", "deployment", name, "--image=nginx")
			assert.Equal(t, "deployment.apps/"+name+" scaled\n", c.mustKubectl(v, "scale", "deployment", name, "--replicas=3"))
			assert.Equal(t, "3", c.mustKubectl(v, "get", "deployment", name, "-o", "jsonpath={.spec.replicas}"))
			out, err := c.kubectl(v, "scale", "deployment", name, "--replicas=5", "--current-replicas=2")
			require.Error(t, err)
			assert.Equal(t, "error: Expected replicas to be 2, was 3\n", out)
		})
	}
}
