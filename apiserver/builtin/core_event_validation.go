package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// eventStrategy is what a core v1 Event does differently: kube's
// ValidateEvent of the legacy API.
type eventStrategy struct{ apiserver.GenericStrategy }

// NameErrors: kube validates no core v1 Event's ObjectMeta beyond the
// registry's common check, so its name and generateName need only be path
// segments (a generateName "web-0." makes "web-0.x7k2p"); events.k8s.io/v1
// checks DNS subdomains.
func (eventStrategy) NameErrors(name string) []string { return schema.PathSegmentName(name, false) }

// Validate is kube's legacy event validation, which every Event passes.
func (eventStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.legacyEvent(o, "reportingComponent")
	return e.list
}

// ValidateUpdate validates the next version.
func (s eventStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, o)
}

// legacyEvent is kube's legacyValidateEvent on a core v1 Event: an event
// without eventTime (old style) is in its object's namespace (or default);
// a new-style one names its reporter (the field named controller), instance,
// action and reason, within kube's lengths.
func (e *fieldErrs) legacyEvent(core meta.Object, controller string) {
	ns := core.Namespace()
	objNS, _ := asMap(core["involvedObject"])["namespace"].(string)
	mismatch := func() { e.invalid("involvedObject.namespace", objNS, "does not match event.namespace") }
	if eventTime, _ := core["eventTime"].(string); eventTime == "" {
		if objNS == "" && ns != "" && ns != "default" || objNS != "" && ns != objNS {
			mismatch()
		}
		return
	}
	if objNS == "" && ns != "default" && ns != "kube-system" {
		mismatch()
	}
	c, _ := core["reportingComponent"].(string)
	if c == "" {
		e.required(controller)
	}
	e.invalidAll(controller, c, selectors.QualifiedNameErrors(c))
	for _, f := range []string{"reportingInstance", "action", "reason"} {
		v, _ := core[f].(string)
		if v == "" {
			e.required(f)
		}
		if len(v) > 128 {
			e.invalid(f, "", "can have at most 128 characters")
		}
	}
	if m, _ := core["message"].(string); len(m) > 1024 {
		e.invalid("message", "", "can have at most 1024 characters")
	}
}
