package builtin

import (
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// serviceCIDRResource is networking.k8s.io/v1 servicecidrs.
func serviceCIDRResource() apiserver.Resource {
	return apiserver.Resource{StoredVersion: "v1beta1", Group: "networking.k8s.io", Version: "v1", Kind: "ServiceCIDR", Plural: "servicecidrs",
		StatusSubresource: true, WithoutGeneration: true, PrinterColumns: serviceCIDRColumns, GenericDelete: true, Strategy: serviceCIDRStrategy{}}
}

// serviceCIDRStrategy is what a ServiceCIDR does differently.
type serviceCIDRStrategy struct{ apiserver.GenericStrategy }

// PrepareForCreate starts a service CIDR with an empty status.
func (serviceCIDRStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	o["status"] = map[string]any{}
}

var serviceCIDRColumns = []apiserver.PrinterColumn{
	column("CIDRs", "string", propertyDoc("io.k8s.api.networking.v1.ServiceCIDRSpec", "cidrs"), 0,
		func(o meta.Object, now time.Time) any {
			var cidrs []string
			for _, c := range meta.AsList(field(o, "spec", "cidrs")) {
				cidrs = append(cidrs, stringOr(c, ""))
			}
			return strings.Join(cidrs, ",")
		}),
	apiserver.AgeColumn(),
}
