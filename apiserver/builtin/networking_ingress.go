package builtin

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// ingressResource is networking.k8s.io/v1 ingresses.
func ingressResource() apiserver.Resource {
	return apiserver.Resource{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress", Plural: "ingresses", Namespaced: true,
		ShortNames: []string{"ing"}, StatusSubresource: true, PrinterColumns: ingressColumns, GenericDelete: true, Strategy: ingressStrategy{}}
}

// ingressStrategy is what an Ingress does differently.
type ingressStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate starts an ingress with no load balancer.
func (ingressStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{"loadBalancer": map[string]any{}}
}

// ingressHosts lists up to three rule hosts, "*" for none.
func ingressHosts(o meta.Object) string {
	rules := meta.AsList(field(o, "spec", "rules"))
	var list []string
	for _, r := range rules {
		if len(list) == 3 {
			return fmt.Sprintf("%s + %d more...", strings.Join(list, ","), len(rules)-3)
		}
		if h := str(r.(map[string]any), "host"); h != "" {
			list = append(list, h)
		}
	}
	if len(list) == 0 {
		return "*"
	}
	return strings.Join(list, ",")
}

// ingressAddress lists the load balancer's addresses, sorted.
func ingressAddress(o meta.Object) string {
	seen := map[string]bool{}
	var list []string
	for _, i := range meta.AsList(field(o, "status", "loadBalancer", "ingress")) {
		m, _ := i.(map[string]any)
		v := stringOr(m["ip"], "")
		if v == "" {
			v = stringOr(m["hostname"], "")
		}
		if v != "" && !seen[v] {
			seen[v] = true
			list = append(list, v)
		}
	}
	sort.Strings(list)
	return strings.Join(list, ",")
}

var ingressColumns = []apiserver.PrinterColumn{
	column("Class", "string", "The name of the IngressClass resource that should be used for additional configuration", 0,
		func(o meta.Object, now time.Time) any {
			return stringOr(field(o, "spec", "ingressClassName"), "<none>")
		}),
	column("Hosts", "string", "Hosts that incoming requests are matched against before the ingress rule", 0,
		func(o meta.Object, now time.Time) any { return ingressHosts(o) }),
	column("Address", "string", "Address is a list containing ingress points for the load-balancer", 0,
		func(o meta.Object, now time.Time) any { return ingressAddress(o) }),
	column("Ports", "string", "Ports of TLS configurations that open", 0,
		func(o meta.Object, now time.Time) any {
			if len(meta.AsList(field(o, "spec", "tls"))) > 0 {
				return "80, 443"
			}
			return "80"
		}),
	apiserver.AgeColumn(),
}
