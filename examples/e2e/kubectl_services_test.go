package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlServiceAllocation creates Services with kubectl as against
// kube-apiserver 1.33 (docs/kube-behaviour/09-services-pods.md): the
// default/kubernetes Service exists, cluster IPs come from 10.96.0.0/16,
// a taken node port or address is kube's 422, worded by kubectl as kube's.
func TestKubectlServiceAllocation(t *testing.T) {
	c := startCluster(t)
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			out := c.mustKubectl(v, "get", "svc", "kubernetes", "--no-headers")
			assert.Regexp(t, `^kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443/TCP\s+`, out)

			np := "np-" + strings.ReplaceAll(v, ".", "")
			c.mustKubectl(v, "create", "service", "nodeport", np, "--tcp=80:80", "--node-port=3009"+v[3:])
			out = c.mustKubectl(v, "get", "svc", np, "--no-headers")
			assert.Regexp(t, `^`+np+`\s+NodePort\s+10\.96\.\d+\.\d+\s+<none>\s+80:3009`+v[3:]+`/TCP\s+`, out)

			out, err := c.kubectl(v, "create", "service", "nodeport", np+"-2", "--tcp=80:80", "--node-port=3009"+v[3:])
			require.Error(t, err)
			assert.Equal(t, `error: failed to create NodePort service: Service "`+np+`-2" is invalid: spec.ports[0].nodePort: Invalid value: 3009`+v[3:]+`: provided port is already allocated`+"\n", out)

			out, err = c.kubectl(v, "create", "service", "clusterip", "ip-"+np, "--tcp=80:80", "--clusterip=10.96.0.1")
			require.Error(t, err)
			assert.Equal(t, `error: failed to create ClusterIP service: Service "ip-`+np+`" is invalid: spec.clusterIPs: Invalid value: []string{"10.96.0.1"}: failed to allocate IP 10.96.0.1: provided IP is already allocated`+"\n", out)

			c.mustKubectl(v, "delete", "service", np)
			c.mustKubectl(v, "create", "service", "nodeport", np+"-3", "--tcp=80:80", "--node-port=3009"+v[3:])
		})
	}
}
