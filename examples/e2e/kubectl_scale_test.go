package e2e

import (
	"strings"
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

			_, err = c.kubectlStdin(v, strings.ReplaceAll(scaleManifest, "NAME", name), "create", "-f", "-")
			require.NoError(t, err)
			assert.Equal(t, "statefulset.apps/"+name+" scaled\n", c.mustKubectl(v, "scale", "statefulset", name, "--replicas=2"))
			assert.Equal(t, "replicationcontroller/"+name+" scaled\n", c.mustKubectl(v, "scale", "rc", name, "--replicas=4"))
			assert.Equal(t, "replicaset.apps/"+name+" scaled\n", c.mustKubectl(v, "scale", "rs", name, "--replicas=3"))
			assert.Contains(t, c.mustKubectl(v, "get", "--raw", "/apis/apps/v1/namespaces/default/statefulsets/"+name+"/scale"),
				`"spec":{"replicas":2},"status":{"replicas":0,"selector":"app=`+name+`"}}`)
			assert.Contains(t, c.mustKubectl(v, "get", "--raw", "/api/v1/namespaces/default/replicationcontrollers/"+name+"/scale"),
				`"spec":{"replicas":4},"status":{"replicas":0,"selector":"app=`+name+`"}}`, "an RC's plain-map selector in its string form")
		})
	}
}

// scaleManifest is a StatefulSet, a ReplicationController and a
// ReplicaSet named NAME.
const scaleManifest = `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: NAME}
spec:
  serviceName: NAME
  selector: {matchLabels: {app: NAME}}
  template:
    metadata: {labels: {app: NAME}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: v1
kind: ReplicationController
metadata: {name: NAME}
spec:
  selector: {app: NAME}
  template:
    metadata: {labels: {app: NAME}}
    spec: {containers: [{name: c, image: nginx}]}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: NAME}
spec:
  selector: {matchLabels: {app: NAME}}
  template:
    metadata: {labels: {app: NAME}}
    spec: {containers: [{name: c, image: nginx}]}
`
