package builtin_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/meta"
)

// columnDescription is the description of a built-in kind's printer
// column as release r serves it.
func columnDescription(t *testing.T, r apiserver.Release, gvk meta.GroupVersionKind, column string) string {
	t.Helper()
	for _, res := range builtin.ResourcesFor(r) {
		if res.GroupVersionKind() != gvk {
			continue
		}
		for _, c := range res.PrinterColumns {
			if c.Name == column {
				return c.Description
			}
		}
	}
	require.Failf(t, "no such column", "%s has no column %q at %s", gvk, column, r)
	return ""
}

// TestPrinterColumnsAreDescribedAsEachReleaseDescribesThem holds the Table
// column descriptions to each release's kube-apiserver: a column
// described by an API field's documentation carries that release's text,
// from its OpenAPI components, and a column kube words itself its own.
func TestPrinterColumnsAreDescribedAsEachReleaseDescribesThem(t *testing.T) {
	daemonSet := meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "DaemonSet"}
	cases := []struct {
		name    string
		release apiserver.Release
		gvk     meta.GroupVersionKind
		column  string
		want    string
	}{
		{"1.33 describes a DaemonSet's Ready column by extensions/v1beta1's numberReady", apiserver.Release133, daemonSet, "Ready",
			"The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready."},
		{"1.37 describes a DaemonSet's Ready column by apps/v1's numberReady", apiserver.Release137, daemonSet, "Ready",
			"numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition."},
		{"1.33 and 1.37 share a DaemonSet's Up-to-date description", apiserver.Release133, daemonSet, "Up-to-date",
			"The total number of nodes that are running updated daemon pod"},
		{"1.37 describes a DaemonSet's Up-to-date column as 1.33 does", apiserver.Release137, daemonSet, "Up-to-date",
			"The total number of nodes that are running updated daemon pod"},
		{"1.33 describes a ControllerRevision's Revision by apps/v1beta1", apiserver.Release133,
			meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ControllerRevision"}, "Revision",
			"revision indicates the revision of the state represented by Data."},
		{"1.37 describes a ControllerRevision's Revision by apps/v1", apiserver.Release137,
			meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "ControllerRevision"}, "Revision",
			"Revision indicates the revision of the state represented by Data."},
		{"1.33 describes an IPAddress's ParentRef by its 1.33 documentation", apiserver.Release133,
			meta.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress"}, "ParentRef",
			"ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object."},
		{"1.37 describes an IPAddress's ParentRef by its 1.37 documentation", apiserver.Release137,
			meta.GroupVersionKind{Group: "networking.k8s.io", Version: "v1", Kind: "IPAddress"}, "ParentRef",
			"parentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object."},
		{"1.33 describes a ClusterRoleBinding's Role as RoleRef", apiserver.Release133,
			meta.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}, "Role",
			"RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."},
		{"1.37 describes a ClusterRoleBinding's Role as roleRef", apiserver.Release137,
			meta.GroupVersionKind{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}, "Role",
			"roleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."},
		{"1.33 keeps kube's misspelt ParamRef description", apiserver.Release133,
			meta.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"}, "ParamRef",
			"ParamRef indicates the param resource which sets the configration param"},
		{"1.37 spells the ParamRef description as kube corrected it", apiserver.Release137,
			meta.GroupVersionKind{Group: "admissionregistration.k8s.io", Version: "v1", Kind: "ValidatingAdmissionPolicyBinding"}, "ParamRef",
			"ParamRef indicates the param resource which sets the configuration param"},
		{"a column kube words itself reads the same at 1.33", apiserver.Release133, daemonSet, "Containers",
			"Names of each container in the template."},
		{"a column kube words itself reads the same at 1.37", apiserver.Release137, daemonSet, "Containers",
			"Names of each container in the template."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, columnDescription(t, tc.release, tc.gvk, tc.column))
		})
	}
}

// TestEnumColumnsAreDescribedWithoutTheirValues holds that a column
// described by an enum field leaves out the enum values the OpenAPI
// description lists, as kube's printers do.
func TestEnumColumnsAreDescribedWithoutTheirValues(t *testing.T) {
	service := meta.GroupVersionKind{Version: "v1", Kind: "Service"}
	for _, r := range []apiserver.Release{apiserver.Release133, apiserver.Release137} {
		d := columnDescription(t, r, service, "Type")
		assert.True(t, strings.HasPrefix(d, "type determines how the Service is exposed."), "%s: %q", r, d)
		assert.NotContains(t, d, "Possible enum values", r)
	}
}

// TestEveryReleaseDescribesEveryColumn holds that every column of every
// release (the flowcontrol v1beta3 views included) has its description
// resolved: no reference is left for a client to see.
func TestEveryReleaseDescribesEveryColumn(t *testing.T) {
	for _, r := range apiserver.Releases() {
		for _, res := range builtin.WithFlowControlV1beta3(builtin.ResourcesFor(r)) {
			for _, c := range res.PrinterColumns {
				assert.NotContains(t, c.Description, "\x00", "%s %s column %q", r, res.GroupVersionKind(), c.Name)
			}
		}
	}
}
