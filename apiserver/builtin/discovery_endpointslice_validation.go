package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// An EndpointSlice is checked as kube's ValidateEndpointSliceCreate and
// ValidateEndpointSliceUpdate check it: its address type, each endpoint's
// addresses of that type (IPs that are not special), hostname, and its
// ports' names, protocols and application protocols.

// Validate is kube's ValidateEndpointSliceCreate.
func (endpointSliceStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.endpointSlice(o, "FQDN", "IPv4", "IPv6")
	return e.list
}

// ValidateUpdate is kube's ValidateEndpointSliceUpdate: the deprecated
// "IP" address type is still taken, and the address type never changes.
func (endpointSliceStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.endpointSlice(o, "FQDN", "IP", "IPv4", "IPv6")
	if !equalJSON(o["addressType"], old["addressType"]) {
		e.invalid("addressType", o["addressType"], "field is immutable")
	}
	return e.list
}

// endpointSlice is kube's ValidateEndpointSlice with the address types
// it takes.
func (e *fieldErrs) endpointSlice(o meta.Object, addressTypes ...string) {
	typ, _ := o["addressType"].(string)
	if typ == "" {
		e.required("addressType")
	} else {
		e.enum("addressType", typ, addressTypes...)
	}
	endpoints := asList(o["endpoints"])
	if len(endpoints) > 1000 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: "endpoints", Value: len(endpoints), Detail: "must have at most 1000 items"})
	} else {
		for i, ep := range endpoints {
			e.endpoint(fmt.Sprintf("endpoints[%d]", i), asMap(ep), typ)
		}
	}
	ports := asList(o["ports"])
	if len(ports) > 100 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: "ports", Value: len(ports), Detail: "must have at most 100 items"})
		return
	}
	names := map[string]bool{}
	for i, p := range ports {
		port := asMap(p)
		path := fmt.Sprintf("ports[%d]", i)
		name, _ := port["name"].(string)
		if name != "" {
			e.invalidAll(path+".name", name, schema.DNS1123Label(name))
		}
		if names[name] {
			e.duplicate(path+".name", name)
		}
		names[name] = true
		if proto, ok := port["protocol"].(string); !ok {
			e.required(path + ".protocol")
		} else {
			e.enum(path+".protocol", proto, "SCTP", "TCP", "UDP")
		}
		if app, ok := port["appProtocol"].(string); ok {
			e.invalidAll(path+".appProtocol", app, selectors.QualifiedNameErrors(app))
		}
	}
}

// endpoint is one endpoint of kube's validateEndpoints.
func (e *fieldErrs) endpoint(path string, ep map[string]any, addressType string) {
	addresses := asList(ep["addresses"])
	switch {
	case len(addresses) == 0:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".addresses", Detail: "must contain at least 1 address"})
	case len(addresses) > 100:
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: path + ".addresses", Value: len(addresses), Detail: "must have at most 100 items"})
	}
	for i, a := range addresses {
		address, _ := a.(string)
		p := fmt.Sprintf("%s.addresses[%d]", path, i)
		switch addressType {
		case "IP":
			e.ipAddress(p, address, nil)
		case "IPv4", "IPv6":
			ip := schema.ParseIPSloppy(address)
			if ip == nil {
				e.ipAddress(p, address, nil)
				continue
			}
			if v4 := ip.To4() != nil; v4 != (addressType == "IPv4") {
				// kube reports the family at the list's path
				e.invalid(path+".addresses", address, "must be an "+addressType+" address")
			}
			switch {
			case ip.IsUnspecified():
				e.invalid(p, address, fmt.Sprintf("may not be unspecified (%s)", address))
			case ip.IsLoopback():
				e.invalid(p, address, "may not be in the loopback range (127.0.0.0/8, ::1/128)")
			case ip.IsLinkLocalUnicast():
				e.invalid(p, address, "may not be in the link-local range (169.254.0.0/16, fe80::/10)")
			case ip.IsLinkLocalMulticast():
				e.invalid(p, address, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")
			}
		case "FQDN":
			e.fqdn(p, address)
		}
	}
	if host, ok := ep["hostname"].(string); ok {
		e.invalidAll(path+".hostname", host, schema.DNS1123Label(host))
	}
}

// fqdn is kube's IsFullyQualifiedDomainName.
func (e *fieldErrs) fqdn(path, name string) {
	host := strings.TrimSuffix(strings.ToLower(name), ".")
	if msgs := schema.DNS1123Subdomain(host); len(msgs) > 0 {
		e.invalidAll(path, name, msgs)
		return
	}
	labels := strings.Split(host, ".")
	if len(labels) < 2 {
		e.invalid(path, name, "should be a domain with at least two segments separated by dots")
		return
	}
	for _, l := range labels {
		if len(l) > 63 {
			e.invalid(path, name, "must be no more than 63 characters")
		}
	}
}
