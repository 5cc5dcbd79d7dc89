package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

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

// validatePersistentVolumeClaim is kube's ValidatePersistentVolumeClaimSpec
// for what users hit: access modes and a storage request.
func validatePersistentVolumeClaim(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	modes := meta.AsList(spec["accessModes"])
	if len(modes) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: "spec.accessModes",
			Detail: "at least 1 access mode is required"})
	}
	for _, m := range modes {
		e.enum("spec.accessModes", m, "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod")
	}
	if _, ok := asMap(field(spec, "resources", "requests"))["storage"]; !ok {
		e.required("spec.resources[storage]")
	}
	return e.list
}

// validatePersistentVolumeClaimUpdate: a claim's spec is immutable but
// for its requests, its volume attributes class and a storage class it
// did not have.
func validatePersistentVolumeClaimUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	masked := meta.DeepCopyValue(spec).(map[string]any)
	setOrDelete(asMap(masked["resources"]), "requests", field(oldSpec, "resources", "requests"))
	setOrDelete(masked, "volumeAttributesClassName", oldSpec["volumeAttributesClassName"])
	if oldSpec["storageClassName"] == nil {
		setOrDelete(masked, "storageClassName", nil)
	}
	if !equalJSON(masked, oldSpec) {
		e.forbidden("spec", "spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims")
	}
	return append(e.list, validatePersistentVolumeClaim(o)...)
}
