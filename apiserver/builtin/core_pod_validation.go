package builtin

import (
	"fmt"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// Validate is the part of kube's ValidatePodCreate users hit (its pod
// spec).
func (s podStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	e := fieldErrs{release: s.release}
	e.podSpec("spec", asMap(o["spec"]))
	return e.list
}

// ValidateUpdate is kube's ValidatePodUpdate: a pod's spec is immutable
// but for its images, activeDeadlineSeconds, added tolerations and a
// negative terminationGracePeriodSeconds set to 1; its containers are
// neither added nor removed. Writes to subresources check their own.
func (s podStrategy) ValidateUpdate(w *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	switch w.Subresource {
	case "ephemeralcontainers":
		return validateEphemeralContainersUpdate(o, old)
	case "resize":
		if was, now := qosClass(asMap(old["spec"])), qosClass(asMap(o["spec"])); was != now {
			return meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "spec", Value: was,
				Detail: "Pod QOS Class may not change as a result of resizing"}}
		}
		return nil
	case "status":
		var e fieldErrs
		e.podConditions(o)
		return e.list
	case "":
	default:
		return nil
	}
	e := fieldErrs{release: s.release}
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	e.podSpec("spec", spec)
	if len(meta.AsList(spec["containers"])) != len(meta.AsList(oldSpec["containers"])) ||
		len(meta.AsList(spec["initContainers"])) != len(meta.AsList(oldSpec["initContainers"])) {
		e.forbidden("spec.containers", "pod updates may not add or remove containers")
		return e.list
	}
	if !equalJSON(mungedPodSpec(spec, oldSpec), oldSpec) {
		// kube follows this line with a Go diff of the two specs.
		e.forbidden("spec", "pod updates may not change fields other than `spec.containers[*].image`,"+
			"`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),"+
			"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)")
	}
	return e.list
}

// mungedPodSpec is spec with what an update may change taken from old,
// as kube's ValidatePodUpdate munges it before comparing.
func mungedPodSpec(spec, oldSpec map[string]any) map[string]any {
	m := meta.DeepCopyValue(spec).(map[string]any)
	for _, key := range []string{"containers", "initContainers"} {
		olds := meta.AsList(oldSpec[key])
		for i, c := range meta.AsList(m[key]) {
			if i < len(olds) {
				asMap(c)["image"] = asMap(olds[i])["image"]
			}
		}
	}
	setOrDelete(m, "activeDeadlineSeconds", oldSpec["activeDeadlineSeconds"])
	if tolerationsAdded(meta.AsList(m["tolerations"]), meta.AsList(oldSpec["tolerations"])) {
		setOrDelete(m, "tolerations", oldSpec["tolerations"])
	}
	if g, _ := meta.AsInt64(oldSpec["terminationGracePeriodSeconds"]); g < 0 {
		if n, _ := meta.AsInt64(m["terminationGracePeriodSeconds"]); n == 1 {
			setOrDelete(m, "terminationGracePeriodSeconds", oldSpec["terminationGracePeriodSeconds"])
		}
	}
	return m
}

// tolerationsAdded reports whether next holds every toleration of old.
func tolerationsAdded(next, old []any) bool {
	for _, o := range old {
		found := false
		for _, n := range next {
			if equalJSON(n, o) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// podConditions is kube's validatePodConditions of a status update: a
// non-negative observedGeneration, and a type that is a qualified name
// unless it is one of the kubelet's own (reported at ".Type", as kube
// does).
func (e *fieldErrs) podConditions(o meta.Object) {
	for i, c := range meta.AsList(field(o, "status", "conditions")) {
		cond := asMap(c)
		p := fmt.Sprintf("status.conditions[%d]", i)
		if g, ok := meta.AsInt64(cond["observedGeneration"]); ok && g < 0 {
			e.invalid(p+".observedGeneration", g, "must be a non-negative integer")
		}
		typ, _ := cond["type"].(string)
		switch typ {
		case "PodScheduled", "Ready", "Initialized":
			continue
		}
		e.invalidAll(p+".Type", typ, selectors.QualifiedNameErrors(typ))
	}
}
