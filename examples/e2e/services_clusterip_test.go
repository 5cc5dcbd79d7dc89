package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestClusterIPServicesOnTheExampleServer: on the example server as it
// ships (HTTPS, RBAC, controllers), every way kubectl makes a Service that
// needs a cluster IP works, each address has its IPAddress as kube's
// allocator writes it (labels, parentRef, manager kube-apiserver), and
// deleting the Service frees the address.
func TestClusterIPServicesOnTheExampleServer(t *testing.T) {
	c, _ := startSecureControlledCluster(t)
	cs, err := kubernetes.NewForConfig(c.restConfig())
	require.NoError(t, err)
	dir := t.TempDir()
	explicit := filepath.Join(dir, "explicit.json")
	require.NoError(t, os.WriteFile(explicit, []byte(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"explicit"},
		"spec":{"clusterIP":"10.96.0.50","ports":[{"port":80}]}}`), 0o600))
	applied := filepath.Join(dir, "applied.json")
	require.NoError(t, os.WriteFile(applied, []byte(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"applied"},
		"spec":{"ports":[{"port":80}]}}`), 0o600))

	cases := []struct {
		name, service, output string
		kubectl               [][]string
	}{
		{name: "kubectl create service clusterip", service: "web", output: "service/web created",
			kubectl: [][]string{{"create", "service", "clusterip", "web", "--tcp=80:8080"}}},
		{name: "kubectl expose deployment", service: "exposed", output: "service/exposed exposed",
			kubectl: [][]string{{"create", "deployment", "exposed", "--image=nginx", "--port=8080"},
				{"expose", "deployment", "exposed", "--port=80", "--target-port=8080"}}},
		{name: "a Service with an explicit clusterIP", service: "explicit", output: "service/explicit created",
			kubectl: [][]string{{"create", "-f", explicit}}},
		{name: "kubectl apply --server-side", service: "applied", output: "service/applied serverside-applied",
			kubectl: [][]string{{"apply", "--server-side", "-f", applied}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out string
			for _, args := range tc.kubectl {
				out = c.mustKubectl("1.33", args...)
			}
			assert.Equal(t, tc.output, strings.TrimSpace(out))
			ctx := context.Background()
			svc, err := cs.CoreV1().Services("default").Get(ctx, tc.service, metav1.GetOptions{})
			require.NoError(t, err)
			ip := svc.Spec.ClusterIP
			require.NotEmpty(t, ip)
			addr, err := cs.NetworkingV1().IPAddresses().Get(ctx, ip, metav1.GetOptions{})
			require.NoError(t, err, "the address has its IPAddress")
			assert.Equal(t, map[string]string{"ipaddress.kubernetes.io/ip-family": "IPv4",
				"ipaddress.kubernetes.io/managed-by": "ipallocator.k8s.io"}, addr.Labels)
			require.NotNil(t, addr.Spec.ParentRef)
			assert.Equal(t, "services", addr.Spec.ParentRef.Resource)
			assert.Equal(t, "default", addr.Spec.ParentRef.Namespace)
			assert.Equal(t, tc.service, addr.Spec.ParentRef.Name)
			require.Len(t, addr.ManagedFields, 1)
			assert.Equal(t, "kube-apiserver", addr.ManagedFields[0].Manager)

			c.mustKubectl("1.33", "delete", "service", tc.service)
			_, err = cs.NetworkingV1().IPAddresses().Get(ctx, ip, metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "deleting the Service frees its address: %v", err)
		})
	}
}
