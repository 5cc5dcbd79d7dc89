package e2e

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// caniPolicy is the RBAC set-up the reference kube-apiserver 1.33.13 had
// when the answers of TestKubectlAuthCanI were recorded
// (docs/kube-behaviour/08-security.md).
const caniPolicy = `apiVersion: v1
kind: Namespace
metadata: {name: cani}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: reader, namespace: cani}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, list, watch]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: extra, namespace: cani}
rules:
- {apiGroups: [""], resources: [secrets], resourceNames: [s1], verbs: [get]}
- {apiGroups: [""], resources: [pods/status], verbs: [update]}
- {apiGroups: [apps], resources: [deployments/scale], verbs: [get]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-reader, namespace: cani}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: alice-extra, namespace: cani}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: extra}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: node-viewer}
rules: [{apiGroups: [""], resources: [nodes], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: qa-nodes}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: node-viewer}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: qa}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: ns-viewer}
rules: [{apiGroups: [""], resources: [namespaces], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: qa-ns}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ns-viewer}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: qa}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: logs-reader}
rules: [{nonResourceURLs: ["/logs/*"], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: alice-logs}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: logs-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
`

// TestKubectlAuthCanI: `kubectl auth can-i` (SelfSubjectAccessReview),
// `--as` (impersonation) and `auth whoami` answer exactly what the reference
// kube-apiserver answered for the same policy: output and exit status.
func TestKubectlAuthCanI(t *testing.T) {
	c := startSecureCluster(t, kapiserver.Options{})
	out, err := c.kubectlStdin("1.33", caniPolicy, "apply", "-f", "-")
	require.NoError(t, err, out)
	alice := c.tokenKubeconfig("alice-token")

	const notNamespaced = "Warning: resource 'namespaces' is not namespace scoped\n\n"
	cases := []struct {
		asAdmin bool
		args    string
		out     string
		ok      bool
	}{
		{false, "-n cani auth can-i get configmaps", "yes\n", true},
		{false, "-n default auth can-i list configmaps", "no\n", false},
		{false, "-n cani auth can-i delete configmaps", "no\n", false},
		{false, "-n cani auth can-i get secrets/s1", "yes\n", true},
		{false, "-n cani auth can-i get secrets/s2", "no\n", false},
		{false, "-n cani auth can-i get secrets", "no\n", false},
		{false, "-n cani auth can-i update pods --subresource=status", "yes\n", true},
		{false, "-n cani auth can-i update pods", "no\n", false},
		{false, "-n cani auth can-i get deployments.apps --subresource=scale", "yes\n", true},
		{false, "-n cani auth can-i list namespaces", notNamespaced + "yes\n", true},
		{false, "auth can-i get namespaces/cani", notNamespaced + "yes\n", true},
		{false, "auth can-i delete namespaces/cani", notNamespaced + "no\n", false},
		{false, "auth can-i get /logs/kube", "yes\n", true},
		{false, "auth can-i get /metrics", "no\n", false},
		{false, "-n cani auth can-i watch configmaps --all-namespaces", "no\n", false},
		{false, "-n cani auth can-i * *", "no\n", false},
		{false, "auth can-i impersonate users", "no\n", false},
		{false, "auth can-i create selfsubjectaccessreviews",
			"Warning: resource 'selfsubjectaccessreviews' is not namespace scoped in group 'authorization.k8s.io'\n\nyes\n", true},
		// Discovery is refused too, so kubectl (without a discovery cache,
		// as here) says "unknown", with kube-apiserver as with kapi.
		{false, "-n cani get configmaps --as=bob", "Error from server (Forbidden): unknown\n", false},
		{true, "-n cani auth can-i get configmaps --as=alice", "yes\n", true},
		{true, "-n cani auth can-i list namespaces --as=alice", notNamespaced + "no\n", false},
		{true, "-n cani auth can-i list namespaces --as=alice --as-group=qa", notNamespaced + "yes\n", true},
		{true, "-n cani auth can-i create pods --as=system:serviceaccount:cani:robot", "no\n", false},
		{true, "auth whoami --as=alice --as-group=qa -o jsonpath={.status.userInfo}", `{"groups":["qa","system:authenticated"],"username":"alice"}`, true},
	}
	for _, version := range []string{"1.27", "1.33"} {
		for _, tc := range cases {
			t.Run(version+" "+tc.args, func(t *testing.T) {
				kc := alice
				if tc.asAdmin {
					kc = c.kubeconfig
				}
				if version == "1.27" && strings.Contains(tc.args, "whoami") {
					t.Skip("kubectl 1.27 has whoami only as `kubectl alpha auth whoami`")
				}
				out, err := c.kubectlAs(kc, version, strings.Fields(tc.args)...)
				out = withoutKlog(out)
				assert.Equal(t, tc.out, out)
				assert.Equal(t, tc.ok, err == nil, "exit status: %v", err)
			})
		}
	}

	t.Run("can-i --list lists what the reference listed", func(t *testing.T) {
		out, err := c.kubectlAs(alice, "1.33", "-n", "cani", "auth", "can-i", "--list")
		require.NoError(t, err, out)
		// kubectl sorts by its own order; kube-apiserver lists bindings in
		// map order: compare the lines as sets.
		want := lines(`Resources                                       Non-Resource URLs   Resource Names   Verbs
selfsubjectreviews.authentication.k8s.io        []                  []               [create]
selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]
selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]
configmaps                                      []                  []               [get list watch]
namespaces                                      []                  []               [get list]
nodes                                           []                  []               [get list]
                                                [/api/*]            []               [get]
                                                [/api]              []               [get]
                                                [/apis/*]           []               [get]
                                                [/apis]             []               [get]
                                                [/healthz]          []               [get]
                                                [/healthz]          []               [get]
                                                [/livez]            []               [get]
                                                [/livez]            []               [get]
                                                [/logs/*]           []               [get]
                                                [/openapi/*]        []               [get]
                                                [/openapi]          []               [get]
                                                [/readyz]           []               [get]
                                                [/readyz]           []               [get]
                                                [/version/]         []               [get]
                                                [/version/]         []               [get]
                                                [/version]          []               [get]
                                                [/version]          []               [get]
secrets                                         []                  [s1]             [get]
deployments.apps/scale                          []                  []               [get]
pods/status                                     []                  []               [update]
`)
		got := lines(out)
		sort.Strings(want)
		sort.Strings(got)
		assert.Equal(t, want, got)
	})
}

// withoutKlog drops kubectl's log lines ("E1124 21:28:21.047452 ..."),
// whose times and process ids vary.
func withoutKlog(out string) string {
	var kept []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if len(l) > 1 && (l[0] == 'E' || l[0] == 'W' || l[0] == 'I') && l[1] >= '0' && l[1] <= '9' {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "")
}
