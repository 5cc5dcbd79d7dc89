package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// NameErrors: a Service is named by a DNS-1035 label (it becomes a DNS
// name); from 1.36 by a DNS-1123 label, which may start with a digit
// (RelaxedServiceNameValidation).
func (s serviceStrategy) NameErrors(name string) []string {
	if s.release.AtLeast(36) {
		return schema.DNS1123Label(name)
	}
	return schema.DNS1035Label(name)
}

// Validate is the part of kube's ValidateService users hit, in its order.
func (serviceStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	typ, _ := spec["type"].(string)
	headless := isHeadless(spec)
	ports := meta.AsList(spec["ports"])
	if len(ports) == 0 && !headless && typ != "ExternalName" {
		e.required("spec.ports")
	}
	switch typ {
	case "LoadBalancer", "NodePort":
		if headless {
			e.invalid("spec.clusterIPs[0]", "None", "may not be set to 'None' for "+typ+" services")
		}
	case "ExternalName":
		if len(meta.AsList(spec["clusterIPs"])) > 0 {
			e.forbidden("spec.clusterIPs", "may not be set for ExternalName services")
		}
		if len(meta.AsList(spec["ipFamilies"])) > 0 {
			e.forbidden("spec.ipFamilies", "may not be set for ExternalName services")
		}
		if spec["ipFamilyPolicy"] != nil {
			e.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services")
		}
		if name, _ := spec["externalName"].(string); name != "" {
			e.invalidAll("spec.externalName", name, schema.DNS1123Subdomain(name))
		} else {
			e.required("spec.externalName")
		}
	}
	names := map[string]bool{}
	for i, p := range ports {
		e.servicePort(fmt.Sprintf("spec.ports[%d]", i), asMap(p), len(ports) > 1, names)
	}
	if sel, ok := spec["selector"].(map[string]any); ok {
		e.labels("spec.selector", sel)
	}
	if aff, _ := spec["sessionAffinity"].(string); aff == "" {
		e.required("spec.sessionAffinity")
	} else {
		e.enum("spec.sessionAffinity", aff, "ClientIP", "None")
	}
	if typ == "" {
		e.required("spec.type")
	} else {
		e.enum("spec.type", typ, "ClusterIP", "ExternalName", "LoadBalancer", "NodePort")
	}
	if typ == "ClusterIP" {
		for i, p := range ports {
			if n, _ := meta.AsInt64(asMap(p)["nodePort"]); n != 0 {
				e.forbidden(fmt.Sprintf("spec.ports[%d].nodePort", i), "may not be used when `type` is 'ClusterIP'")
			}
		}
	}
	seen := map[string]bool{}
	for i, p := range ports {
		port := asMap(p)
		n, _ := meta.AsInt64(port["nodePort"])
		proto, _ := port["protocol"].(string)
		key := fmt.Sprintf("%s/%d", proto, n)
		if n != 0 && seen[key] {
			e.duplicate(fmt.Sprintf("spec.ports[%d].nodePort", i), n)
		}
		seen[key] = true
	}
	return e.list
}

// ValidateUpdate keeps an allocated cluster IP, as kube does, then
// validates the Service.
func (s serviceStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	if needsClusterIP(oldSpec) && needsClusterIP(spec) {
		oldIPs, ips := stringList(oldSpec["clusterIPs"]), stringList(spec["clusterIPs"])
		if len(oldIPs) > 0 && oldIPs[0] != "" && (len(ips) == 0 || ips[0] != oldIPs[0]) {
			e.invalid("spec.clusterIPs[0]", ips, "may not change once set")
		}
	}
	e.list = append(e.list, apiserver.ValidateObjectMeta(w, o)...) // kube validates the new Service as on create
	return append(e.list, s.Validate(w, o)...)
}

// servicePort is kube's validateServicePort.
func (e *fieldErrs) servicePort(path string, p map[string]any, requireName bool, names map[string]bool) {
	name, _ := p["name"].(string)
	if requireName && name == "" {
		e.required(path + ".name")
	} else if name != "" {
		e.invalidAll(path+".name", name, schema.DNS1123Label(name))
		if names[name] {
			e.duplicate(path+".name", name)
		}
		names[name] = true
	}
	n, _ := meta.AsInt64(p["port"])
	e.portNumber(path+".port", n)
	e.protocol(path+".protocol", p["protocol"])
	e.portNumOrName(path+".targetPort", p["targetPort"])
}
