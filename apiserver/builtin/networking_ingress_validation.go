package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// An Ingress is checked as kube's ValidateIngressCreate and
// ValidateIngressUpdate check it (pkg/apis/networking/validation): its
// rules' hosts and paths by pathType, its backends, TLS, class name; its
// status as ValidateIngressStatusUpdate.

// Validate is kube's ValidateIngressCreate: the spec, then the legacy
// class annotation against ingressClassName.
func (ingressStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	spec := asMap(o["spec"])
	e.ingressSpec("spec", spec, ingressOptions{})
	annotation, set := asMap(o.Metadata()["annotations"])["kubernetes.io/ingress.class"].(string)
	if class, ok := spec["ingressClassName"].(string); set && ok && annotation != class {
		e.invalid("annotations.kubernetes.io/ingress.class", annotation, "must match `ingressClassName` when both are specified")
	}
	return e.list
}

// ValidateUpdate is kube's ValidateIngressUpdate (what the stored version
// already holds of invalid secret names and wildcard rules is tolerated),
// or ValidateIngressStatusUpdate for a write to /status.
func (ingressStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	if w.Subresource == "status" {
		e.ingressLoadBalancer("status.loadBalancer", asMap(field(o, "status", "loadBalancer")), asMap(field(old, "status", "loadBalancer")))
		return e.list
	}
	oldSpec := asMap(old["spec"])
	opts := ingressOptions{}
	for _, t := range meta.AsList(oldSpec["tls"]) {
		if name, _ := asMap(t)["secretName"].(string); name != "" && len(schema.DNS1123Subdomain(name)) > 0 {
			opts.allowInvalidSecretName = true
		}
	}
	for _, r := range meta.AsList(oldSpec["rules"]) {
		rule := asMap(r)
		if host, _ := rule["host"].(string); strings.Contains(host, "*") {
			check := fieldErrs{release: e.release}
			check.ingressRuleValue("", rule, ingressOptions{})
			if len(check.list) > 0 {
				opts.allowInvalidWildcardHostRule = true
			}
		}
	}
	e.ingressSpec("spec", asMap(o["spec"]), opts)
	return e.list
}

// ingressOptions relax an update's checks for what was stored before the
// checks existed.
type ingressOptions struct{ allowInvalidSecretName, allowInvalidWildcardHostRule bool }

// ingressSpec is kube's ValidateIngressSpec.
func (e *fieldErrs) ingressSpec(path string, spec map[string]any, opts ingressOptions) {
	rules, hasRules := spec["rules"].([]any)
	backend, hasBackend := spec["defaultBackend"].(map[string]any)
	if len(rules) == 0 && !hasBackend {
		value := kubeValue{"[]networking.IngressRule(nil)", "null"}
		if hasRules {
			value = kubeValue{"[]networking.IngressRule{}", "[]"}
		}
		e.invalid(path, value, "either `defaultBackend` or `rules` must be specified")
	}
	if hasBackend {
		e.ingressBackend(path+".defaultBackend", backend)
	}
	for i, r := range rules {
		rule := asMap(r)
		p := fmt.Sprintf("%s.rules[%d]", path, i)
		host, _ := rule["host"].(string)
		wildcard := false
		if host != "" {
			if schema.ParseIPSloppy(host) != nil {
				e.invalid(p+".host", host, "must be a DNS name, not an IP address")
			}
			wildcard = strings.Contains(host, "*")
			e.invalidAll(p+".host", host, hostErrors(host))
		}
		if !wildcard || !opts.allowInvalidWildcardHostRule {
			e.ingressRuleValue(p, rule, opts)
		}
	}
	for i, t := range meta.AsList(spec["tls"]) {
		tls := asMap(t)
		p := fmt.Sprintf("%s.tls[%d]", path, i)
		for j, h := range meta.AsList(tls["hosts"]) {
			host, _ := h.(string)
			e.invalidAll(fmt.Sprintf("%s.hosts[%d]", p, j), host, hostErrors(host))
		}
		if name, _ := tls["secretName"].(string); name != "" && !opts.allowInvalidSecretName {
			e.invalidAll(p+".secretName", name, schema.DNS1123Subdomain(name))
		}
	}
	if class, ok := spec["ingressClassName"].(string); ok {
		e.invalidAll(path+".ingressClassName", class, schema.DNS1123Subdomain(class))
	}
}

// ingressRuleValue is kube's validateIngressRuleValue: an HTTP rule's
// paths.
func (e *fieldErrs) ingressRuleValue(path string, rule map[string]any, _ ingressOptions) {
	http, ok := rule["http"].(map[string]any)
	if !ok {
		return
	}
	paths := meta.AsList(http["paths"])
	if len(paths) == 0 {
		e.required(path + ".http.paths")
	}
	for i, p := range paths {
		e.ingressPath(fmt.Sprintf("%s.http.paths[%d]", path, i), asMap(p))
	}
}

// ingressPath is kube's validateHTTPIngressPath: Exact and Prefix paths
// are absolute and clean; an ImplementationSpecific one, when set, is
// absolute.
func (e *fieldErrs) ingressPath(path string, p map[string]any) {
	typ, ok := p["pathType"].(string)
	if !ok {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".pathType", Detail: "pathType must be specified"})
		return
	}
	value, _ := p["path"].(string)
	switch typ {
	case "Exact", "Prefix":
		if !strings.HasPrefix(value, "/") {
			e.invalid(path+".path", value, "must be an absolute path")
		}
		if value != "" {
			for _, seq := range []string{"//", "/./", "/../", "%2f", "%2F"} {
				if strings.Contains(value, seq) {
					e.invalid(path+".path", value, "must not contain '"+seq+"'")
				}
			}
			for _, suffix := range []string{"/..", "/."} {
				if strings.HasSuffix(value, suffix) {
					e.invalid(path+".path", value, "cannot end with '"+suffix+"'")
				}
			}
		}
	case "ImplementationSpecific":
		if value != "" && !strings.HasPrefix(value, "/") {
			e.invalid(path+".path", value, "must be an absolute path")
		}
	default:
		e.notSupported(path+".pathType", typ, "Exact", "ImplementationSpecific", "Prefix")
	}
	e.ingressBackend(path+".backend", asMap(p["backend"]))
}

// ingressBackend is kube's validateIngressBackend: a service (a DNS-1035
// name and a port by number or name) or a resource, not both.
func (e *fieldErrs) ingressBackend(path string, b map[string]any) {
	resource, hasResource := b["resource"].(map[string]any)
	service, hasService := b["service"].(map[string]any)
	switch {
	case hasResource && hasService:
		e.invalid(path, "", "cannot set both resource and service backends")
	case hasResource:
		e.typedLocalObjectReference(path+".resource", resource)
	case hasService:
		if name, _ := service["name"].(string); name == "" {
			e.required(path + ".service.name")
		} else {
			if e.release.AtLeast(36) { // RelaxedServiceNameValidation, as Service names
				e.invalidAll(path+".service.name", name, schema.DNS1123Label(name))
			} else {
				e.invalidAll(path+".service.name", name, schema.DNS1035Label(name))
			}
		}
		port := asMap(service["port"])
		name, _ := port["name"].(string)
		number, _ := meta.AsInt64(port["number"])
		switch {
		case name != "" && number != 0:
			e.invalid(path, "", "cannot set both port name & port number")
		case name != "":
			e.invalidAll(path+".service.port.name", name, portNameErrors(name))
		case number != 0:
			e.portNumber(path+".service.port.number", number)
		default:
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path, Detail: "port name or number is required"})
		}
	default:
		e.invalid(path, "", "resource or service backend is required")
	}
}

// typedLocalObjectReference is kube's validateIngressTypedLocalObjectReference.
func (e *fieldErrs) typedLocalObjectReference(path string, ref map[string]any) {
	if group, ok := ref["apiGroup"].(string); ok {
		e.invalidAll(path+".apiGroup", group, schema.DNS1123Subdomain(group))
	}
	for _, f := range []string{"kind", "name"} {
		if v, _ := ref[f].(string); v == "" {
			detail := f + " is required" // kube 1.34 dropped the detail
			if e.release.AtLeast(34) {
				detail = ""
			}
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + "." + f, Detail: detail})
		} else {
			e.invalidAll(path+"."+f, v, schema.PathSegmentName(v, false))
		}
	}
}

// ingressLoadBalancer is kube's ValidateIngressLoadBalancerStatus: IPs
// (those the old status held are kept) and DNS hostnames.
func (e *fieldErrs) ingressLoadBalancer(path string, status, old map[string]any) {
	existing := map[string]bool{}
	for _, i := range meta.AsList(old["ingress"]) {
		if ip, _ := asMap(i)["ip"].(string); ip != "" {
			existing[ip] = true
		}
	}
	for i, in := range meta.AsList(status["ingress"]) {
		lb := asMap(in)
		p := fmt.Sprintf("%s.ingress[%d]", path, i)
		if ip, _ := lb["ip"].(string); ip != "" {
			e.ipAddress(p+".ip", ip, existing)
		}
		if host, _ := lb["hostname"].(string); host != "" {
			e.invalidAll(p+".hostname", host, schema.DNS1123Subdomain(host))
			if schema.ParseIPSloppy(host) != nil {
				e.invalid(p+".hostname", host, "must be a DNS name, not an IP address")
			}
		}
	}
}
