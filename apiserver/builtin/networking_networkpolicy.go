package builtin

import (
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// networkPolicyResource is networking.k8s.io/v1 networkpolicies.
func networkPolicyResource() apiserver.Resource {
	return apiserver.Resource{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy", Plural: "networkpolicies",
		Namespaced: true, ShortNames: []string{"netpol"}, PrinterColumns: networkPolicyColumns, GenericDelete: true, Strategy: networkPolicyStrategy{}}
}

// networkPolicyStrategy is what a NetworkPolicy does differently.
type networkPolicyStrategy struct{ apiserver.GenericStrategy }

// Default mirrors SetDefaults_NetworkPolicy(Port): a policy without types
// is an Ingress policy (and an Egress one when it has egress rules); ports
// are TCP unless told.
func (networkPolicyStrategy) Default(o meta.Object) {
	spec := obj(o, "spec")
	if len(meta.AsList(spec["policyTypes"])) == 0 {
		types := []any{"Ingress"}
		if len(meta.AsList(spec["egress"])) > 0 {
			types = append(types, "Egress")
		}
		spec["policyTypes"] = types
	}
	for _, dir := range []string{"ingress", "egress"} {
		for _, r := range meta.AsList(spec[dir]) {
			rule, _ := r.(map[string]any)
			for _, p := range meta.AsList(rule["ports"]) {
				if pm, ok := p.(map[string]any); ok {
					setDefault(pm, "protocol", "TCP")
				}
			}
		}
	}
}

var networkPolicyColumns = []apiserver.PrinterColumn{
	column("Pod-Selector", "string", sinceRelease(36, "Selects the pods to which this NetworkPolicy object applies.  The array of ingress rules is applied to any pods selected by this field. Multiple network policies can select the same set of pods.  In this case, the ingress rules for each are combined additively. This field is NOT optional and follows standard label selector semantics. An empty podSelector matches all pods in this namespace.",
		propertyDoc("io.k8s.api.networking.v1.NetworkPolicySpec", "podSelector")), 0,
		func(o meta.Object, now time.Time) any { return formatLabelSelector(field(o, "spec", "podSelector")) }),
	apiserver.AgeColumn(),
}
