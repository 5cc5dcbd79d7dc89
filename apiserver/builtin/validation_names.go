package builtin

import (
	"regexp"
	"strings"

	"github.com/kapi-dev/kapi/schema"
)

// Names as kube's validation checks them beyond a schema: DNS subdomains,
// hosts and wildcard hosts, domain-prefixed paths.

const wildcardSubdomainFmt = "\\*\\." + "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"

var wildcardSubdomainRE = regexp.MustCompile("^" + wildcardSubdomainFmt + "$")

// wildcardSubdomainErrors is kube's IsWildcardDNS1123Subdomain: "*."
// followed by a DNS subdomain.
func wildcardSubdomainErrors(v string) []string {
	var msgs []string
	if len(v) > 253 {
		msgs = append(msgs, "must be no more than 253 characters")
	}
	if !wildcardSubdomainRE.MatchString(v) {
		msgs = append(msgs, "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, "+
			"which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character "+
			"(e.g. '*.example.com', regex used for validation is '"+wildcardSubdomainFmt+"')")
	}
	return msgs
}

// hostErrors checks a host that may be a wildcard ("*.example.com"), as
// an Ingress rule's and TLS hosts are.
func hostErrors(host string) []string {
	if strings.Contains(host, "*") {
		return wildcardSubdomainErrors(host)
	}
	return schema.DNS1123Subdomain(host)
}

var httpPathRE = regexp.MustCompile(`^[A-Za-z0-9/\-._~%!$&'()*+,;=:]+$`)

// domainPrefixedPath is kube's IsDomainPrefixedPath: "example.com/path".
func (e *fieldErrs) domainPrefixedPath(path, v string) {
	if v == "" {
		e.required(path)
		return
	}
	host, rest, ok := strings.Cut(v, "/")
	if !ok || host == "" || rest == "" {
		e.invalid(path, v, `must be a domain-prefixed path (such as "acme.io/foo")`)
		return
	}
	e.invalidAll(path, host, schema.DNS1123Subdomain(host))
	if !httpPathRE.MatchString(rest) {
		e.invalid(path, rest, `Invalid path (regex used for validation is '[A-Za-z0-9/\-._~%!$&'()*+,;=:]+')`)
	}
}

// dnsSubdomain reports kube's IsDNS1123Subdomain messages for v at path.
func (e *fieldErrs) dnsSubdomain(path, v string) {
	e.invalidAll(path, v, schema.DNS1123Subdomain(v))
}
