package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// An IngressClass is checked as kube's ValidateIngressClass and
// ValidateIngressClassUpdate check it: a domain-prefixed controller, which
// never changes, and its parameters' reference.

// Validate is kube's validateIngressClassSpec.
func (ingressClassStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	e.ingressClassSpec("spec", asMap(o["spec"]))
	return e.all()
}

// ValidateUpdate keeps the controller, then validates the new version.
func (s ingressClassStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	controller, oldController := field(o, "spec", "controller"), field(old, "spec", "controller")
	if !equalJSON(controller, oldController) {
		e.invalid("spec.controller", controller, "field is immutable")
	}
	return append(e.list, s.Validate(w, o)...)
}

// ingressClassSpec is kube's validateIngressClassSpec.
func (e *fieldErrs) ingressClassSpec(path string, spec map[string]any) {
	controller, _ := spec["controller"].(string)
	if controller != "" && len(controller) > 250 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: path + ".controller", Detail: "may not be more than 250 bytes"})
	}
	e.domainPrefixedPath(path+".controller", controller)
	params, ok := spec["parameters"].(map[string]any)
	if !ok {
		return
	}
	p := path + ".parameters"
	if group, ok := params["apiGroup"].(string); ok {
		e.invalidAll(p+".apiGroup", group, schema.DNS1123Subdomain(group))
	}
	for _, f := range []string{"kind", "name"} {
		switch v, _ := params[f].(string); {
		case v == "" && e.release.AtLeast(37): // a declarative rule
			e.declarativeRequired(p + "." + f)
		case v == "" && e.release.AtLeast(34): // kube 1.34 dropped the detail
			e.required(p + "." + f)
		case v == "":
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + "." + f, Detail: f + " is required"})
		default:
			e.invalidAll(p+"."+f, v, schema.PathSegmentName(v, false))
		}
	}
	scope, ok := params["scope"].(string)
	if !ok {
		e.required(p + ".scope")
		return
	}
	namespace, hasNamespace := params["namespace"].(string)
	switch scope {
	case "Namespace":
		if !hasNamespace {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + ".namespace", Detail: "`parameters.scope` is set to 'Namespace'"})
		} else {
			e.invalidAll(p+".namespace", namespace, schema.DNS1123Label(namespace))
		}
	case "Cluster":
		if hasNamespace {
			e.forbidden(p+".namespace", "`parameters.scope` is set to 'Cluster'")
		}
	default:
		e.notSupported(p+".scope", scope, "Cluster", "Namespace")
	}
}
