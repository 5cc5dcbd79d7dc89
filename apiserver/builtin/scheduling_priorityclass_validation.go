package builtin

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// A PriorityClass is checked as kube's ValidatePriorityClass and
// ValidatePriorityClassUpdate check it, and admitted as kube's Priority
// admission plugin admits it: one global default at most.

// highestUserPriority is the largest value a class not named system-* may
// have (kube's HighestUserDefinablePriority).
const highestUserPriority = 1000000000

// systemPriorityClasses are kube's predefined classes, the only ones whose
// names may start with "system-".
var systemPriorityClasses = map[string]int64{"system-node-critical": 2000001000, "system-cluster-critical": 2000000000}

var priorityClassesGR = meta.GroupResource{Group: "scheduling.k8s.io", Resource: "priorityclasses"}

// Validate is kube's ValidatePriorityClass.
func (priorityClassStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	name := o.Name()
	value, _ := meta.AsInt64(o["value"])
	if strings.HasPrefix(name, "system-") {
		if msg := systemPriorityClassError(name, value, o["globalDefault"] == true); msg != "" {
			e.forbidden("metadata.name", "priority class names with 'system-' prefix are reserved for system use only. error: "+msg)
		}
	} else if value > highestUserPriority {
		e.forbidden("value", fmt.Sprintf("maximum allowed value of a user defined priority is %d", highestUserPriority))
	}
	if p, ok := o["preemptionPolicy"].(string); ok && p != "PreemptLowerPriority" && p != "Never" {
		e.notSupported("preemptionPolicy", p, "PreemptLowerPriority", "Never")
	}
	return e.list
}

// systemPriorityClassError is kube's IsKnownSystemPriorityClass: why a
// system-* class is not one of the predefined ones ("" when it is).
func systemPriorityClassError(name string, value int64, globalDefault bool) string {
	want, ok := systemPriorityClasses[name]
	switch {
	case !ok:
		return name + " is not a known system priority class"
	case value != want:
		return fmt.Sprintf("value of %s PriorityClass must be %d", name, want)
	case globalDefault:
		return fmt.Sprintf("globalDefault of %s PriorityClass must be false", name)
	}
	return ""
}

// ValidateUpdate is kube's ValidatePriorityClassUpdate: value and
// preemptionPolicy never change (the rest is not checked again).
func (priorityClassStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	if !equalJSON(o["value"], old["value"]) {
		e.forbidden("value", "may not be changed in an update.")
	}
	if !equalJSON(o["preemptionPolicy"], old["preemptionPolicy"]) {
		e.invalid("preemptionPolicy", o["preemptionPolicy"], "field is immutable")
	}
	return e.list
}

// ValidateAdmission is kube's Priority admission plugin for classes: a
// class may be the global default only when no other is.
func (priorityClassStrategy) ValidateAdmission(w *apiserver.Write, o, _ meta.Object) error {
	if o["globalDefault"] != true {
		return nil
	}
	classes, err := w.List(priorityClassesGR, "")
	if err != nil {
		return err
	}
	var current meta.Object
	for _, c := range classes {
		pc := c.Data()
		if pc["globalDefault"] != true {
			continue
		}
		v, _ := meta.AsInt64(pc["value"])
		if cv, _ := meta.AsInt64(current["value"]); current == nil || cv > v {
			current = pc
		}
	}
	if current != nil && (w.Operation == apiserver.OperationCreate || current.Name() != o.Name()) {
		return fmt.Errorf("PriorityClass %s is already marked as default. Only one default can exist", current.Name())
	}
	return nil
}
