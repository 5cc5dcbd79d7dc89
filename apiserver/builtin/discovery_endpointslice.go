package builtin

import (
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// endpointSliceResource is discovery.k8s.io/v1 endpointslices.
func endpointSliceResource() apiserver.Resource {
	return apiserver.Resource{Group: "discovery.k8s.io", Version: "v1", Kind: "EndpointSlice", Plural: "endpointslices",
		Namespaced: true, PrinterColumns: endpointSliceColumns, GenericDelete: true, Strategy: endpointSliceStrategy{}}
}

// endpointSliceStrategy is what an EndpointSlice does differently.
type endpointSliceStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_EndpointPort: unnamed TCP ports.
func (endpointSliceStrategy) Default(o meta.Object) {
	for _, p := range meta.AsList(o["ports"]) {
		if pm, ok := p.(map[string]any); ok {
			setDefault(pm, "name", "")
			setDefault(pm, "protocol", "TCP")
		}
	}
}

// PrepareForCreate drops the endpoints' deprecatedTopology, as kube does
// on every write through discovery.k8s.io/v1.
func (endpointSliceStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	dropTopology(o, nil)
}

// PrepareForUpdate is the generic split, and kube's dropping of the
// endpoints' deprecatedTopology when the endpoints change (a node name it
// held before, as kubernetes.io/hostname, moves to nodeName).
func (endpointSliceStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	next := apiserver.PrepareStatusUpdate(w, o, old)
	if !equalJSON(next["endpoints"], old["endpoints"]) {
		dropTopology(next, old)
	}
	return next
}

// dropTopology is kube's dropTopologyOnV1.
func dropTopology(o, old meta.Object) {
	prev := map[string]bool{}
	for _, ep := range meta.AsList(old["endpoints"]) {
		if n, _ := asMap(asMap(ep)["deprecatedTopology"])["kubernetes.io/hostname"].(string); n != "" {
			prev[n] = true
		}
	}
	for _, ep := range meta.AsList(o["endpoints"]) {
		m := asMap(ep)
		if m == nil {
			continue
		}
		if n, ok := asMap(m["deprecatedTopology"])["kubernetes.io/hostname"].(string); ok && m["nodeName"] == nil && prev[n] &&
			len(schema.DNS1123Subdomain(n)) == 0 {
			m["nodeName"] = n
		}
		delete(m, "deprecatedTopology")
	}
}

var endpointSliceColumns = []apiserver.PrinterColumn{
	column("AddressType", "string", sinceRelease(36, "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.",
		propertyDoc("io.k8s.api.discovery.v1.EndpointSlice", "addressType")), 0,
		func(o meta.Object, now time.Time) any { return str(o, "addressType") }),
	column("Ports", "string", sinceRelease(36, "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates \"all ports\". Each slice may include a maximum of 100 ports.",
		propertyDoc("io.k8s.api.discovery.v1.EndpointSlice", "ports")), 0,
		func(o meta.Object, now time.Time) any {
			var list []string
			for _, p := range meta.AsList(o["ports"]) {
				pm, _ := p.(map[string]any)
				switch {
				case pm["port"] != nil:
					n, _ := meta.AsInt64(pm["port"])
					list = append(list, strconv.FormatInt(n, 10))
				case pm["name"] != nil:
					list = append(list, stringOr(pm["name"], ""))
				default:
					list = append(list, "*")
				}
			}
			return listWithMore(list, 3)
		}),
	column("Endpoints", "string", propertyDoc("io.k8s.api.discovery.v1.EndpointSlice", "endpoints"), 0,
		func(o meta.Object, now time.Time) any {
			var list []string
			for _, e := range meta.AsList(o["endpoints"]) {
				em, _ := e.(map[string]any)
				for _, a := range meta.AsList(em["addresses"]) {
					list = append(list, stringOr(a, ""))
				}
			}
			return listWithMore(list, 3)
		}),
	apiserver.AgeColumn(),
}
