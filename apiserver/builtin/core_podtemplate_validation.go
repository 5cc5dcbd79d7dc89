package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidatePodTemplate: its template's labels,
// annotations and pod spec.
func (podTemplateStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.podTemplate("template", asMap(o["template"]))
	return e.list
}

// ValidateUpdate is kube's ValidatePodTemplateUpdate: the new template as
// on create (a template's spec may change).
func (s podTemplateStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, o)
}
