package builtin

import (
	"net"
	"strconv"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// endpointsResource is core/v1 endpoints, deprecated since 1.33 in favour
// of EndpointSlices (every request carries kube's warning).
func endpointsResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Endpoints", Plural: "endpoints", Singular: "endpoints", Namespaced: true,
		ShortNames: []string{"ep"}, WithoutGeneration: true, PrinterColumns: endpointsColumns, GenericDelete: true, Strategy: endpointsStrategy{},
		Deprecated: "v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice"}
}

// endpointsStrategy is what Endpoints do differently.
type endpointsStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Endpoints: ports are TCP unless told.
func (endpointsStrategy) Default(o meta.Object) {
	for _, s := range meta.AsList(o["subsets"]) {
		ss, _ := s.(map[string]any)
		for _, p := range meta.AsList(ss["ports"]) {
			if p, ok := p.(map[string]any); ok {
				setDefault(p, "protocol", "TCP")
			}
		}
	}
}

var endpointsColumns = []apiserver.PrinterColumn{
	column("Endpoints", "string", propertyDoc("io.k8s.api.core.v1.Endpoints", "subsets"), 0,
		func(o meta.Object, _ time.Time) any { return formatEndpoints(o) }),
	apiserver.AgeColumn(),
}

// formatEndpoints lists up to three ready addresses (with each port), as
// kube's printer does.
func formatEndpoints(o meta.Object) string {
	subsets := meta.AsList(o["subsets"])
	if len(subsets) == 0 {
		return "<none>"
	}
	var list []string
	for _, s := range subsets {
		ss, _ := s.(map[string]any)
		addrs := meta.AsList(ss["addresses"])
		ports := meta.AsList(ss["ports"])
		if len(ports) == 0 {
			for _, a := range addrs {
				m, _ := a.(map[string]any)
				ip, _ := m["ip"].(string)
				list = append(list, ip)
			}
			continue
		}
		for _, p := range ports {
			pm, _ := p.(map[string]any)
			port, _ := meta.AsInt64(pm["port"])
			for _, a := range addrs {
				m, _ := a.(map[string]any)
				ip, _ := m["ip"].(string)
				list = append(list, net.JoinHostPort(ip, strconv.FormatInt(port, 10)))
			}
		}
	}
	if len(list) == 0 {
		return ""
	}
	return listWithMore(list, 3)
}
