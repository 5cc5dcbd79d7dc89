package apiserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/kapi-dev/kapi/meta"
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
