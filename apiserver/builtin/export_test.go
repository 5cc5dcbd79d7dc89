package builtin

import (
	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// pendingStrategy carries the validation of a kind whose registration
// (its strategy type) the first half of issue 13 brings, so that its
// recorded cases run before then.
type pendingStrategy struct {
	apiserver.GenericStrategy
	validate       func(meta.Object) meta.FieldErrors
	validateUpdate func(o, old meta.Object) meta.FieldErrors
	names          func(string) []string
	prepare        func(meta.Object)
	prepareUpdate  func(w *apiserver.Write, o, old meta.Object) meta.Object
	subresources   []apiserver.Subresource
}

func (s pendingStrategy) PrepareForUpdate(w *apiserver.Write, o, old meta.Object) meta.Object {
	if s.prepareUpdate != nil {
		return s.prepareUpdate(w, o, old)
	}
	return s.GenericStrategy.PrepareForUpdate(w, o, old)
}

func (s pendingStrategy) Subresources() []apiserver.Subresource { return s.subresources }

func (s pendingStrategy) Default(o meta.Object) {
	if t := asMap(field(o, "spec", "template")); t != nil {
		defaultPodSpec(obj(t, "spec"))
	}
}

func (s pendingStrategy) PrepareForCreate(_ *apiserver.Write, o meta.Object) {
	if s.prepare != nil {
		s.prepare(o)
	}
}

func (s pendingStrategy) Validate(_ *apiserver.Write, o meta.Object) meta.FieldErrors {
	return s.validate(o)
}

func (s pendingStrategy) ValidateUpdate(_ *apiserver.Write, o, old meta.Object) meta.FieldErrors {
	return s.validateUpdate(o, old)
}

func (s pendingStrategy) NameErrors(name string) []string {
	if s.names != nil {
		return s.names(name)
	}
	return s.GenericStrategy.NameErrors(name)
}

// PendingKinds are registrations, for tests, of the kinds whose
// validation is here before their registration: those absent from rs.
func PendingKinds(rs []apiserver.Resource) []apiserver.Resource {
	has := func(group, plural string) bool {
		for _, r := range rs {
			if r.Group == group && r.Plural == plural {
				return true
			}
		}
		return false
	}
	generateJobSelector := func(o meta.Object) {
		spec := obj(o, "spec")
		if spec["manualSelector"] == true {
			return
		}
		uid := o.UID()
		setDefault(obj(obj(spec, "selector"), "matchLabels"), "batch.kubernetes.io/controller-uid", uid)
		labels := obj(obj(obj(spec, "template"), "metadata"), "labels")
		for k, v := range map[string]string{"batch.kubernetes.io/controller-uid": uid, "controller-uid": uid,
			"batch.kubernetes.io/job-name": o.Name(), "job-name": o.Name()} {
			setDefault(labels, k, v)
		}
	}
	all := []apiserver.Resource{
		{Group: "apps", Version: "v1", Kind: "ReplicaSet", Plural: "replicasets", Namespaced: true, StatusSubresource: true,
			Strategy: pendingStrategy{validate: validateReplicaSet, validateUpdate: validateReplicaSetUpdate}},
		{Group: "apps", Version: "v1", Kind: "DaemonSet", Plural: "daemonsets", Namespaced: true, StatusSubresource: true,
			Strategy: pendingStrategy{validate: validateDaemonSet, validateUpdate: validateDaemonSetUpdate}},
		{Group: "apps", Version: "v1", Kind: "StatefulSet", Plural: "statefulsets", Namespaced: true, StatusSubresource: true,
			Strategy: pendingStrategy{validate: validateStatefulSet, validateUpdate: validateStatefulSetUpdate}},
		{Group: "batch", Version: "v1", Kind: "Job", Plural: "jobs", Namespaced: true, StatusSubresource: true,
			Strategy: pendingStrategy{validate: validateJob, validateUpdate: validateJobUpdate, prepare: generateJobSelector}},
		{Version: "v1", Kind: "ReplicationController", Plural: "replicationcontrollers", Namespaced: true, StatusSubresource: true,
			Strategy: pendingStrategy{validate: validateReplicationController,
				validateUpdate: func(o, _ meta.Object) meta.FieldErrors { return validateReplicationController(o) }}},
		{Version: "v1", Kind: "PersistentVolumeClaim", Plural: "persistentvolumeclaims", Namespaced: true, StatusSubresource: true,
			WithoutGeneration: true,
			Strategy:          pendingStrategy{validate: validatePersistentVolumeClaim, validateUpdate: validatePersistentVolumeClaimUpdate}},
	}
	all = append(all, apiserver.Resource{Group: "certificates.k8s.io", Version: "v1", Kind: "CertificateSigningRequest",
		Plural: "certificatesigningrequests", ShortNames: []string{"csr"}, StatusSubresource: true, WithoutGeneration: true,
		Strategy: pendingStrategy{validate: validateCSRConditions, validateUpdate: validateCSRUpdate, prepareUpdate: prepareCSRUpdate,
			subresources: []apiserver.Subresource{{Name: "approval", Verbs: []string{"get", "patch", "update"}}}}})
	all = append(all, apiserver.Resource{Version: "v1", Kind: "Node", Plural: "nodes", ShortNames: []string{"no"},
		StatusSubresource: true, WithoutGeneration: true, Strategy: pendingStrategy{subresources: nodeSubresources,
			validate: func(meta.Object) meta.FieldErrors { return nil }, validateUpdate: func(o, _ meta.Object) meta.FieldErrors { return nil }}})
	all = append(all, apiserver.Resource{Version: "v1", Kind: "Binding", Plural: "bindings", Namespaced: true,
		Verbs: []string{"create"}, CreateOnly: createBinding})
	var out []apiserver.Resource
	for _, r := range all {
		if !has(r.Group, r.Plural) {
			out = append(out, r)
		}
	}
	return out
}
