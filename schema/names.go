package schema

import (
	"fmt"
	"regexp"
	"strings"
)

// Kubernetes' name formats, with the messages kube-apiserver words their
// violations with. Object metadata validation and the validation of
// embedded resources share them.

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	labelMaxLength      = 63
	subdomainMaxLength  = 253
)

var (
	dns1123LabelRE     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRE = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	dns1035LabelRE     = regexp.MustCompile("^" + dns1035LabelFmt + "$")
)

func maxLength(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// DNS1123Label returns kube's messages for a value that is not an RFC 1123
// label (namespace names and the like); nil when valid.
func DNS1123Label(v string) []string {
	var msgs []string
	if len(v) > labelMaxLength {
		msgs = append(msgs, maxLength(labelMaxLength))
	}
	if !dns1123LabelRE.MatchString(v) {
		if dns1123SubdomainRE.MatchString(v) {
			// A valid subdomain of a valid length: its dots are the fault.
			return append(msgs, "must not contain dots")
		}
		msgs = append(msgs, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "+
			"and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "+
			"regex used for validation is '"+dns1123LabelFmt+"')")
	}
	return msgs
}

// DNS1123Subdomain returns kube's messages for a value that is not an RFC
// 1123 subdomain (most object names); nil when valid.
func DNS1123Subdomain(v string) []string {
	var msgs []string
	if len(v) > subdomainMaxLength {
		msgs = append(msgs, maxLength(subdomainMaxLength))
	}
	if !dns1123SubdomainRE.MatchString(v) {
		msgs = append(msgs, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "+
			"and must start and end with an alphanumeric character (e.g. 'example.com', "+
			"regex used for validation is '"+dns1123SubdomainFmt+"')")
	}
	return msgs
}

// DNS1035Label returns kube's messages for a value that is not an RFC 1035
// label; nil when valid.
func DNS1035Label(v string) []string {
	var msgs []string
	if len(v) > labelMaxLength {
		msgs = append(msgs, maxLength(labelMaxLength))
	}
	if !dns1035LabelRE.MatchString(v) {
		msgs = append(msgs, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', "+
			"start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "+
			"regex used for validation is '"+dns1035LabelFmt+"')")
	}
	return msgs
}

// PathSegmentName returns kube's messages for a name that cannot be a URL
// path segment; prefix relaxes the check for a generateName.
func PathSegmentName(v string, prefix bool) []string {
	if !prefix {
		switch v {
		case ".", "..":
			return []string{fmt.Sprintf("may not be '%s'", v)}
		}
	}
	var msgs []string
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(v, bad) {
			msgs = append(msgs, fmt.Sprintf("may not contain '%s'", bad))
		}
	}
	return msgs
}
