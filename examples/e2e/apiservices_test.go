package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestKubectlListsTheAPIServicesOfCRDGroups: kubectl get apiservices shows
// the server's own group versions and, as on a cluster, one for a CRD's
// group from its create until its delete.
func TestKubectlListsTheAPIServicesOfCRDGroups(t *testing.T) {
	c := startCluster(t)
	for _, version := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+version, func(t *testing.T) {
			k := kubectlFor(t, c, version)
			k.withStdin(widgetCRD).must("apply", "-f", "-")
			out := k.must("get", "apiservices", "-l", "kube-aggregator.kubernetes.io/automanaged=true", "--no-headers")
			fields := strings.Fields(out)
			assert.Equal(t, []string{"v1.example.com", "Local", "True"}, fields[:min(3, len(fields))], out)
			assert.Contains(t, k.must("get", "apiservices", "v1.apps", "-o", "jsonpath={.metadata.labels}"), `"onstart"`)

			k.must("delete", "crd", "widgets.example.com")
			assert.Empty(t, strings.TrimSpace(k.must("get", "apiservices", "-l", "kube-aggregator.kubernetes.io/automanaged=true", "--no-headers", "--ignore-not-found")))
		})
	}
}
