package apiserver

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// Metadata validation composed as kube-apiserver composes it; which checks
// run, and how many times, shows in the causes of a 422.
//
// A create: the kind's own validation, whose ObjectMeta part is
// objectMetaErrors with the kind's name rule (plus kubeFinalizerErrors for
// built-in kinds, as kube's core ValidateObjectMeta adds them); only if the
// kind finds nothing, objectMetaErrors again with the generic path-segment
// name rule.
//
// An update: objectMetaErrors with the path-segment rule and
// objectMetaUpdateErrors (the registry's common checks), then the kind's
// ValidateObjectMetaUpdate (objectMetaUpdateErrors again, plus
// kubeFinalizerErrors for built-in kinds), then the kind's ValidateUpdate,
// which for some kinds (ConfigMap, Secret, Service, CRD...) validates the
// new object as on create again (ValidateObjectMeta).

// createMetaErrors is the ObjectMeta part of a kind's create validation.
func (r *Resource) createMetaErrors(obj meta.Object) meta.FieldErrors {
	errs := objectMetaErrors(obj, r.Namespaced, r.strategy().NameErrors, labelAndAnnotationErrors(obj))
	if !r.customResource {
		errs = append(errs, kubeFinalizerErrors(obj)...)
	}
	return errs
}

// genericMetaErrors is the registry's common ObjectMeta check, names
// usable as path segments, given the object's label and annotation errors.
func (r *Resource) genericMetaErrors(obj meta.Object, labelErrs meta.FieldErrors) meta.FieldErrors {
	return objectMetaErrors(obj, r.Namespaced, pathSegmentName, labelErrs)
}

// genericNameErrors is what genericMetaErrors adds to a create the kind's
// checks passed: everything else it checks passed too.
func genericNameErrors(obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	if gn := obj.GenerateName(); gn != "" {
		for _, msg := range pathSegmentName(maskTrailingDash(gn)) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "metadata.generateName", Value: gn, Detail: msg})
		}
	}
	if name := obj.Name(); name != "" {
		for _, msg := range pathSegmentName(name) {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "metadata.name", Value: name, Detail: msg})
		}
	}
	return errs
}

func pathSegmentName(name string) []string { return schema.PathSegmentName(name, false) }

// updateMetaErrors is what an update checks of ObjectMeta before the
// kind's ValidateUpdate: the registry's common checks, then the kind's
// ValidateObjectMetaUpdate.
func (r *Resource) updateMetaErrors(obj, old meta.Object) meta.FieldErrors {
	labelErrs := labelAndAnnotationErrors(obj) // every pass checks them again: compute once
	errs := r.genericMetaErrors(obj, labelErrs)
	errs = append(errs, objectMetaUpdateErrors(obj, old, labelErrs)...)
	errs = append(errs, objectMetaUpdateErrors(obj, old, labelErrs)...)
	if !r.customResource {
		errs = append(errs, kubeFinalizerErrors(obj)...)
	}
	return errs
}

// ValidateObjectMeta is kube's core ValidateObjectMeta for a built-in
// kind: ObjectMeta with the kind's name rule and its finalizer names. A
// kind whose kube validation of an update validates the new object as on
// create (ConfigMap, Secret, Service, ...) calls it from ValidateUpdate.
func ValidateObjectMeta(w *Write, obj meta.Object) meta.FieldErrors {
	return w.res.createMetaErrors(obj)
}

// objectMetaErrors is kube's ValidateObjectMetaAccessor, in its order:
// generateName and name by nameErrors (generateName as a prefix: a
// trailing '-' is allowed), namespace, labels, annotations, and finalizer
// names (reported on metadata.finalizers, without index). labelErrs are
// the object's label and annotation errors (labelAndAnnotationErrors).
func objectMetaErrors(obj meta.Object, namespaced bool, nameErrors func(string) []string, labelErrs meta.FieldErrors) meta.FieldErrors {
	var errs meta.FieldErrors
	invalid := func(field string, value any, msgs []string) {
		for _, m := range msgs {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: field, Value: value, Detail: m})
		}
	}
	if gn := obj.GenerateName(); gn != "" {
		invalid("metadata.generateName", gn, nameErrors(maskTrailingDash(gn)))
	}
	if name := obj.Name(); name == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "metadata.name",
			Detail: "name or generateName is required"})
	} else {
		invalid("metadata.name", name, nameErrors(name))
	}
	if namespaced {
		if ns := obj.Namespace(); ns == "" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "metadata.namespace"})
		} else {
			invalid("metadata.namespace", ns, schema.DNS1123Label(ns))
		}
	}
	errs = append(errs, labelErrs...)
	finalizers := obj.Finalizers()
	for _, f := range finalizers {
		invalid("metadata.finalizers", f, selectors.QualifiedNameErrors(f))
	}
	if slices.Contains(finalizers, "orphan") && slices.Contains(finalizers, "foregroundDeletion") {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "metadata.finalizers", Value: finalizers,
			Detail: "finalizer orphan and foregroundDeletion cannot be both set"})
	}
	return errs
}

// maskTrailingDash lets a generateName end with '-', as kube checks a
// name prefix.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-1] + "a"
	}
	return name
}

// objectMetaUpdateErrors is kube's ValidateObjectMetaAccessorUpdate, as far
// as a client can fail it (the server keeps the fields it owns): no new
// finalizers on an object being deleted, then labels and annotations
// (labelErrs, their errors).
func objectMetaUpdateErrors(obj, old meta.Object, labelErrs meta.FieldErrors) meta.FieldErrors {
	var errs meta.FieldErrors
	if old.DeletionTimestamp() != "" {
		if added := newFinalizers(old.Finalizers(), obj.Finalizers()); len(added) > 0 {
			errs = append(errs, meta.FieldError{Type: meta.ErrorForbidden, Field: "metadata.finalizers",
				Detail: fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizers %#v",
					added)})
		}
	}
	return append(errs, labelErrs...)
}

// kubeFinalizerErrors is what kube's core validation adds for built-in
// kinds: a finalizer without '/' must be one of kube's own.
func kubeFinalizerErrors(obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	for i, f := range obj.Finalizers() {
		if !strings.Contains(f, "/") && f != "kubernetes" && f != "orphan" && f != "foregroundDeletion" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: fmt.Sprintf("metadata.finalizers[%d]", i), Value: f,
				Detail: "name is neither a standard finalizer name nor is it fully qualified"})
		}
	}
	return errs
}

// maxAnnotationsBytes bounds the total size of an object's annotations.
const maxAnnotationsBytes = 256 * 1024

// labelAndAnnotationErrors checks label keys and values, annotation keys
// and their total size, as kube validates ObjectMeta.
func labelAndAnnotationErrors(obj meta.Object) meta.FieldErrors {
	var errs meta.FieldErrors
	md := obj.Metadata()
	invalid := func(field string, value any, msgs []string) {
		for _, m := range msgs {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: field, Value: value, Detail: m})
		}
	}
	if labels, ok := md["labels"].(map[string]any); ok {
		for _, k := range sortedKeys(labels) {
			invalid("metadata.labels", k, selectors.QualifiedNameErrors(k))
			v, isString := labels[k].(string)
			if !isString {
				continue
			}
			invalid("metadata.labels", v, selectors.LabelValueErrors(v))
		}
	}
	if annotations, ok := md["annotations"].(map[string]any); ok {
		total := 0
		for _, k := range sortedKeys(annotations) {
			invalid("metadata.annotations", k, selectors.QualifiedNameErrors(strings.ToLower(k)))
			v, _ := annotations[k].(string)
			total += len(k) + len(v)
		}
		if total > maxAnnotationsBytes {
			errs = append(errs, meta.FieldError{Type: meta.ErrorTooLong, Field: "metadata.annotations",
				Detail: fmt.Sprintf("may not be more than %d bytes", maxAnnotationsBytes)})
		}
	}
	return errs
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// schemaErrorsBeside are the schema's findings reported beside the kind's
// own: none when its strategy validates completely, otherwise those on
// fields the kind's errors do not cover (withoutOverlaps).
func (r *Resource) schemaErrorsBeside(schemaErrs, own meta.FieldErrors) meta.FieldErrors {
	if r.ValidatesCompletely {
		return nil
	}
	return withoutOverlaps(schemaErrs, own)
}

// withoutOverlaps drops the schema's errors about a field the kind's own
// validation reports on (that field, one inside it or one enclosing it):
// for a built-in kind the schema's checks (enums, required fields) stand
// in for kube's Go validation, and where the kind makes kube's own check,
// kube's words win.
func withoutOverlaps(schemaErrs, own meta.FieldErrors) meta.FieldErrors {
	if len(own) == 0 {
		return schemaErrs
	}
	var out meta.FieldErrors
	for _, e := range schemaErrs {
		overlaps := false
		for _, o := range own {
			if pathWithin(e.Field, o.Field) || pathWithin(o.Field, e.Field) || pathWithin(withoutIndices(e.Field), o.Field) {
				overlaps = true
				break
			}
		}
		if !overlaps {
			out = append(out, e)
		}
	}
	return out
}

// withoutIndices drops a path's list indices: kube reports some errors
// about a list's items on the list's path with the item's field but no
// index (a quota's spec.scopeSelector.matchExpressions.scopeName).
func withoutIndices(p string) string {
	if !strings.Contains(p, "[") {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '[' {
			if j := strings.IndexByte(p[i:], ']'); j > 0 && strings.Trim(p[i+1:i+j], "0123456789") == "" {
				i += j
				continue
			}
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// pathWithin reports whether field path p is q or inside it.
func pathWithin(p, q string) bool {
	if !strings.HasPrefix(p, q) {
		return false
	}
	return len(p) == len(q) || p[len(q)] == '.' || p[len(q)] == '['
}
