package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateServiceCIDR: one or two CIDRs, each valid in
// kube's strict sense, of two families when two.
func (serviceCIDRStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	cidrs := stringList(field(o, "spec", "cidrs"))
	switch {
	case len(cidrs) == 0:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.cidrs", Detail: "at least one CIDR required"})
		return e.list
	case len(cidrs) > 2:
		e.invalid("spec.cidrs", kubeValue{fmt.Sprintf("networking.ServiceCIDRSpec{CIDRs:%s}", goStrings(cidrs)), jsonStruct("CIDRs", cidrs)}, "may only hold up to 2 values")
		return e.list
	}
	for i, c := range cidrs {
		e.invalidAll(fmt.Sprintf("spec.cidrs[%d]", i), c, kubeCIDRErrors(c))
	}
	if len(e.list) == 0 && len(cidrs) == 2 && cidrFamily(cidrs[0]) == cidrFamily(cidrs[1]) {
		e.invalid("spec.cidrs", goStrings(cidrs), "may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64")
	}
	return e.list
}

// ValidateUpdate keeps the CIDRs.
func (serviceCIDRStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if w.Subresource != "" {
		return nil
	}
	var e fieldErrs
	cidrs := field(o, "spec", "cidrs")
	e.immutable("spec.cidrs", cidrs, field(old, "spec", "cidrs"), goStrings(stringList(cidrs)))
	return e.list
}
