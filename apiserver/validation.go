package apiserver

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123LabelMax     = 63
	dns1123SubdomainMax = 253
)

var (
	dns1123LabelRE     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRE = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
)

// dns1123Label returns kube's messages for a value that is not an RFC 1123
// label (namespace names and the like).
func dns1123Label(v string) []string {
	var msgs []string
	if len(v) > dns1123LabelMax {
		msgs = append(msgs, fmt.Sprintf("must be no more than %d characters", dns1123LabelMax))
	}
	if !dns1123LabelRE.MatchString(v) {
		msgs = append(msgs, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "+
			"and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "+
			"regex used for validation is '"+dns1123LabelFmt+"')")
	}
	return msgs
}

// dns1123Subdomain returns kube's messages for a value that is not an RFC
// 1123 subdomain (most object names).
func dns1123Subdomain(v string) []string {
	var msgs []string
	if len(v) > dns1123SubdomainMax {
		msgs = append(msgs, fmt.Sprintf("must be no more than %d characters", dns1123SubdomainMax))
	}
	if !dns1123SubdomainRE.MatchString(v) {
		msgs = append(msgs, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "+
			"and must start and end with an alphanumeric character (e.g. 'example.com', "+
			"regex used for validation is '"+dns1123SubdomainFmt+"')")
	}
	return msgs
}

// pathSegmentName returns the messages for a name that cannot appear in a
// URL path segment.
func pathSegmentName(v string) []string {
	switch v {
	case ".", "..":
		return []string{fmt.Sprintf("may not be '%s'", v)}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(v, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}

// validateObjectMeta checks the metadata every object must satisfy.
func validateObjectMeta(obj meta.Object, res *Resource, ns string) meta.FieldErrors {
	var errs meta.FieldErrors
	name := obj.Name()
	if name == "" && obj.GenerateName() == "" {
		errs = append(errs, meta.FieldError{Type: meta.ErrorRequired, Field: "metadata.name",
			Detail: "name or generateName is required"})
	}
	if name != "" {
		nameCheck := dns1123Subdomain
		if isNamespaceResource(res) {
			nameCheck = dns1123Label
		}
		msgs := pathSegmentName(name)
		if len(msgs) == 0 {
			msgs = nameCheck(name)
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
			for _, msg := range dns1123Label(obj.Namespace()) {
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
