package builtin

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Helpers of kube's validation shared by the kinds of the *_validation.go
// files of ControllerRevision, APIService, Node, CSINode, IPAddress,
// ServiceCIDR, Namespace, events.k8s.io Event and CSR: IP addresses and
// CIDRs as kube 1.33 checks them (apimachinery's IsValidIP and
// IsValidCIDR, and the legacy check of fields that predate them), field
// immutability, and Go renderings of the values kube's messages show.

const (
	invalidIPDetail   = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
	invalidCIDRDetail = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"
)

// kubeIPErrors is kube's IsValidIP: an address the lenient parser kube
// keeps for old data reads (netutils.ParseIPSloppy: IPv4 parts may have
// leading zeros), then the strict form; canonical adds the canonical-form
// check (kube's IPIsCanonical flag), as IPAddress names have.
func kubeIPErrors(s string, canonical bool) []string {
	addr, err := netip.ParseAddr(s)
	if err != nil || addr.Zone() != "" {
		if sloppyIPv4(s) {
			return []string{"must not have leading 0s"}
		}
		return []string{invalidIPDetail}
	}
	if addr.Is4In6() {
		return []string{"must not be an IPv4-mapped IPv6 address"}
	}
	if canonical && addr.String() != s {
		return []string{fmt.Sprintf("must be in canonical form (%q)", addr.String())}
	}
	return nil
}

// sloppyIPv4 reports whether s is a dotted-quad IPv4 address once leading
// zeros are allowed in its parts, as Go's net.ParseIP did before 1.17.
func sloppyIPv4(s string) bool {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 {
			return false
		}
		n, err := strconv.Atoi(p)
		if err != nil || n > 255 || p[0] == '+' || p[0] == '-' {
			return false
		}
	}
	return true
}

// kubeCIDRErrors is kube's IsValidCIDR (strict): parseable, no leading
// zeros, no IPv4-mapped address, no bits beyond the prefix length, in
// canonical form.
func kubeCIDRErrors(s string) []string {
	if !legacyCIDR(s) {
		return []string{invalidCIDRDetail}
	}
	prefix, err := netip.ParsePrefix(s)
	switch {
	case err != nil:
		return []string{"must not have leading 0s in IP or prefix length"}
	case prefix.Addr().Is4In6():
		return []string{"must not have an IPv4-mapped IPv6 address"}
	case prefix.Masked() != prefix:
		return []string{"must not have bits set beyond the prefix length"}
	case prefix.String() != s:
		return []string{fmt.Sprintf("must be in canonical form (%q)", prefix.String())}
	}
	return nil
}

// legacyCIDR is kube's lenient CIDR parse (netutils.ParseCIDRSloppy): an
// address, '/', a decimal prefix length within the family's bits; leading
// zeros allowed in both.
func legacyCIDR(s string) bool {
	ip, bits, ok := strings.Cut(s, "/")
	if !ok || bits == "" || len(bits) > 3 {
		return false
	}
	n, err := strconv.Atoi(bits)
	if err != nil || n < 0 || bits[0] == '+' || bits[0] == '-' {
		return false
	}
	if sloppyIPv4(ip) {
		return n <= 32
	}
	addr, err := netip.ParseAddr(ip)
	if err != nil || addr.Zone() != "" {
		return false
	}
	if addr.Is4() {
		return n <= 32
	}
	return n <= 128
}

// cidrFamily is 4 or 6 for a CIDR legacyCIDR accepts, 0 otherwise.
func cidrFamily(s string) int {
	ip, _, _ := strings.Cut(s, "/")
	if sloppyIPv4(ip) {
		return 4
	}
	addr, err := netip.ParseAddr(ip)
	switch {
	case err != nil:
		return 0
	case addr.Is4():
		return 4
	}
	return 6
}

// immutable is kube's ValidateImmutableField: shown is how kube's message
// renders the new value.
func (e *fieldErrs) immutable(path string, next, old any, shown any) {
	if !equalJSON(next, old) {
		e.invalid(path, shown, "field is immutable")
	}
}

// goRawExtension renders a runtime.RawExtension holding v (JSON) as kube's
// messages show one: its bytes as they were decoded. kapi holds the value
// decoded, so the bytes are its compact encoding, keys sorted: kube shows
// the object's keys in the order the client wrote them.
func goRawExtension(v any) goValue {
	raw := "[]uint8(nil)"
	if r, ok := v.(meta.RawJSON); ok {
		parts := make([]string, len(r.Raw))
		for i, c := range r.Raw {
			parts[i] = fmt.Sprintf("0x%x", c)
		}
		return goValue("runtime.RawExtension{Raw:[]uint8{" + strings.Join(parts, ", ") + "}, Object:runtime.Object(nil)}")
	}
	if v != nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(normalizeNumbers(v)); err == nil {
			b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			parts := make([]string, len(b))
			for i, c := range b {
				parts[i] = fmt.Sprintf("0x%x", c)
			}
			raw = "[]uint8{" + strings.Join(parts, ", ") + "}"
		}
	}
	return goValue("runtime.RawExtension{Raw:" + raw + ", Object:runtime.Object(nil)}")
}

// decodedBytes is a `format: byte` field as kube holds it: the bytes its
// base64 text decodes to (the schema has refused any other text).
func decodedBytes(v any) []byte {
	s, _ := v.(string)
	b, _ := base64.StdEncoding.DecodeString(s)
	return b
}

// schemaEdited returns a copy of s in which the node at path (property
// names; "[]" for a list's items) is edited, sharing everything else: for
// a kind whose kube validation differs from what its published schema
// says (a field kube defaults instead of requiring, an enum kube checks
// at another path). nil when the path is not in s. The copies share what
// parsing derived (the type check, patterns, property names): an edit may
// change Required, Enum and the like, or replace the node by another
// parsed schema, never its Type or its properties.
func schemaEdited(s *schema.Schema, path []string, edit func(*schema.Schema)) *schema.Schema {
	if s == nil {
		return nil
	}
	cp := *s
	if len(path) == 0 {
		edit(&cp)
		return &cp
	}
	if path[0] == "[]" {
		if cp.Items = schemaEdited(s.Items, path[1:], edit); cp.Items == nil {
			return nil
		}
		return &cp
	}
	child := schemaEdited(s.Properties[path[0]], path[1:], edit)
	if child == nil {
		return nil
	}
	cp.Properties = make(map[string]*schema.Schema, len(s.Properties))
	for k, v := range s.Properties {
		cp.Properties[k] = v
	}
	cp.Properties[path[0]] = child
	return &cp
}
