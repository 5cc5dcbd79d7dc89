package builtin

import (
	"github.com/kapi-dev/kapi/meta"
)

// The validation of the workload kinds the first half of issue 13
// registers (ReplicaSet, DaemonSet, StatefulSet, Job,
// ReplicationController, PersistentVolumeClaim; RBAC's is
// rbac_authorization.go's), as functions their
// strategies' Validate and ValidateUpdate call: kube's checks where users
// hit them (pkg/apis/apps, batch and core validation).

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

// validateDaemonSet is kube's ValidateDaemonSetSpec.
func validateDaemonSet(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	e.workloadSelector("spec", spec, "daemonset")
	e.replicaTemplate("spec.template", spec)
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	if s, ok := spec["updateStrategy"].(map[string]any); ok {
		typ, _ := s["type"].(string)
		if typ != "RollingUpdate" && typ != "OnDelete" {
			ru := "(*apps.RollingUpdateDaemonSet)(nil)"
			if _, ok := s["rollingUpdate"].(map[string]any); ok {
				ru = "&apps.RollingUpdateDaemonSet{...}"
			}
			e.notSupported("spec.updateStrategy", goValue(`apps.DaemonSetUpdateStrategy{Type:"`+typ+`", RollingUpdate:`+ru+`}`),
				"RollingUpdate", "OnDelete")
		}
	}
	e.nonNegative("spec.revisionHistoryLimit", spec["revisionHistoryLimit"])
	return e.list
}

// validateDaemonSetUpdate keeps the selector.
func validateDaemonSetUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	e.immutableSelector("spec.selector", field(o, "spec", "selector"), field(old, "spec", "selector"))
	return append(e.list, validateDaemonSet(o)...)
}

// validateStatefulSet is kube's ValidateStatefulSetSpec.
func validateStatefulSet(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	if p, ok := spec["podManagementPolicy"].(string); ok && p != "OrderedReady" && p != "Parallel" {
		e.invalid("spec.podManagementPolicy", p, "must be 'OrderedReady' or 'Parallel'")
	}
	if s, ok := spec["updateStrategy"].(map[string]any); ok {
		typ, _ := s["type"].(string)
		if typ != "RollingUpdate" && typ != "OnDelete" {
			ru := "(*apps.RollingUpdateStatefulSetStrategy)(nil)"
			if _, ok := s["rollingUpdate"].(map[string]any); ok {
				ru = "&apps.RollingUpdateStatefulSetStrategy{...}"
			}
			e.invalid("spec.updateStrategy", goValue(`apps.StatefulSetUpdateStrategy{Type:"`+typ+`", RollingUpdate:`+ru+`}`),
				"must be 'RollingUpdate' or 'OnDelete'")
		}
	}
	e.nonNegative("spec.replicas", spec["replicas"])
	if n, ok := meta.AsInt64(field(spec, "ordinals", "start")); ok {
		e.nonNegative("spec.ordinals.start", n)
	}
	e.nonNegative("spec.minReadySeconds", spec["minReadySeconds"])
	e.workloadSelector("spec", spec, "statefulset")
	e.replicaTemplate("spec.template", spec)
	return e.list
}

// validateStatefulSetUpdate: a StatefulSet's spec is immutable but for
// replicas, ordinals, template, updateStrategy, revisionHistoryLimit, the
// claim retention policy and minReadySeconds.
func validateStatefulSetUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	masked := meta.DeepCopyValue(spec).(map[string]any)
	for _, k := range []string{"replicas", "ordinals", "template", "updateStrategy", "revisionHistoryLimit",
		"persistentVolumeClaimRetentionPolicy", "minReadySeconds"} {
		setOrDelete(masked, k, oldSpec[k])
	}
	if !equalJSON(masked, oldSpec) {
		e.forbidden("spec", "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "+
			"'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden")
	}
	return append(validateStatefulSet(o), e.list...)
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
			e.invalid("spec.template.metadata.labels", goValue(goStringMap(labels)), "`selector` does not match template `labels`")
			break
		}
	}
	e.podTemplate("spec.template", tmpl)
	if rp, _ := asMap(tmpl["spec"])["restartPolicy"].(string); rp != "Always" {
		e.notSupported("spec.template.spec.restartPolicy", rp, "Always")
	}
	return e.list
}

// validateJob is the part of kube's ValidateJob users hit.
func validateJob(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	if spec["manualSelector"] != true && spec["selector"] != nil {
		uid, name := o.UID(), o.Name()
		labels := asMap(field(spec, "template", "metadata", "labels"))
		for _, l := range [][2]string{{"controller-uid", uid}, {"job-name", name},
			{"batch.kubernetes.io/controller-uid", uid}, {"batch.kubernetes.io/job-name", name}} {
			p := "spec.template.metadata.labels[" + l[0] + "]"
			switch v, ok := labels[l[0]]; {
			case !ok:
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p, Detail: "must be '" + l[1] + "'"})
			case v != l[1]:
				e.invalid(p, goValue(goStringMap(labels)), "must be '"+l[1]+"'")
			}
		}
		expected := map[string]any{"batch.kubernetes.io/controller-uid": uid, "batch.kubernetes.io/job-name": name,
			"controller-uid": uid, "job-name": name}
		if !selectorMatches(spec["selector"], expected) {
			e.invalid("spec.selector", goValue(goLabelSelector(spec["selector"])), "`selector` not auto-generated")
		}
	}
	e.jobSpec("spec", spec)
	if sel, ok := spec["selector"].(map[string]any); ok {
		e.labelSelector("spec.selector", sel)
	}
	labels := asMap(field(spec, "template", "metadata"))["labels"]
	if spec["selector"] != nil && !selectorMatches(spec["selector"], labels) {
		e.invalid("spec.template.metadata.labels", goValue(goStringMap(labels)), "`selector` does not match template `labels`")
	}
	return e.list
}

// validateJobUpdate: a Job's selector, template and completions stay
// (kube lets a suspended job's template change; kapi as well).
func validateJobUpdate(o, old meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec, oldSpec := asMap(o["spec"]), asMap(old["spec"])
	if !equalJSON(spec["selector"], oldSpec["selector"]) {
		e.invalid("spec.selector", goValue(goLabelSelector(spec["selector"])), "field is immutable")
	}
	if !equalJSON(spec["template"], oldSpec["template"]) && oldSpec["suspend"] != true {
		e.invalid("spec.template", goValue("core.PodTemplateSpec{...}"), "field is immutable")
	}
	if !equalJSON(spec["completions"], oldSpec["completions"]) && spec["completionMode"] != "Indexed" {
		n, _ := meta.AsInt64(spec["completions"])
		e.invalid("spec.completions", n, "field is immutable")
	}
	return append(validateJob(o), e.list...)
}

// validatePersistentVolumeClaim is kube's ValidatePersistentVolumeClaimSpec
// for what users hit: access modes and a storage request.
func validatePersistentVolumeClaim(o meta.Object) meta.FieldErrors {
	var e fieldErrs
	spec := asMap(o["spec"])
	modes := asList(spec["accessModes"])
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
