package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// The kinds' strategies call the validation of workload_validation.go and
// certificates_csr_subresources.go: on their object and /scale (a status
// write keeps the spec it would check).

func specWrite(w *apiserver.Write) bool { return w.Subresource == "" || w.Subresource == "scale" }

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

// Validate is kube's ValidateDaemonSet.
func (daemonSetStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateDaemonSet(o)
}

// ValidateUpdate is kube's ValidateDaemonSetUpdate.
func (daemonSetStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateDaemonSetUpdate(o, old)
}

// Validate is kube's ValidateStatefulSet.
func (statefulSetStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateStatefulSet(o)
}

// ValidateUpdate is kube's ValidateStatefulSetUpdate.
func (statefulSetStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validateStatefulSetUpdate(o, old)
}

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

// Validate is kube's ValidatePersistentVolumeClaim.
func (persistentVolumeClaimStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validatePersistentVolumeClaim(o)
}

// ValidateUpdate is kube's ValidatePersistentVolumeClaimUpdate.
func (persistentVolumeClaimStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	if !specWrite(w) {
		return nil
	}
	return validatePersistentVolumeClaimUpdate(o, old)
}

// PrepareForUpdate is kube's: what each CSR endpoint may change.
func (csrStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	return prepareCSRUpdate(w, o, old)
}

// Validate checks a new CSR's spec (certificates_csr_validation.go) and
// conditions.
func (csrStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return validateCSR(o)
}

// ValidateUpdate keeps its Approved and Denied conditions.
func (csrStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	return validateCSRUpdate(o, old)
}
