package e2e

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// TestTheExampleServerBootstrapsTheServiceNetworkAsKube: the example
// server has kube's default ServiceCIDR, and default/kubernetes has the
// Endpoints and the EndpointSlice of the address it serves on.
func TestTheExampleServerBootstrapsTheServiceNetworkAsKube(t *testing.T) {
	c, _ := startSecureControlledCluster(t, func(cfg *apiserver.Config) {
		require.NoError(t, kapiserver.Advertise(cfg, "10.0.0.7:6443"))
	})
	cs, err := kubernetes.NewForConfig(c.restConfig())
	require.NoError(t, err)
	ctx := context.Background()

	cidr, err := cs.NetworkingV1().ServiceCIDRs().Get(ctx, "kubernetes", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"10.96.0.0/16"}, cidr.Spec.CIDRs)
	require.Len(t, cidr.Status.Conditions, 1)
	assert.Equal(t, "Ready", cidr.Status.Conditions[0].Type)
	assert.Equal(t, metav1.ConditionTrue, cidr.Status.Conditions[0].Status)

	ep, err := cs.CoreV1().Endpoints("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, ep.Subsets, 1)
	assert.Equal(t, "10.0.0.7", ep.Subsets[0].Addresses[0].IP)
	assert.EqualValues(t, 6443, ep.Subsets[0].Ports[0].Port)

	slice, err := cs.DiscoveryV1().EndpointSlices("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, slice.Endpoints, 1)
	assert.Equal(t, []string{"10.0.0.7"}, slice.Endpoints[0].Addresses)
	assert.Equal(t, "kubernetes", slice.Labels["kubernetes.io/service-name"])

	svc, err := cs.CoreV1().Services("default").Get(ctx, "kubernetes", metav1.GetOptions{})
	require.NoError(t, err)
	assert.EqualValues(t, 6443, svc.Spec.Ports[0].TargetPort.IntValue())
	out := c.mustKubectl("1.33", "get", "endpoints,endpointslices,servicecidrs", "-A")
	assert.Contains(t, out, "10.0.0.7:6443")
}
