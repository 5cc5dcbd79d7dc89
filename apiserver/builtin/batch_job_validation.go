package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateJob.
func (jobStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateJob(o)
}

// ValidateUpdate is kube's ValidateJobUpdate.
func (jobStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateJobUpdate(o, old)
}

// validateJob is the part of kube's ValidateJob users hit.
func validateJob(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	if spec["manualSelector"] != true && spec["selector"] != nil {
		uid, name := o.UID(), o.Name()
		labels := asMap(field(spec, "template", "metadata", "labels"))
		for _, l := range [][2]string{{"controller-uid", uid}, {"job-name", name},
			{"batch.kubernetes.io/controller-uid", uid}, {"batch.kubernetes.io/job-name", name}} {
			p := "spec.template.metadata.labels[" + l[0] + "]"
			switch v, ok := labels[l[0]]; {
			case !ok:
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p, Detail: "must be '" + l[1] + "'"})
			case v != l[1]:
				e.invalid(p, stringMapValue((labels)), "must be '"+l[1]+"'")
			}
		}
		expected := map[string]any{"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
			"controller-uid": uid, "job-name": name}
		if !selectorMatches(spec["selector"], expected) {
			e.invalid("spec.selector", labelSelectorValue((spec["selector"])), "`selector` not auto-generated")
		}
	}
	e.jobSpec("spec", spec)
	if sel, ok := spec["selector"].(map[string]any); ok {
		e.labelSelector("spec.selector", sel)
	}
	labels := asMap(field(spec, "template", "metadata"))["labels"]
	if spec["selector"] != nil && !selectorMatches(spec["selector"], labels) {
		e.invalid("spec.template.metadata.labels", stringMapValue((labels)), "`selector` does not match template `labels`")
	}
	return e.list
}

// validateJobUpdate: a Job's selector, template and completions stay
// (kube lets a suspended job's template change; kapi as well).
func validateJobUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	if !equalJSON(spec["selector"], oldSpec["selector"]) {
		e.invalid("spec.selector", labelSelectorValue((spec["selector"])), "field is immutable")
	}
	if !equalJSON(spec["template"], oldSpec["template"]) && oldSpec["suspend"] != true {
		e.invalid("spec.template", podTemplateValue(spec["template"]), "field is immutable")
	}
	if !equalJSON(spec["completions"], oldSpec["completions"]) && spec["completionMode"] != "Indexed" {
		n, _ := meta.AsInt64(spec["completions"])
		e.invalid("spec.completions", n, "field is immutable")
	}
	return append(validateJob(o), e.list...)
}
