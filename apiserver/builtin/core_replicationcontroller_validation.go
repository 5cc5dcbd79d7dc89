package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateReplicationController.
func (replicationControllerStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateReplicationController(o)
}

// ValidateUpdate validates the next version.
func (replicationControllerStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateReplicationController(o)
}

// validateReplicationController is kube's ValidateReplicationControllerSpec:
// its selector is a plain map.
func validateReplicationController(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	e.nonNegative("spec.replicas", spec["replicas"])
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	sel := asMap(spec["selector"])
	if len(sel) == 0 {
		e.required("spec.selector")
	} else {
		e.labels("spec.selector", sel)
	}
	tmpl := asMap(spec["template"])
	if tmpl == nil {
		e.required("spec.template")
		return e.list
	}
	labels := asMap(asMap(tmpl["metadata"])["labels"])
	for k, v := range sel {
		if labels[k] != v {
			e.invalid("spec.template.metadata.labels", stringMapValue((labels)), "`selector` does not match template `labels`")
			break
		}
	}
	e.podTemplate("spec.template", tmpl)
	if rp, _ := asMap(tmpl["spec"])["restartPolicy"].(string); rp != "Always" {
		e.notSupported("spec.template.spec.restartPolicy", rp, "Always")
	}
	return e.list
}
