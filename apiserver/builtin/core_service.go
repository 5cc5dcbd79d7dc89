package builtin

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// serviceResource is core/v1 services.
func serviceResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Service", Plural: "services", Namespaced: true, ShortNames: []string{"svc"},
		Categories: []string{"all"}, StatusSubresource: true, ReturnDeletedObject: true,
		PrinterColumns: serviceColumns, WithoutGeneration: true, Strategy: serviceStrategy{},
		SelectableFields: []string{"spec.clusterIP", "spec.type"}}
}

// serviceStrategy is what a Service does differently; its cluster IPs and
// node ports are allocated from ranges (nil: the defaults) in
// core_service_allocation.go.
type serviceStrategy struct {
	apiserver.GenericStrategy
	ranges *serviceRanges
	// release is the kube release served (its name rules).
	release apiserver.Release
}

// Default mirrors SetDefaults_Service: type ClusterIP, no session
// affinity (three hours of it for ClientIP), TCP ports aimed at themselves,
// cluster-wide traffic policies, load balancers with node ports; and the
// status kube gives every service.
func (serviceStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "type", "ClusterIP")
	setDefault(spec, "sessionAffinity", "None")
	switch spec["sessionAffinity"] {
	case "None":
		delete(spec, "sessionAffinityConfig")
	case "ClientIP":
		if _, ok := field(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds").(int64); !ok {
			spec["sessionAffinityConfig"] = map[string]any{"clientIP": map[string]any{"timeoutSeconds": int64(10800)}}
		}
	}
	for _, p := range meta.AsList(spec["ports"]) {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
			if tp, ok := p["targetPort"]; !ok || tp == "" || tp == int64(0) {
				p["targetPort"] = p["port"]
			}
		}
	}
	typ := spec["type"]
	if typ == "NodePort" || typ == "LoadBalancer" || (typ == "ClusterIP" && len(meta.AsList(spec["externalIPs"])) > 0) {
		setDefault(spec, "externalTrafficPolicy", "Cluster")
	}
	if typ == "NodePort" || typ == "LoadBalancer" || typ == "ClusterIP" {
		setDefault(spec, "internalTrafficPolicy", "Cluster")
	}
	if typ == "LoadBalancer" {
		setDefault(spec, "allocateLoadBalancerNodePorts", true)
	}
	setDefault(o, "status", map[string]any{"loadBalancer": map[string]any{}})
}

// PrepareForCreate lists a set clusterIP among clusterIPs and gives a
// service the single IPv4 family, as kube's service storage does when it
// allocates (allocation itself is not here; nobody owns these fields).
func (serviceStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	spec := obj(o, "spec")
	if spec["type"] != "ExternalName" {
		setDefault(spec, "ipFamilyPolicy", "SingleStack")
		setDefault(spec, "ipFamilies", []any{"IPv4"})
	}
	if ip, _ := spec["clusterIP"].(string); ip != "" && len(meta.AsList(spec["clusterIPs"])) == 0 {
		spec["clusterIPs"] = []any{ip}
	}
}

var serviceColumns = []apiserver.PrinterColumn{
	column("Type", "string", propertyDoc("io.k8s.api.core.v1.ServiceSpec", "type"), 0,
		func(o meta.Object, _ time.Time) any { return str(o, "spec", "type") }),
	column("Cluster-IP", "string", propertyDoc("io.k8s.api.core.v1.ServiceSpec", "clusterIP"), 0,
		func(o meta.Object, _ time.Time) any {
			if ips := meta.AsList(field(o, "spec", "clusterIPs")); len(ips) > 0 {
				return ips[0]
			}
			return "<none>"
		}),
	column("External-IP", "string", propertyDoc("io.k8s.api.core.v1.ServiceSpec", "externalIPs"), 0,
		func(o meta.Object, _ time.Time) any { return serviceExternalIP(o) }),
	column("Port(s)", "string", propertyDoc("io.k8s.api.core.v1.ServiceSpec", "ports"), 0,
		func(o meta.Object, _ time.Time) any {
			var ports []string
			for _, p := range meta.AsList(field(o, "spec", "ports")) {
				m, _ := p.(map[string]any)
				port, _ := meta.AsInt64(m["port"])
				proto, _ := m["protocol"].(string)
				if np, _ := meta.AsInt64(m["nodePort"]); np > 0 {
					ports = append(ports, fmt.Sprintf("%d:%d/%s", port, np, proto))
				} else {
					ports = append(ports, fmt.Sprintf("%d/%s", port, proto))
				}
			}
			if len(ports) == 0 {
				return "<none>"
			}
			return strings.Join(ports, ",")
		}),
	apiserver.AgeColumn(),
	column("Selector", "string", propertyDoc("io.k8s.api.core.v1.ServiceSpec", "selector"), 1,
		func(o meta.Object, _ time.Time) any { return selectorString(field(o, "spec", "selector")) }),
}

// serviceExternalIP is the External-IP cell: the external IPs, the load
// balancer's addresses (or <pending>), or the external name, by type.
func serviceExternalIP(o meta.Object) string {
	var external []string
	for _, ip := range meta.AsList(field(o, "spec", "externalIPs")) {
		if s, ok := ip.(string); ok {
			external = append(external, s)
		}
	}
	switch str(o, "spec", "type") {
	case "ClusterIP", "NodePort":
		if len(external) > 0 {
			return strings.Join(external, ",")
		}
		return "<none>"
	case "LoadBalancer":
		seen := map[string]bool{}
		var lb []string
		for _, ing := range meta.AsList(field(o, "status", "loadBalancer", "ingress")) {
			m, _ := ing.(map[string]any)
			v, _ := m["ip"].(string)
			if v == "" {
				v, _ = m["hostname"].(string)
			}
			if v != "" && !seen[v] {
				seen[v] = true
				lb = append(lb, v)
			}
		}
		sort.Strings(lb)
		if len(external) > 0 {
			return strings.Join(append(lb, external...), ",")
		}
		if len(lb) > 0 {
			// kube clips the list to 16 characters outside -o wide; the server
			// prints the wide form.
			return strings.Join(lb, ",")
		}
		return "<pending>"
	case "ExternalName":
		return str(o, "spec", "externalName")
	}
	return "<unknown>"
}
