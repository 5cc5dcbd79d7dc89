package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// ipAddressStrategy is what an IPAddress does differently: kube's
// ValidateIPAddress and its update.
type ipAddressStrategy struct{ apiserver.GenericStrategy }

// NameErrors: an IPAddress is named by its address, in canonical form.
func (ipAddressStrategy) NameErrors(name string) []string { return kubeIPErrors(name, true) }

// Validate requires a parent reference naming a resource and an object.
// kube 1.37 requires them by declarative rules, reported after the others.
func (ipAddressStrategy) Validate(w *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	ref, ok := field(o, "spec", "parentRef").(map[string]any)
	if !ok {
		e.declarativeRequired("spec.parentRef")
		return e.all()
	}
	const p = "spec.parentRef"
	if g, _ := ref["group"].(string); g != "" {
		e.invalidAll(p+".group", g, schema.DNS1123Subdomain(g))
	}
	for _, f := range []string{"resource", "name"} {
		if v, _ := ref[f].(string); v == "" {
			e.declarativeRequired(p + "." + f)
		} else {
			e.invalidAll(p+"."+f, v, schema.PathSegmentName(v, false))
		}
	}
	if ns, _ := ref["namespace"].(string); ns != "" {
		e.invalidAll(p+".namespace", ns, schema.PathSegmentName(ns, false))
	}
	return e.all()
}

// ValidateUpdate keeps the parent reference.
func (ipAddressStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	e := fieldErrs{release: w.Release()}
	ref := field(o, "spec", "parentRef")
	e.declarativeImmutable("spec.parentRef", ref, field(old, "spec", "parentRef"), goParentReference(ref))
	return e.all()
}

// goParentReference renders a parent reference as Go's %#v of kube's
// internal (pointer) type shows it.
func goParentReference(v any) kubeValue {
	ref, ok := v.(map[string]any)
	if !ok {
		return kubeValue{"(*networking.ParentReference)(nil)", "null"}
	}
	s := func(k string) string { x, _ := ref[k].(string); return x }
	return kubeValue{fmt.Sprintf("networking.ParentReference{Group:%q, Resource:%q, Namespace:%q, Name:%q}",
		s("group"), s("resource"), s("namespace"), s("name")),
		jsonStruct("Group", s("group"), "Resource", s("resource"), "Namespace", s("namespace"), "Name", s("name"))}
}
