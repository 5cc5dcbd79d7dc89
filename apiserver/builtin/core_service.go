package builtin

import (
	"fmt"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// serviceResource is core/v1 services.
func serviceResource() apiserver.Resource {
	return apiserver.Resource{Version: "v1", Kind: "Service", Plural: "services", Namespaced: true, ShortNames: []string{"svc"},
		Categories: []string{"all"}, StatusSubresource: true, ReturnDeletedObject: true,
		PrinterColumns: serviceColumns, WithoutGeneration: true, Strategy: serviceStrategy{}}
}

// serviceStrategy is what a Service does differently.
type serviceStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_Service for the common fields.
func (serviceStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	setDefault(spec, "type", "ClusterIP")
	setDefault(spec, "sessionAffinity", "None")
	if spec["type"] != "ExternalName" {
		setDefault(spec, "internalTrafficPolicy", "Cluster")
		setDefault(spec, "ipFamilyPolicy", "SingleStack")
		setDefault(spec, "ipFamilies", []any{"IPv4"})
	}
	for _, p := range asList(spec["ports"]) {
		if p, ok := p.(map[string]any); ok {
			setDefault(p, "protocol", "TCP")
			if _, ok := p["targetPort"]; !ok {
				p["targetPort"] = p["port"]
			}
		}
	}
	setDefault(o, "status", map[string]any{"loadBalancer": map[string]any{}})
}

var serviceColumns = []apiserver.PrinterColumn{
	column("Type", "string", "The type of the service", 0, func(o meta.Object, _ time.Time) any { return str(o, "spec", "type") }),
	column("Cluster-IP", "string", "The cluster IP of the service", 0, func(o meta.Object, _ time.Time) any {
		if ip := str(o, "spec", "clusterIP"); ip != "" {
			return ip
		}
		return "<none>"
	}),
	column("External-IP", "string", "The external IP of the service", 0, func(o meta.Object, _ time.Time) any {
		var ips []string
		for _, ing := range asList(field(o, "status", "loadBalancer", "ingress")) {
			if m, ok := ing.(map[string]any); ok {
				if ip, _ := m["ip"].(string); ip != "" {
					ips = append(ips, ip)
				} else if h, _ := m["hostname"].(string); h != "" {
					ips = append(ips, h)
				}
			}
		}
		for _, ip := range asList(field(o, "spec", "externalIPs")) {
			if s, ok := ip.(string); ok {
				ips = append(ips, s)
			}
		}
		if name := str(o, "spec", "externalName"); name != "" {
			ips = append(ips, name)
		}
		if len(ips) == 0 {
			if str(o, "spec", "type") == "LoadBalancer" {
				return "<pending>"
			}
			return "<none>"
		}
		return strings.Join(ips, ",")
	}),
	column("Port(s)", "string", "The ports of the service", 0, func(o meta.Object, _ time.Time) any {
		var ports []string
		for _, p := range asList(field(o, "spec", "ports")) {
			m, _ := p.(map[string]any)
			port, _ := meta.AsInt64(m["port"])
			proto, _ := m["protocol"].(string)
			if proto == "" {
				proto = "TCP"
			}
			s := fmt.Sprintf("%d", port)
			if np, ok := meta.AsInt64(m["nodePort"]); ok && np != 0 {
				s += fmt.Sprintf(":%d", np)
			}
			ports = append(ports, s+"/"+proto)
		}
		if len(ports) == 0 {
			return "<none>"
		}
		return strings.Join(ports, ",")
	}),
	apiserver.AgeColumn(),
	column("Selector", "string", "The selector of the service", 1, func(o meta.Object, _ time.Time) any {
		return selectorString(field(o, "spec", "selector"))
	}),
}
