package apiserver

import (
	"sync"

	"github.com/kapi-dev/kapi/apiserver/requestinfo"

	"github.com/kapi-dev/kapi/fieldmanager"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
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
// the fields each endpoint resets (Resource.ResetFields; by default status
// on the main resource, spec through /status). The schema was parsed when
// the type was registered; the manager converts it once, on the type's
// first write.
func (s *Server) fieldManager(r *Resource) (*fieldmanager.Manager, error) {
	slot := r.fieldManager
	slot.once.Do(func() {
		cfg := fieldmanager.Config{GVK: r.GroupVersionKind(), Schema: r.Schema, Versions: r.otherVersions}
		if r.conversion != nil {
			// Versions converted by a webhook have their own fields.
			reg := s.registry.Load()
			cfg.VersionSchemas = map[string]*schema.Schema{}
			for _, v := range r.otherVersions {
				if o := reg.lookup(r.Group, v, r.Plural); o != nil && o.conversion != nil {
					cfg.VersionSchemas[v] = o.Schema
				}
			}
		}
		switch {
		case r.ResetFields != nil:
			cfg.ResetFields = r.ResetFields
		case r.StatusSubresource:
			cfg.ResetFields = map[string][]string{"": {"status"}, "status": {"spec"}}
		}
		slot.m, slot.err = fieldmanager.NewWithConfig(cfg)
	})
	return slot.m, slot.err
}

// managerOptions reads who is writing: the fieldManager parameter, or a
// name derived from the User-Agent as kube-apiserver does, with what kube's
// options validation finds: force on a non-apply patch (any value), a
// missing fieldManager on apply, a fieldManager parameter it refuses.
func (q *request) managerOptions(apply bool) (fieldmanager.Options, meta.FieldErrors) {
	query := q.r.URL.Query()
	o := fieldmanager.Options{
		Manager: query.Get("fieldManager"), Subresource: q.info.Subresource,
		APIVersion: q.res.APIVersion(), Now: q.s.now(),
	}
	var errs meta.FieldErrors
	if apply {
		if o.Manager == "" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "fieldManager", Detail: "is required for apply patch"})
		}
		o.Force = requestinfo.QueryBool(query, "force")
	} else if _, ok := query["force"]; ok {
		errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "force", Detail: "may not be specified for non-apply patch"})
	}
	errs = append(errs, fieldmanager.ValidateManager(o.Manager)...)
	if c := q.res.conversion; c != nil {
		// Managers recorded at another version are compared at theirs.
		ctx := q.r.Context()
		o.Convert = func(obj map[string]any, apiVersion string) (map[string]any, error) {
			out, err := c.convert(ctx, []map[string]any{obj}, apiVersion)
			if err != nil {
				return nil, err
			}
			return out[0], nil
		}
	}
	if o.Manager == "" && !apply {
		o.Manager = fieldmanager.ManagerFromUserAgent(q.r.UserAgent())
	}
	return o, errs
}

// trackUpdate records a non-apply write in managedFields.
func (q *request) trackUpdate(live, obj meta.Object) meta.Object {
	if q.applying || q.tracked {
		return obj // tracked already
	}
	m, err := q.s.fieldManager(q.res)
	if err != nil {
		return obj // kube never fails a write over managedFields
	}
	o := q.mo
	o.Now = q.s.now()
	return m.Update(live, obj, o)
}
