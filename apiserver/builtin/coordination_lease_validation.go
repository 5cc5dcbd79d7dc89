package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// leaseStrategy is what a Lease does differently: kube's ValidateLease.
type leaseStrategy struct{ apiserver.GenericStrategy }

// Validate is kube's ValidateLeaseSpec.
func (leaseStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	if n, ok := meta.AsInt64(spec["leaseDurationSeconds"]); ok && n <= 0 {
		e.invalid("spec.leaseDurationSeconds", n, "must be greater than 0")
	}
	e.nonNegative("spec.leaseTransitions", spec["leaseTransitions"])
	if s, _ := spec["strategy"].(string); s != "" {
		e.enum("spec.strategy", s, "OldestEmulationVersion")
	}
	if p, _ := spec["preferredHolder"].(string); p != "" {
		if s, _ := spec["strategy"].(string); s == "" {
			e.forbidden("spec.preferredHolder", "may only be specified if `strategy` is defined")
		}
	}
	return e.list
}

// ValidateUpdate validates the next version.
func (s leaseStrategy) ValidateUpdate(w *apiserver.Write, o, _ meta.Object) meta.FieldErrors {
	return s.Validate(w, o)
}
