package apiserver

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// validateObjectMeta checks the metadata every object must satisfy.
func validateObjectMeta(obj meta.Object, res *Resource, ns string) meta.FieldErrors {
	var errs meta.FieldErrors
	name := obj.Name()
	if name == "" && obj.GenerateName() == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "metadata.name",
			Detail: "name or generateName is required"})
	}
	if name != "" {
		msgs := schema.PathSegmentName(name, false)
		if len(msgs) == 0 {
			msgs = res.strategy().NameErrors(name)
		}
		for _, msg := range msgs {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "metadata.name", Value: name, Detail: msg})
		}
	}
	errs = append(errs, validateLabelsAndAnnotations(obj)...)
	if res.Namespaced {
		if obj.Namespace() == "" {
			errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "metadata.namespace"})
		} else {
			for _, msg := range schema.DNS1123Label(obj.Namespace()) {
				errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "metadata.namespace", Value: obj.Namespace(), Detail: msg})
			}
		}
	}
	return errs
}

// maxAnnotationsBytes bounds the total size of an object's annotations.
const maxAnnotationsBytes = 256 * 1024

// validateLabelsAndAnnotations checks label keys and values, annotation
// keys and total size, and finalizer names, as kube validates ObjectMeta.
func validateLabelsAndAnnotations(obj meta.Object) meta.FieldErrors {
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
				Detail: fmt.Sprintf("must have at most %d bytes", maxAnnotationsBytes)})
		}
	}
	for i, f := range obj.Finalizers() {
		invalid(fmt.Sprintf("metadata.finalizers[%d]", i), f, selectors.QualifiedNameErrors(f))
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
