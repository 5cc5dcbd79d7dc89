package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// Validate is kube's ValidateEndpointsCreate: each subset has addresses
// (IPs that are not loopback, link-local or unspecified; DNS-label
// hostnames; node names) and, when it has several ports, named ones.
func (endpointsStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	for i, s := range meta.AsList(o["subsets"]) {
		e.endpointSubset(fmt.Sprintf("subsets[%d]", i), asMap(s))
	}
	return e.list
}

// ValidateUpdate is kube's ValidateEndpointsUpdate: the new subsets as on
// create.
func (s endpointsStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, o)
}

func (e *fieldErrs) endpointSubset(path string, ss map[string]any) {
	addrs, notReady := meta.AsList(ss["addresses"]), meta.AsList(ss["notReadyAddresses"])
	if len(addrs) == 0 && len(notReady) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path,
			Detail: "must specify `addresses` or `notReadyAddresses`"})
	}
	for i, a := range addrs {
		e.endpointAddress(fmt.Sprintf("%s.addresses[%d]", path, i), asMap(a))
	}
	for i, a := range notReady {
		e.endpointAddress(fmt.Sprintf("%s.notReadyAddresses[%d]", path, i), asMap(a))
	}
	ports := meta.AsList(ss["ports"])
	for i, p := range ports {
		e.endpointPort(fmt.Sprintf("%s.ports[%d]", path, i), asMap(p), len(ports) > 1)
	}
}

func (e *fieldErrs) endpointAddress(path string, a map[string]any) {
	ip, _ := a["ip"].(string)
	e.legacyIP(path+".ip", ip)
	if hostname, _ := a["hostname"].(string); hostname != "" {
		e.invalidAll(path+".hostname", hostname, schema.DNS1123Label(hostname))
	}
	if node, ok := a["nodeName"].(string); ok {
		e.dnsSubdomain(path+".nodeName", node)
	}
	e.nonSpecialIP(path+".ip", ip)
}

func (e *fieldErrs) endpointPort(path string, p map[string]any, requireName bool) {
	name, _ := p["name"].(string)
	if requireName && name == "" {
		e.required(path + ".name")
	} else if name != "" {
		e.invalidAll(path+".name", name, schema.DNS1123Label(name))
	}
	port, _ := meta.AsInt64(p["port"])
	e.portNumber(path+".port", port)
	e.protocol(path+".protocol", p["protocol"])
	if ap, ok := p["appProtocol"].(string); ok {
		e.invalidAll(path+".appProtocol", ap, selectors.QualifiedNameErrors(ap))
	}
}
