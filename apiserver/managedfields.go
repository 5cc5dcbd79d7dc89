package apiserver

import (
	"sync"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"

	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
)

// fieldManagerSlot builds a type's field manager on first use and keeps it
// with the registration (the registry is rebuilt, and these with it, when
// CRDs change).
type fieldManagerSlot struct {
	once sync.Once
	m    *fieldmanager.Manager
	err  error
}

// fieldManager returns the type's field manager: its parsed schema (a
// built-in kind's component, a CRD version's openAPIV3Schema, none for
// schemaless types: SMD's deduced type), its other served versions, and
// the fields each endpoint resets (status on the main resource, spec
// through /status). The schema was parsed when the type was registered;
// the manager converts it once, on the type's first write.
func (s *Server) fieldManager(r *Resource) (*fieldmanager.Manager, error) {
	slot := r.fieldManager
	slot.once.Do(func() {
		cfg := fieldmanager.Config{GVK: r.GroupVersionKind(), Schema: r.Schema, Versions: r.otherVersions}
		if r.StatusSubresource {
			cfg.ResetFields = map[string][]string{"": {"status"}, "status": {"spec"}}
		}
		slot.m, slot.err = fieldmanager.NewWithConfig(cfg)
	})
	return slot.m, slot.err
}

// managerOptions reads who is writing: the fieldManager parameter, or a
// name derived from the User-Agent as kube-apiserver does, validated.
func (q *request) managerOptions(optionsKind string, apply bool) (fieldmanager.Options, error) {
	query := q.r.URL.Query()
	o := fieldmanager.Options{
		Manager: query.Get("fieldManager"), Subresource: q.info.Subresource,
		APIVersion: q.res.APIVersion(), Now: q.s.now(),
	}
	gk := meta.GroupKind{Group: "meta.k8s.io", Kind: optionsKind}
	if apply {
		if o.Manager == "" {
			return o, meta.Invalid(gk, "", meta.FieldErrors{{Type: meta.ErrorRequired, Field: "fieldManager",
				Detail: "is required for apply patch"}})
		}
		o.Force = requestinfo.QueryBool(query, "force")
	} else {
		if requestinfo.QueryBool(query, "force") {
			return o, meta.Invalid(gk, "", meta.FieldErrors{{Type: meta.ErrorForbidden, Field: "force",
				Detail: "may not be specified for non-apply patch"}})
		}
		if o.Manager == "" {
			o.Manager = fieldmanager.ManagerFromUserAgent(q.r.UserAgent())
		}
	}
	if errs := fieldmanager.ValidateManager(o.Manager); len(errs) > 0 {
		return o, meta.Invalid(gk, "", errs)
	}
	return o, nil
}

// trackUpdate records a non-apply write in managedFields.
func (q *request) trackUpdate(live, obj meta.Object) meta.Object {
	if q.applying {
		return obj // apply tracked the write already
	}
	m, err := q.s.fieldManager(q.res)
	if err != nil {
		return obj // kube never fails a write over managedFields
	}
	o := q.mo
	o.Now = q.s.now()
	return m.Update(live, obj, o)
}
