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
func (endpointSliceStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.endpointSlice(o, nil)
	return e.all()
}

// ValidateUpdate is kube's ValidateEndpointSliceUpdate: the slice as on
// create, except that the endpoints' errors do not count when the
// endpoints did not change (what an older kube stored stays writable, and
// a change of the address type alone is refused only as immutable); the
// address type never changes.
func (endpointSliceStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.endpointSlice(o, old)
	e.declarativeImmutable("addressType", o["addressType"], old["addressType"], o["addressType"])
	return e.all()
}

// endpointSlice is kube's ValidateEndpointSlice; old is the version an
// update replaces (nil on create).
func (e *fieldErrs) endpointSlice(o, old meta.Object) {
	typ, _ := o["addressType"].(string)
	if typ == "" {
		e.required("addressType")
	} else {
		e.enum("addressType", typ, "FQDN", "IPv4", "IPv6")
	}
	ports := meta.AsList(o["ports"])
	if len(ports) > 20000 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: "ports", Value: len(ports), Detail: "must have at most 20000 items"})
	} else {
		e.endpointPorts(ports)
	}
	eps := fieldErrs{release: e.release}
	endpoints := meta.AsList(o["endpoints"])
	if len(endpoints) > 1000 {
		eps.list = append(eps.list, meta.FieldError{Type: meta.ErrorTooMany, Field: "endpoints", Value: len(endpoints), Detail: "must have at most 1000 items"})
	} else {
		for i, ep := range endpoints {
			eps.endpoint(fmt.Sprintf("endpoints[%d]", i), asMap(ep), typ)
		}
	}
	if old != nil && equalJSON(o["endpoints"], old["endpoints"]) {
		eps.list, eps.declared = nil, nil
	}
	e.list = append(e.list, eps.list...)
	e.declared = append(e.declared, eps.declared...)
}

// endpointPorts is kube's validatePorts of an EndpointSlice.
func (e *fieldErrs) endpointPorts(ports []any) {
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
	addresses := meta.AsList(ep["addresses"])
	switch {
	case len(addresses) == 0 && e.release.AtLeast(37):
		e.declarativeRequired(path + ".addresses")
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
			if ip == nil || e.strictIPs() && len(strictIPErrors(address)) > 0 {
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
	if node, ok := ep["nodeName"].(string); ok {
		e.invalidAll(path+".nodeName", node, schema.DNS1123Subdomain(node))
	}
	if host, ok := ep["hostname"].(string); ok {
		e.invalidAll(path+".hostname", host, schema.DNS1123Label(host))
	}
	if hints, ok := ep["hints"].(map[string]any); ok {
		e.endpointHints(path+".hints", hints)
	}
}

// endpointHints is kube's validateHints: at most 8 zones and 8 nodes, each
// named once, zones by label values and nodes by node names.
func (e *fieldErrs) endpointHints(path string, hints map[string]any) {
	for _, h := range []struct {
		key   string
		check func(string) []string
	}{{"forZones", selectors.LabelValueErrors}, {"forNodes", schema.DNS1123Subdomain}} {
		list := meta.AsList(hints[h.key])
		p := path + "." + h.key
		if len(list) > 8 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooMany, Field: p, Value: len(list), Detail: "must have at most 8 items"})
			return
		}
		seen := map[string]bool{}
		for i, x := range list {
			name, _ := asMap(x)["name"].(string)
			np := fmt.Sprintf("%s[%d].name", p, i)
			if seen[name] {
				e.duplicate(np, name)
			}
			seen[name] = true
			e.invalidAll(np, name, h.check(name))
		}
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
