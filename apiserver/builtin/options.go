package builtin

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Options configures what the built-in kinds do as a cluster does them:
// the ranges Services are allocated from and the default/kubernetes
// Service. The zero value means the defaults.
type Options struct {
	// ServiceClusterIPRange is the CIDR cluster IPs are allocated from
	// (kube-apiserver's --service-cluster-ip-range); empty means
	// 10.96.0.0/16, the reference server's (kube-apiserver's own flag
	// default is 10.0.0.0/24, kubeadm's 10.96.0.0/12).
	ServiceClusterIPRange string
	// ServiceNodePortRange is the range node ports are allocated from, as
	// "first-last" (--service-node-port-range); empty means 30000-32767.
	// Servers sharing a store (kube-apiserver on the same etcd included)
	// must use one range: they share one RangeAllocation of it, and a
	// server refuses node ports while the stored one is of another range.
	ServiceNodePortRange string
	// KubernetesServicePort is the targetPort of the default/kubernetes
	// Service: the port the API server listens on (kube's secure port);
	// 0 means 6443.
	KubernetesServicePort int
	// AdvertiseAddress is the IP the API server is reached at
	// (kube-apiserver's --advertise-address): the address of the
	// default/kubernetes Endpoints and EndpointSlice, with
	// KubernetesServicePort, as kube's endpoint reconciler writes them.
	// Empty means none, as with kube's --endpoint-reconciler-type=none.
	AdvertiseAddress string
}

// serviceRanges are parsed Options: what a Service is allocated from.
type serviceRanges struct {
	prefix         netip.Prefix
	portBase, last int // node ports portBase..last
}

// DefaultServiceClusterIPRange is the CIDR of Options' zero value.
const DefaultServiceClusterIPRange = "10.96.0.0/16"

var defaultRanges = func() *serviceRanges {
	r, err := Options{}.ranges()
	if err != nil {
		panic(err)
	}
	return r
}()

func (o Options) ranges() (*serviceRanges, error) {
	cidr := o.ServiceClusterIPRange
	if cidr == "" {
		cidr = DefaultServiceClusterIPRange
	}
	p, err := netip.ParsePrefix(cidr)
	if err != nil {
		return nil, fmt.Errorf("builtin: service cluster IP range %q: %w", cidr, err)
	}
	if p != p.Masked() {
		return nil, fmt.Errorf("builtin: service cluster IP range %q is not a network address (%s)", cidr, p.Masked())
	}
	hostBits := p.Addr().BitLen() - p.Bits()
	if hostBits < 2 || hostBits > 20 {
		return nil, fmt.Errorf("builtin: service cluster IP range %q must hold between 4 and 2^20 addresses", cidr)
	}
	r := &serviceRanges{prefix: p, portBase: 30000, last: 32767}
	if pr := o.ServiceNodePortRange; pr != "" {
		first, last, ok := strings.Cut(pr, "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(first))
		b, err2 := strconv.Atoi(strings.TrimSpace(last))
		if !ok || err1 != nil || err2 != nil || a < 1 || b > 65535 || a > b {
			return nil, fmt.Errorf("builtin: service node port range %q is not first-last within 1-65535", pr)
		}
		r.portBase, r.last = a, b
	}
	return r, nil
}

// ResourcesWith is Resources with Services allocated from o's ranges.
func ResourcesWith(o Options) ([]apiserver.Resource, error) {
	ranges, err := o.ranges()
	if err != nil {
		return nil, err
	}
	rs := Resources()
	for i := range rs {
		if rs[i].Group == "" && rs[i].Plural == "services" {
			rs[i].Strategy = withRanges(rs[i].Strategy, ranges)
		}
	}
	return rs, nil
}

// withRanges is s, the Service's strategy, allocating from ranges: inside
// the strategies that wrap it (wrapper) too.
func withRanges(s apiserver.Strategy, ranges *serviceRanges) apiserver.Strategy {
	switch t := s.(type) {
	case serviceStrategy:
		t.ranges = ranges
		return t
	case wrapper:
		return t.withInner(withRanges(t.Unwrap(), ranges))
	}
	return s
}

// wrapper is a builtin strategy that wraps a kind's own (apiserver finds
// the wrapped one's capabilities through Unwrap).
type wrapper interface {
	Unwrap() apiserver.Strategy
	withInner(apiserver.Strategy) apiserver.Strategy
}

// PostStartHooks are the start-up work of a cluster the built-in kinds
// need, as kube-apiserver's post-start hooks do it: the bootstrap
// controller's default/kubernetes Service, its cluster IP the first of the
// range, and the default ServiceCIDR "kubernetes" of the range; the
// Endpoints and EndpointSlice of default/kubernetes, as kube's endpoint
// reconciler writes them, when o.AdvertiseAddress is set; the system PriorityClasses; the autoregistration's APIService for each served
// group version, when APIServices are served. Pass them as apiserver.Config.PostStartHooks with the resources
// of ResourcesWith(o).
func PostStartHooks(o Options) ([]apiserver.PostStartHook, error) {
	ranges, err := o.ranges()
	if err != nil {
		return nil, err
	}
	port := o.KubernetesServicePort
	if port == 0 {
		port = 6443
	}
	var advertise netip.Addr
	if o.AdvertiseAddress != "" {
		if advertise, err = netip.ParseAddr(o.AdvertiseAddress); err != nil {
			return nil, fmt.Errorf("builtin: advertise address %q: %w", o.AdvertiseAddress, err)
		}
	}
	return []apiserver.PostStartHook{{Name: "bootstrap-controller", Run: func(ctx context.Context, s *apiserver.Server) error {
		if err := bootstrapKubernetesService(s, ranges, int64(port)); err != nil {
			return err
		}
		now := meta.FormatTime(s.Now())
		if err := bootstrapServiceCIDR(s, ranges, now); err != nil {
			return err
		}
		if advertise.IsValid() {
			return bootstrapKubernetesEndpoints(s, advertise, int64(port), now)
		}
		return nil
	}}, {Name: "scheduling/bootstrap-system-priority-classes", Run: bootstrapSystemPriorityClasses},
		{Name: "kube-apiserver-autoregistration", Run: autoregistration}}, nil
}

// bootstrapKubernetesService stores the default/kubernetes Service, and
// the IPAddress of its cluster IP, as kube's bootstrap controller and
// allocator leave them: the object a loopback create of it makes, built
// here and stored directly (Server.Preload), since a create through the
// pipeline would nearly double the server's start-up. An existing one
// stays.
func bootstrapKubernetesService(s *apiserver.Server, r *serviceRanges, port int64) error {
	now := meta.FormatTime(s.Now())
	ip := r.first()
	family := "IPv4"
	if ip.Is6() {
		family = "IPv6"
	}
	empty := map[string]any{}
	svc := meta.Object{"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": "kubernetes", "namespace": "default",
			"labels": map[string]any{"component": "apiserver", "provider": "kubernetes"},
			"managedFields": []any{map[string]any{"manager": "kube-apiserver", "operation": "Update", "apiVersion": "v1",
				"time": now, "fieldsType": "FieldsV1", "fieldsV1": map[string]any{
					"f:metadata": map[string]any{"f:labels": map[string]any{".": empty, "f:component": empty, "f:provider": empty}},
					"f:spec": map[string]any{"f:clusterIP": empty, "f:internalTrafficPolicy": empty, "f:ipFamilyPolicy": empty,
						"f:ports": map[string]any{".": empty, `k:{"port":443,"protocol":"TCP"}`: map[string]any{".": empty,
							"f:name": empty, "f:port": empty, "f:protocol": empty, "f:targetPort": empty}},
						"f:sessionAffinity": empty, "f:type": empty}}}}},
		"spec": map[string]any{"clusterIP": ip.String(), "clusterIPs": []any{ip.String()}, "internalTrafficPolicy": "Cluster",
			"ipFamilies": []any{family}, "ipFamilyPolicy": "SingleStack",
			"ports":           []any{map[string]any{"name": "https", "port": int64(443), "protocol": "TCP", "targetPort": port}},
			"sessionAffinity": "None", "type": "ClusterIP"},
		"status": map[string]any{"loadBalancer": map[string]any{}}}
	if err := s.Preload(servicesGR, svc); err != nil {
		if meta.IsNotFound(err) {
			return nil // a server without Services
		}
		return err
	}
	addr := ipAddressObject(ip, "default", "kubernetes")
	addr.MetadataForWrite()["managedFields"] = []any{map[string]any{"manager": "kube-apiserver", "operation": "Update",
		"apiVersion": "networking.k8s.io/v1", "time": now, "fieldsType": "FieldsV1", "fieldsV1": map[string]any{
			"f:metadata": map[string]any{"f:labels": map[string]any{".": empty, "f:ipaddress.kubernetes.io/ip-family": empty,
				"f:ipaddress.kubernetes.io/managed-by": empty}},
			"f:spec": map[string]any{"f:parentRef": map[string]any{".": empty, "f:name": empty, "f:namespace": empty,
				"f:resource": empty}}}}}
	if err := s.Preload(ipAddressesGR, addr); err != nil && !meta.IsNotFound(err) {
		return err
	}
	return nil
}
