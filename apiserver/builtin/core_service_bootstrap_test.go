package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestTheDefaultServiceCIDRExistsAtStart: the ServiceCIDR "kubernetes" of
// the cluster IP range, Ready, as kube-apiserver's controller leaves it.
func TestTheDefaultServiceCIDRExistsAtStart(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{})
	code, cidr := serve(t, srv, "GET", "/apis/networking.k8s.io/v1/servicecidrs/kubernetes", "", "")
	require.Equal(t, http.StatusOK, code, cidr)
	assert.Equal(t, map[string]any{"cidrs": []any{"10.96.0.0/16"}}, cidr["spec"])
	conds := cidr["status"].(map[string]any)["conditions"].([]any)
	require.Len(t, conds, 1)
	c := conds[0].(map[string]any)
	assert.Equal(t, "Ready", c["type"])
	assert.Equal(t, "True", c["status"])
	assert.Equal(t, "Kubernetes default Service CIDR is ready", c["message"])
	md := cidr["metadata"].(map[string]any)
	managers := []any{}
	for _, e := range md["managedFields"].([]any) {
		managers = append(managers, e.(map[string]any)["manager"])
	}
	assert.Equal(t, []any{"kube-apiserver", "kubernetes-service-cidr-controller"}, managers)
}

// TestTheKubernetesServiceHasEndpointsAtItsAdvertisedAddress: with an
// advertise address, default/kubernetes has the Endpoints and the
// EndpointSlice kube's endpoint reconciler writes; without one, none (kube's
// --endpoint-reconciler-type=none).
func TestTheKubernetesServiceHasEndpointsAtItsAdvertisedAddress(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{AdvertiseAddress: "10.1.2.3", KubernetesServicePort: 8443})
	code, ep := serve(t, srv, "GET", "/api/v1/namespaces/default/endpoints/kubernetes", "", "")
	require.Equal(t, http.StatusOK, code, ep)
	assert.Equal(t, map[string]any{"endpointslice.kubernetes.io/skip-mirror": "true"}, ep["metadata"].(map[string]any)["labels"])
	assert.Equal(t, []any{map[string]any{"addresses": []any{map[string]any{"ip": "10.1.2.3"}},
		"ports": []any{map[string]any{"name": "https", "port": float64(8443), "protocol": "TCP"}}}}, ep["subsets"])

	code, slice := serve(t, srv, "GET", "/apis/discovery.k8s.io/v1/namespaces/default/endpointslices/kubernetes", "", "")
	require.Equal(t, http.StatusOK, code, slice)
	assert.Equal(t, map[string]any{"kubernetes.io/service-name": "kubernetes"}, slice["metadata"].(map[string]any)["labels"])
	assert.Equal(t, "IPv4", slice["addressType"])
	assert.Equal(t, []any{map[string]any{"addresses": []any{"10.1.2.3"}, "conditions": map[string]any{"ready": true}}}, slice["endpoints"])
	assert.Equal(t, []any{map[string]any{"name": "https", "port": float64(8443), "protocol": "TCP"}}, slice["ports"])

	without := newClusterServer(t, builtin.Options{})
	code, _ = serve(t, without, "GET", "/api/v1/namespaces/default/endpoints/kubernetes", "", "")
	assert.Equal(t, http.StatusNotFound, code)
}
