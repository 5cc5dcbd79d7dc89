package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateReplicaSet.
func (replicaSetStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateReplicaSet(o)
}

// ValidateUpdate is kube's ValidateReplicaSetUpdate.
func (replicaSetStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateReplicaSetUpdate(o, old)
}

// validateReplicaSet is kube's ValidateReplicaSetSpec.
func validateReplicaSet(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	e.nonNegative("spec.replicas", spec["replicas"])
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	e.workloadSelector("spec", spec, "deployment") // kube's ReplicaSet message says deployment
	e.replicaTemplate("spec.template", spec)
	return e.list
}

// validateReplicaSetUpdate keeps the selector, as apps/v1 does.
func validateReplicaSetUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.immutableSelector("spec.selector", field(o, "spec", "selector"), field(old, "spec", "selector"))
	return append(validateReplicaSet(o), e.list...)
}
