package e2e

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKubectlCreateRefusesWhatKubeRefuses creates objects kube-apiserver
// 1.33 refuses with kubectl, which prints kube's 422 as it printed the
// reference's (docs/kube-behaviour/18-validation-misc.md).
func TestKubectlCreateRefusesWhatKubeRefuses(t *testing.T) {
	c := startCluster(t)
	cases := []struct {
		name, manifest, want string
	}{
		{"an IPAddress is named by an IP address",
			"apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: not-an-ip}\nspec:\n  parentRef: {resource: services, name: s, namespace: default}\n",
			`The IPAddress "not-an-ip" is invalid: metadata.name: Invalid value: "not-an-ip": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)` + "\n"},
		{"a Node's pod CIDR is a CIDR",
			"apiVersion: v1\nkind: Node\nmetadata: {name: n-e2e}\nspec: {podCIDR: bogus}\n",
			`The Node "n-e2e" is invalid: spec.podCIDRs[0]: Invalid value: "bogus": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)` + "\n"},
		{"a ControllerRevision has data and a non-negative revision",
			"apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: cr-e2e, namespace: default}\nrevision: -1\n",
			"The ControllerRevision \"cr-e2e\" is invalid: \n* revision: Invalid value: -1: must be greater than or equal to 0\n* data: Required value: data is mandatory\n"},
		{"a Namespace's finalizers are qualified names",
			"apiVersion: v1\nkind: Namespace\nmetadata: {name: ns-e2e}\nspec:\n  finalizers: [bad finalizer]\n",
			"The Namespace \"ns-e2e\" is invalid: \n" +
				`* spec.finalizers: Invalid value: "bad finalizer": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')` + "\n" +
				`* spec.finalizers: Invalid value: "bad finalizer": name is neither a standard finalizer name nor is it fully qualified` + "\n"},
	}
	for _, v := range []string{"1.27", "1.33"} {
		for _, tc := range cases {
			t.Run("kubectl "+v+": "+tc.name, func(t *testing.T) {
				out, err := c.kubectlStdin(v, tc.manifest, "create", "-f", "-")
				require.Error(t, err)
				assert.Equal(t, tc.want, out)
			})
		}
	}
}

// TestKubectlCreatesAnIPv6IPAddress creates and reads back an IPAddress
// named by an IPv6 address, which kube accepts (a DNS-subdomain name rule
// refused it).
func TestKubectlCreatesAnIPv6IPAddress(t *testing.T) {
	c := startCluster(t)
	manifest := "apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: \"2001:db8::10\"}\nspec:\n  parentRef: {resource: services, name: s, namespace: default}\n"
	out, err := c.kubectlStdin("1.33", manifest, "create", "-f", "-")
	require.NoError(t, err, out)
	assert.Equal(t, "ipaddress.networking.k8s.io/2001:db8::10 created\n", out)
	assert.Equal(t, "services/default/s", c.mustKubectl("1.33", "get", "ipaddress", "2001:db8::10", "-o", "jsonpath={.spec.parentRef.resource}/{.spec.parentRef.namespace}/{.spec.parentRef.name}"))
}
