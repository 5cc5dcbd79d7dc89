package builtin

import (
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
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
	for _, p := range asList(o["ports"]) {
		if pm, ok := p.(map[string]any); ok {
			setDefault(pm, "name", "")
			setDefault(pm, "protocol", "TCP")
		}
	}
}

var endpointSliceColumns = []apiserver.PrinterColumn{
	column("AddressType", "string", "addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.", 0,
		func(o meta.Object, now time.Time) any { return str(o, "addressType") }),
	column("Ports", "string", "ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates \"all ports\". Each slice may include a maximum of 100 ports.", 0,
		func(o meta.Object, now time.Time) any {
			var list []string
			for _, p := range asList(o["ports"]) {
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
	column("Endpoints", "string", "endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.", 0,
		func(o meta.Object, now time.Time) any {
			var list []string
			for _, e := range asList(o["endpoints"]) {
				em, _ := e.(map[string]any)
				for _, a := range asList(em["addresses"]) {
					list = append(list, stringOr(a, ""))
				}
			}
			return listWithMore(list, 3)
		}),
	apiserver.AgeColumn(),
}
