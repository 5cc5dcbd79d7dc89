package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// eventStrategy is what a core v1 Event does differently: kube's
// ValidateEvent of the legacy API.
type eventStrategy struct{ apiserver.GenericStrategy }

// Validate: an event about a namespaced object is in its namespace.
func (eventStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	if ns, _ := asMap(o["involvedObject"])["namespace"].(string); ns != "" && ns != o.Namespace() {
		e.invalid("involvedObject.namespace", ns, "does not match event.namespace")
	}
	return e.list
}

// ValidateUpdate validates the next version.
func (s eventStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, o)
}
