package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// Validate is kube's ValidateCSIDriver: its spec's enums and token
// requests (distinct audiences, at least ten minutes).
func (csiDriverStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	if _, ok := spec["attachRequired"]; !ok {
		e.required("spec.attachedRequired")
	}
	if _, ok := spec["podInfoOnMount"]; !ok {
		e.required("spec.podInfoOnMount")
	}
	if _, ok := spec["storageCapacity"]; !ok {
		e.required("spec.storageCapacity")
	}
	if p, ok := spec["fsGroupPolicy"].(string); ok {
		e.enum("spec.fsGroupPolicy", p, "File", "None", "ReadWriteOnceWithFSType")
	}
	audiences := map[string]bool{}
	for i, r := range meta.AsList(spec["tokenRequests"]) {
		req := asMap(r)
		p := fmt.Sprintf("spec.tokenRequests[%d]", i)
		audience, _ := req["audience"].(string)
		if audiences[audience] {
			e.duplicate(p+".audience", audience)
			continue
		}
		audiences[audience] = true
		if n, ok := meta.AsInt64(req["expirationSeconds"]); ok {
			if n < 600 {
				e.invalid(p+".expirationSeconds", n, "may not specify a duration less than 10 minutes")
			}
			if n > 1<<32 {
				e.invalid(p+".expirationSeconds", n, "may not specify a duration larger than 2^32 seconds")
			}
		}
	}
	for _, m := range meta.AsList(spec["volumeLifecycleModes"]) {
		e.enum("spec.volumeLifecycleModes", m, "Persistent", "Ephemeral")
	}
	return e.list
}

// ValidateUpdate is kube's ValidateCSIDriverUpdate: the driver as on
// create; attachRequired and the lifecycle modes stay (fsGroupPolicy may
// change since 1.29).
func (s csiDriverStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.list = s.Validate(w, o)
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	if !equalJSON(spec["attachRequired"], oldSpec["attachRequired"]) {
		e.invalid("spec.attachedRequired", spec["attachRequired"], "field is immutable")
	}
	if !equalJSON(spec["volumeLifecycleModes"], oldSpec["volumeLifecycleModes"]) {
		e.invalid("spec.volumeLifecycleModes", typedStrings("storage.VolumeLifecycleMode", spec["volumeLifecycleModes"]), "field is immutable")
	}
	return e.list
}
