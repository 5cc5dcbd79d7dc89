package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kubectlVersions are the oldest and newest kubectl the foundation must
// serve (kubectl 1.27 reads legacy discovery, 1.33 the aggregated form),
// and the newer releases present on the machine.
var kubectlVersions = append([]string{"1.27", "1.33"}, newerKubectls()...)

func TestKubectlCRUD(t *testing.T) {
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t)

			out := c.mustKubectl(version, "get", "ns")
			for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
				assert.Contains(t, out, ns)
			}

			out = c.mustKubectl(version, "create", "configmap", "x", "--from-literal=a=b")
			assert.Contains(t, out, "configmap/x created")

			out = c.mustKubectl(version, "get", "cm", "x", "-o", "yaml")
			for _, generated := range []string{"uid:", "resourceVersion:", "creationTimestamp:", "namespace: default", "a: b"} {
				assert.Contains(t, out, generated)
			}

			out = c.mustKubectl(version, "get", "cm", "-A")
			assert.Contains(t, out, "default")
			assert.Contains(t, out, "x")

			manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: default\ndata:\n  a: replaced\n"
			out, err := c.kubectlStdin(version, manifest, "replace", "-f", "-")
			require.NoError(t, err, out)
			assert.Contains(t, out, "configmap/x replaced")
			assert.Equal(t, "replaced", c.mustKubectl(version, "get", "cm", "x", "-o", "jsonpath={.data.a}"))

			out, err = c.kubectl(version, "get", "cm", "missing")
			require.Error(t, err)
			assert.Contains(t, out, `configmaps "missing" not found`)

			out, err = c.kubectl(version, "create", "configmap", "x", "--from-literal=a=b")
			require.Error(t, err)
			assert.Contains(t, out, `configmaps "x" already exists`)
			out, err = c.kubectlStdin(version, manifest, "create", "-f", "-")
			require.Error(t, err)
			assert.Contains(t, out, "Error from server (AlreadyExists)")

			out = c.mustKubectl(version, "api-resources")
			for _, line := range []string{"configmaps", "namespaces", "deployments", "leases"} {
				assert.Contains(t, out, line)
			}
			assert.Regexp(t, `deployments\s+deploy\s+apps/v1\s+true\s+Deployment`, out)

			out = c.mustKubectl(version, "delete", "cm", "x")
			assert.Contains(t, out, `configmap "x" deleted`)
			out, err = c.kubectl(version, "get", "cm", "x")
			require.Error(t, err)
			assert.True(t, strings.Contains(out, "NotFound"), out)
		})
	}
}
