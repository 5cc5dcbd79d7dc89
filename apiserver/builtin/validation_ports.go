package builtin

import (
	"regexp"
	"strings"
	_ "time/tzdata"

	"github.com/kapi-dev/kapi/meta"
)

// Port numbers, port names and protocols, as kube's validation checks them
// in containers, Services, Endpoints, Ingresses and NetworkPolicies.

// portNumber is kube's IsValidPortNum on a set value.
func (e *fieldErrs) portNumber(path string, n int64) {
	if n < 1 || n > 65535 {
		e.invalid(path, n, "must be between 1 and 65535, inclusive")
	}
}

func (e *fieldErrs) protocol(path string, v any) {
	if s, ok := v.(string); ok && s == "" {
		e.required(path)
		return
	}
	e.enum(path, v, "SCTP", "TCP", "UDP")
}

var portNameRE = regexp.MustCompile(`^[-a-z0-9]+$`)

// portNameErrors is kube's IsValidPortName.
func portNameErrors(name string) []string {
	var msgs []string
	if len(name) > 15 {
		msgs = append(msgs, "must be no more than 15 characters")
	}
	if !portNameRE.MatchString(name) {
		msgs = append(msgs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") {
		msgs = append(msgs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(name, "--") {
		msgs = append(msgs, "must not contain consecutive hyphens")
	}
	if len(name) > 0 && (name[0] == '-' || name[len(name)-1] == '-') {
		msgs = append(msgs, "must not begin or end with a hyphen")
	}
	return msgs
}

// portNumOrName is kube's ValidatePortNumOrName (a target port).
func (e *fieldErrs) portNumOrName(path string, v any) {
	if n, ok := meta.AsInt64(v); ok {
		e.portNumber(path, n)
		return
	}
	if s, ok := v.(string); ok {
		if s == "" {
			e.required(path)
			return
		}
		e.invalidAll(path, s, portNameErrors(s))
	}
}
