package builtin

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// services/proxy and nodes/proxy answered as kube answers them when the
// backend cannot be reached (kapi proxies to nothing): a service's
// endpoints, a node's kubelet address.

var endpointsGR = meta.GroupResource{Resource: "endpoints"}

// Subresources are a service's proxy.
func (serviceStrategy) Subresources() []apiserver.Subresource {
	return []apiserver.Subresource{{Name: "proxy", Verbs: []string{"create", "delete", "get", "patch", "update"},
		Kind: meta.GroupVersionKind{Kind: "ServiceProxyOptions"}, Connect: true, Serve: serveServiceProxy}}
}

// proxyName splits a proxy's [scheme:]name[:port].
func proxyName(id string) (string, bool) {
	parts := strings.Split(id, ":")
	switch len(parts) {
	case 1:
		return parts[0], true
	case 2:
		return parts[0], true
	case 3:
		return parts[1], true
	}
	return "", false
}

// serveServiceProxy: kube proxies to one of the service's endpoints; it
// reads the Endpoints of the service's name, which a cluster without an
// endpoints controller lacks (a services NotFound, as kube words it).
func serveServiceProxy(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	name, ok := proxyName(c.Name)
	if !ok {
		return 0, nil, meta.BadRequest(fmt.Sprintf("invalid service request %q", c.Name))
	}
	if _, err := c.Get(servicesGR, c.Namespace, name); err != nil {
		return 0, nil, err
	}
	ep, err := c.Get(endpointsGR, c.Namespace, name)
	if err != nil {
		return 0, nil, meta.NotFound(servicesGR, name)
	}
	for _, s := range meta.AsList(ep.Data()["subsets"]) {
		for _, a := range meta.AsList(asMap(s)["addresses"]) {
			if ip, _ := asMap(a)["ip"].(string); ip != "" {
				return 0, nil, kubeletUnreachable(ip, func(e error) string { return "error trying to reach service: " + e.Error() })
			}
		}
	}
	st := meta.ServiceUnavailable(fmt.Sprintf("no endpoints available for service %q", name))
	return 0, nil, st
}

// serveNodeProxy: kube proxies to the node's kubelet, refusing addresses
// that are not global unicast ones.
func serveNodeProxy(c *apiserver.SubresourceCall) (int, meta.Object, error) {
	name, ok := proxyName(c.Name)
	if !ok {
		return 0, nil, meta.BadRequest(fmt.Sprintf("invalid node request %q", c.Name))
	}
	if _, err := c.Get(nodesGR, "", name); err != nil {
		return 0, nil, err
	}
	host, err := kubeletAddress(c.Write, name)
	if err != nil {
		return 0, nil, err
	}
	h, _, _ := strings.Cut(host, ":")
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil && (!a.IsGlobalUnicast() || a.IsLoopback()) {
		return 0, nil, meta.BadRequest("address not allowed")
	}
	return 0, nil, kubeletUnreachable(host, func(e error) string { return "error trying to reach service: " + e.Error() })
}

// nodeSubresources are a node's proxy (the Node kind's strategy lists it).
var nodeSubresources = []apiserver.Subresource{{Name: "proxy", Verbs: []string{"create", "delete", "get", "patch", "update"},
	Kind: meta.GroupVersionKind{Kind: "NodeProxyOptions"}, Connect: true, Serve: serveNodeProxy}}
