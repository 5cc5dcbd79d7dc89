package builtin

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// IP addresses and CIDRs as kube 1.33 checks them: apimachinery's IsValidIP
// and IsValidCIDR, the legacy checks of fields that predate them, and the
// lenient parsing kube keeps for old data (netutils.ParseIPSloppy).

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

// legacyIP is kube's IsValidIPForLegacyField: an IP, IPv4 octets
// possibly with leading zeros.
func (e *fieldErrs) legacyIP(path, ip string) {
	if _, ok := parseLegacyIP(ip); !ok {
		e.invalid(path, ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
	}
}

// nonSpecialIP is kube's ValidateNonSpecialIP (an endpoint's address).
func (e *fieldErrs) nonSpecialIP(path, ip string) {
	addr, ok := parseLegacyIP(ip)
	if !ok {
		e.invalid(path, ip, "must be a valid IP address")
		return
	}
	addr = addr.Unmap()
	if addr.IsUnspecified() {
		e.invalid(path, ip, fmt.Sprintf("may not be unspecified (%s)", ip))
	}
	if addr.IsLoopback() {
		e.invalid(path, ip, "may not be in the loopback range (127.0.0.0/8, ::1/128)")
	}
	if addr.IsLinkLocalUnicast() {
		e.invalid(path, ip, "may not be in the link-local range (169.254.0.0/16, fe80::/10)")
	}
	if addr.IsLinkLocalMulticast() {
		e.invalid(path, ip, "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")
	}
}

// parseLegacyIP reads an IP as kube's ParseIPSloppy does: IPv4 octets may
// have leading zeros (read as decimal).
func parseLegacyIP(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil && a.Zone() == "" {
		return a, true
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return netip.Addr{}, false
	}
	var b [4]byte
	for i, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return netip.Addr{}, false
		}
		n, _ := strconv.Atoi(p)
		if n > 255 {
			return netip.Addr{}, false
		}
		b[i] = byte(n)
	}
	return netip.AddrFrom4(b), true
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
