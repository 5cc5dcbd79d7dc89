package builtin

import (
	"net/netip"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

var (
	serviceCIDRsGR   = meta.GroupResource{Group: "networking.k8s.io", Resource: "servicecidrs"}
	endpointSlicesGR = meta.GroupResource{Group: "discovery.k8s.io", Resource: "endpointslices"}
)

// defaultServiceCIDRName is the ServiceCIDR kube-apiserver's default
// ServiceCIDR controller keeps for --service-cluster-ip-range.
const defaultServiceCIDRName = "kubernetes"

// serviceCIDRManager is the field manager of the default ServiceCIDR's
// status, as kube's controller applies it.
const serviceCIDRManager = "kubernetes-service-cidr-controller"

// bootstrapServiceCIDR stores the default ServiceCIDR as kube-apiserver's
// controller leaves it: created by kube-apiserver with the range, then its
// Ready condition applied to its status (docs/kube-behaviour/
// 09-services-pods.md). An existing one stays.
func bootstrapServiceCIDR(s *apiserver.Server, r *serviceRanges, now string) error {
	empty := map[string]any{}
	cidr := meta.Object{"apiVersion": "networking.k8s.io/v1", "kind": "ServiceCIDR",
		"metadata": map[string]any{"name": defaultServiceCIDRName, "generation": int64(1), "managedFields": []any{
			map[string]any{"manager": "kube-apiserver", "operation": "Update", "apiVersion": "networking.k8s.io/v1",
				"time": now, "fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{"f:cidrs": empty}}},
			map[string]any{"manager": serviceCIDRManager, "operation": "Apply", "apiVersion": "networking.k8s.io/v1",
				"time": now, "fieldsType": "FieldsV1", "subresource": "status", "fieldsV1": map[string]any{
					"f:status": map[string]any{"f:conditions": map[string]any{`k:{"type":"Ready"}`: map[string]any{
						".": empty, "f:lastTransitionTime": empty, "f:message": empty, "f:reason": empty, "f:status": empty,
						"f:type": empty}}}}}}},
		"spec": map[string]any{"cidrs": []any{r.prefix.String()}},
		"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True",
			"lastTransitionTime": now, "reason": "", "message": "Kubernetes default Service CIDR is ready"}}}}
	if err := s.Preload(serviceCIDRsGR, cidr); err != nil && !meta.IsNotFound(err) {
		return err
	}
	return nil
}

// bootstrapKubernetesEndpoints stores the Endpoints and the EndpointSlice
// of default/kubernetes as kube-apiserver's lease endpoint reconciler
// writes them for one API server at addr, serving on port: the Endpoints
// not mirrored (skip-mirror), the slice named after the Service, with the
// address ready (docs/kube-behaviour/09-services-pods.md). Existing ones
// stay.
func bootstrapKubernetesEndpoints(s *apiserver.Server, addr netip.Addr, port int64, now string) error {
	empty := map[string]any{}
	ip := addr.String()
	family := "IPv4"
	if addr.Is6() {
		family = "IPv6"
	}
	endpoints := meta.Object{"apiVersion": "v1", "kind": "Endpoints",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default",
			"labels": map[string]any{"endpointslice.kubernetes.io/skip-mirror": "true"},
			"managedFields": []any{map[string]any{"manager": "kube-apiserver", "operation": "Update", "apiVersion": "v1",
				"time": now, "fieldsType": "FieldsV1", "fieldsV1": map[string]any{
					"f:metadata": map[string]any{"f:labels": map[string]any{".": empty, "f:endpointslice.kubernetes.io/skip-mirror": empty}},
					"f:subsets": empty}}}},
		"subsets": []any{map[string]any{"addresses": []any{map[string]any{"ip": ip}},
			"ports": []any{map[string]any{"name": "https", "port": port, "protocol": "TCP"}}}}}
	slice := meta.Object{"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default", "generation": int64(1),
			"labels": map[string]any{"kubernetes.io/service-name": "kubernetes"},
			"managedFields": []any{map[string]any{"manager": "kube-apiserver", "operation": "Update", "apiVersion": "discovery.k8s.io/v1",
				"time": now, "fieldsType": "FieldsV1", "fieldsV1": map[string]any{
					"f:addressType": empty, "f:endpoints": empty,
					"f:metadata": map[string]any{"f:labels": map[string]any{".": empty, "f:kubernetes.io/service-name": empty}},
					"f:ports": empty}}}},
		"addressType": family,
		"endpoints": []any{map[string]any{"addresses": []any{ip}, "conditions": map[string]any{"ready": true}}},
		"ports":     []any{map[string]any{"name": "https", "port": port, "protocol": "TCP"}}}
	if err := s.Preload(endpointsGR, endpoints); err != nil && !meta.IsNotFound(err) {
		return err
	}
	if err := s.Preload(endpointSlicesGR, slice); err != nil && !meta.IsNotFound(err) {
		return err
	}
	return nil
}
