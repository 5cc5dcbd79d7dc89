package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlNetworkingValidation creates Ingresses and PriorityClasses
// with kubectl as against kube-apiserver 1.33
// (docs/kube-behaviour/16-validation-networking-scheduling-node.md): what
// kube refuses comes back with kube's 422 or 403, worded by kubectl as
// kube's; what kube takes is created.
func TestKubectlNetworkingValidation(t *testing.T) {
	c := startCluster(t)
	for _, v := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			s := strings.ReplaceAll(v, ".", "")
			assert.Equal(t, "ingress.networking.k8s.io/i-"+s+" created (server dry run)\n",
				c.mustKubectl(v, "create", "ingress", "i-"+s, "--rule=foo.com/bar*=svc:80", "--dry-run=server"))

			out, err := c.kubectl(v, "create", "ingress", "ip-"+s, "--rule=10.0.0.1/=svc:80")
			require.Error(t, err)
			assert.Equal(t, `error: failed to create ingress: Ingress.networking.k8s.io "ip-`+s+`" is invalid: spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address`+"\n", out)

			out, err = c.kubectl(v, "create", "ingress", "path-"+s, "--rule=foo.com/a//b=svc:80")
			require.Error(t, err)
			assert.Equal(t, `error: failed to create ingress: Ingress.networking.k8s.io "path-`+s+`" is invalid: spec.rules[0].http.paths[0].path: Invalid value: "/a//b": must not contain '//'`+"\n", out)

			out, err = c.kubectl(v, "create", "priorityclass", "pc-"+s, "--value=2000000000")
			require.Error(t, err)
			assert.Equal(t, `error: failed to create priorityclass: PriorityClass.scheduling.k8s.io "pc-`+s+`" is invalid: value: Forbidden: maximum allowed value of a user defined priority is 1000000000`+"\n", out)

			c.mustKubectl(v, "create", "priorityclass", "default-"+s, "--value=5", "--global-default")
			out, err = c.kubectl(v, "create", "priorityclass", "second-"+s, "--value=5", "--global-default")
			require.Error(t, err)
			assert.Equal(t, `error: failed to create priorityclass: priorityclasses.scheduling.k8s.io "second-`+s+`" is forbidden: PriorityClass default-`+s+` is already marked as default. Only one default can exist`+"\n", out)
			c.mustKubectl(v, "delete", "priorityclass", "default-"+s)
			c.mustKubectl(v, "create", "priorityclass", "second-"+s, "--value=5", "--global-default")
			c.mustKubectl(v, "delete", "priorityclass", "second-"+s)
		})
	}
}
