package builtin

import (
	"fmt"
	"net"
	"regexp"
	"strings"

	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// The checks of kube's Go validation that networking, scheduling and node
// kinds share (Ingress, IngressClass, NetworkPolicy, PriorityClass,
// RuntimeClass): hosts and wildcard hosts, IPs and CIDRs as kube's legacy
// fields parse them, domain-prefixed paths, tolerations and resource
// lists; with kube's field paths, error types and messages.

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

// parseIPSloppy parses an IP as kube's legacy fields do: IPv4 octets may
// have leading zeros (read as decimal).
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if strings.Contains(s, ":") {
		return nil
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil
	}
	for i, p := range parts {
		if t := strings.TrimLeft(p, "0"); len(p) > 1 && len(p) <= 3 {
			if t == "" {
				t = "0"
			}
			parts[i] = t
		}
	}
	return net.ParseIP(strings.Join(parts, "."))
}

// parseCIDRSloppy is net.ParseCIDR with parseIPSloppy's address.
func parseCIDRSloppy(s string) (*net.IPNet, bool) {
	i := strings.IndexByte(s, '/')
	if i < 0 {
		return nil, false
	}
	ip := parseIPSloppy(s[:i])
	if ip == nil {
		return nil, false
	}
	text := ip.String()
	if ip.To4() == nil && !strings.Contains(s[:i], ":") {
		return nil, false
	}
	_, n, err := net.ParseCIDR(text + s[i:])
	if err != nil {
		return nil, false
	}
	return n, true
}

// ipAddress is kube's IsValidIPForLegacyField for a set value: any value
// the old version held is kept.
func (e *fieldErrs) ipAddress(path, v string, existing map[string]bool) {
	if existing[v] || parseIPSloppy(v) != nil {
		return
	}
	e.invalid(path, v, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
}

// cidr is kube's IsValidCIDRForLegacyField for a set value.
func (e *fieldErrs) cidr(path, v string) (*net.IPNet, bool) {
	n, ok := parseCIDRSloppy(v)
	if !ok {
		e.invalid(path, v, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")
	}
	return n, ok
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

// tolerations is kube's ValidateTolerations; path is the list's (each is
// reported at path[i]).
func (e *fieldErrs) tolerations(path string, list []any) {
	for i, t := range list {
		tol := asMap(t)
		p := fmt.Sprintf("%s[%d]", path, i)
		key, _ := tol["key"].(string)
		op, _ := tol["operator"].(string)
		value, _ := tol["value"].(string)
		effect, _ := tol["effect"].(string)
		if key != "" {
			e.invalidAll(p+".key", key, selectors.QualifiedNameErrors(key))
		}
		if key == "" && op != "Exists" {
			e.invalid(p+".operator", op, "operator must be Exists when `key` is empty, which means \"match all values and all keys\"")
		}
		if tol["tolerationSeconds"] != nil && effect != "NoExecute" {
			e.invalid(p+".effect", effect, "effect must be 'NoExecute' when `tolerationSeconds` is set")
		}
		switch op {
		case "Equal", "":
			if msgs := selectors.LabelValueErrors(value); len(msgs) > 0 {
				e.invalid(p+".operator", value, strings.Join(msgs, ";"))
			}
		case "Exists":
			if value != "" {
				e.invalid(p+".operator", value, "value must be empty when `operator` is 'Exists'")
			}
		default:
			e.notSupported(p+".operator", op, "Equal", "Exists")
		}
		if effect != "" {
			e.enum(p+".effect", effect, "NoSchedule", "PreferNoSchedule", "NoExecute")
		}
	}
}

// standardContainerResources are the resources a container may ask for
// without a domain (besides hugepages-*).
var standardContainerResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true}

// standardResources are the other resource names kube knows without a
// domain (quotas' and nodes').
var standardResources = map[string]bool{"cpu": true, "memory": true, "ephemeral-storage": true, "storage": true,
	"pods": true, "services": true, "replicationcontrollers": true, "resourcequotas": true, "secrets": true,
	"configmaps": true, "persistentvolumeclaims": true, "services.nodeports": true, "services.loadbalancers": true,
	"requests.cpu": true, "requests.memory": true, "requests.storage": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true}

// resourceLimits is the part of kube's ValidateResourceRequirements a
// list of limits gets (a RuntimeClass's overhead): each name a container
// resource, each quantity not negative. kube walks the map in Go's random
// order; kapi in the names' order.
func (e *fieldErrs) resourceLimits(path string, limits map[string]any) {
	for _, name := range sortedMapKeys(limits) {
		p := path + "[" + name + "]"
		e.invalidAll(p, name, selectors.QualifiedNameErrors(name))
		native := !strings.Contains(name, "/") || strings.Contains(strings.SplitN(name, "/", 2)[0], "kubernetes.io")
		if !strings.Contains(name, "/") {
			if !standardResources[name] && !strings.HasPrefix(name, "hugepages-") {
				e.invalid(p, goValue(name), "must be a standard resource type or fully qualified")
			}
			if !standardContainerResources[name] && !strings.HasPrefix(name, "hugepages-") {
				e.invalid(p, goValue(name), "must be a standard resource for containers")
			}
		} else if !native && strings.HasPrefix(name, "requests.") {
			e.invalid(p, goValue(name), "doesn't follow extended resource name standard")
		}
		q, _ := limits[name].(string)
		if negativeQuantity(q) {
			text, ok := canonicalQuantity(q)
			if !ok {
				text = q
			}
			e.invalid(p, text, "must be greater than or equal to 0")
		}
	}
}

// negativeQuantity reports whether a quantity's text is below zero.
func negativeQuantity(s string) bool {
	negative, whole, fraction, _, ok := splitQuantity(strings.TrimSpace(s))
	return ok && negative && strings.Trim(whole+fraction, "0") != ""
}

// goPolicyTypes prints a NetworkPolicy's policyTypes as kube's messages
// show them.
func goPolicyTypes(list []any) goValue {
	q := make([]string, len(list))
	for i, v := range list {
		s, _ := v.(string)
		q[i] = fmt.Sprintf("%q", s)
	}
	return goValue("[]networking.PolicyType{" + strings.Join(q, ", ") + "}")
}
