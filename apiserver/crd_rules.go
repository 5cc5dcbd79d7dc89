package apiserver

import (
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/schema/cel"
)

// The x-kubernetes-validations rules of CRDs: compiled when a CRD is
// written (kube's refusals of rules that do not compile or cost too
// much), kept with the parsed schema (cel.ValidatorFor) so that every
// write of a custom resource runs programs compiled once per CRD
// version, never per request.

// compileRules compiles the rules of one version's parsed schema and
// returns what kube refuses in them. On an update, a version whose schema
// is unchanged is spared the per-rule cost limit, as kube spares it.
func compileRules(s *schema.Schema, fieldPath string, version map[string]any, oldCRD meta.Object) meta.FieldErrors {
	opts := cel.Options{FieldPath: fieldPath}
	if oldCRD != nil {
		name := str(version, "name")
		newSchema, _ := meta.NestedField(version, "schema", "openAPIV3Schema")
		for _, ov := range meta.AsMaps(nestedList(oldCRD, "spec", "versions")) {
			if str(ov, "name") != name {
				continue
			}
			if oldSchema, ok := meta.NestedField(ov, "schema", "openAPIV3Schema"); ok && meta.EqualValues(oldSchema, newSchema) {
				opts.SuppressPerExpressionCost = true
			}
		}
	}
	v, errs := cel.Compile(s, opts)
	if v != nil && len(errs) == 0 {
		// The programs serve the CRD once it is stored (the parsed schema
		// is kept for it).
		s.Derived(cel.ValidatorKey, func() any { return v })
	}
	return errs
}

// schemasHoisted reports whether every version has the same schema: kube
// validates a CRD in its internal form, which keeps such a schema once,
// as spec.validation, and words its errors with that path.
func schemasHoisted(versions []any) bool {
	var first any
	for i, v := range meta.AsMaps(versions) {
		sch, _ := meta.NestedField(v, "schema")
		if i == 0 {
			first = sch
			continue
		}
		if !meta.EqualValues(first, sch) {
			return false
		}
	}
	return len(versions) > 0
}

func nestedList(obj meta.Object, path ...string) []any {
	v, _ := meta.NestedField(obj, path...)
	l, _ := v.([]any)
	return l
}

// validateCustomResource appends to errs (what validation found so far)
// a custom resource's schema errors, then, unless one of them is of a
// kind kube lets block the rules, the errors of its x-kubernetes-
// validations rules, as apiextensions-apiserver's strategies do. On an
// update (old set) both are ratcheted as in kube 1.33: errors of values
// the update leaves unchanged are dropped, and a rule failure so forgiven
// becomes a warning. Built-in kinds were checked by applyDefaults.
func (q *request) validateCustomResource(obj, old meta.Object, errs meta.FieldErrors) meta.FieldErrors {
	r := q.res
	if r.Schema == nil || !r.customResource {
		return errs
	}
	schemaErrs := r.Schema.Validate(obj)
	if old != nil {
		schemaErrs = cel.Ratchet(r.Schema, schemaErrs, obj, old)
	}
	errs = append(errs, schemaErrs...)
	v := cel.ValidatorFor(r.Schema)
	if v == nil {
		return errs
	}
	for _, e := range errs {
		switch e.Type {
		case meta.ErrorNotSupported, meta.ErrorRequired, meta.ErrorTooLong, meta.ErrorTooMany, meta.ErrorTypeInvalid:
			return append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "<nil>", Value: "null", // kube quotes it
				Detail: "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"})
		}
	}
	ruleErrs, warnings := v.Validate(q.r.Context(), obj, old)
	q.warnings = append(q.warnings, warnings...)
	return append(errs, ruleErrs...)
}
