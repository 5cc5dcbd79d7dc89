package builtin

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/kapi-dev/kapi/schema"
)

// IP addresses and CIDRs as kube checks them: apimachinery's IsValidIP
// and IsValidCIDR, the legacy checks of fields that predate them, and the
// lenient parsing kube keeps for old data (netutils.ParseIPSloppy), which
// from 1.36 those fields no longer accept (strictIPs).

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
		if schema.ParseIPSloppy(s) != nil {
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

// legacyCIDR is kube's lenient CIDR parse (schema.ParseCIDRSloppy).
func legacyCIDR(s string) bool {
	_, err := schema.ParseCIDRSloppy(s)
	return err == nil
}

// cidrFamily is 4 or 6 for a CIDR legacyCIDR accepts (kube's
// IPFamilyOfCIDR), 0 otherwise.
func cidrFamily(s string) int {
	n, err := schema.ParseCIDRSloppy(s)
	switch {
	case err != nil:
		return 0
	case n.IP.To4() != nil:
		return 4
	}
	return 6
}

// parseLegacyIP reads an IP as kube's ParseIPSloppy does
// (schema.ParseIPSloppy).
func parseLegacyIP(s string) (netip.Addr, bool) {
	return netip.AddrFromSlice(schema.ParseIPSloppy(s))
}

// strictIPs says whether fields that predate kube's strict IP parsing
// refuse what it refuses: kube's StrictIPCIDRValidation, on by default
// from 1.36.
func (e *fieldErrs) strictIPs() bool { return e.release.AtLeast(36) }

// strictIPErrors are what strict parsing refuses of an IP the lenient
// parser reads (kube's parseIP with strictValidation).
func strictIPErrors(s string) []string {
	addr, err := netip.ParseAddr(s)
	var msgs []string
	if err != nil {
		msgs = append(msgs, "must not have leading 0s")
	}
	if addr.Is4In6() {
		msgs = append(msgs, "must not be an IPv4-mapped IPv6 address")
	}
	return msgs
}

// strictCIDRErrors are what strict parsing refuses of a CIDR the lenient
// parser reads (kube's parseCIDR with strictValidation).
func strictCIDRErrors(s string) []string {
	prefix, err := netip.ParsePrefix(s)
	switch {
	case err != nil:
		return []string{"must not have leading 0s in IP or prefix length"}
	case prefix.Addr().Is4In6():
		return []string{"must not have an IPv4-mapped IPv6 address"}
	case prefix.Addr() != prefix.Masked().Addr():
		return []string{"must not have bits set beyond the prefix length"}
	}
	return nil
}

// legacyIP is kube's IsValidIPForLegacyField: an IP, IPv4 octets
// possibly with leading zeros (not from 1.36: strictIPs).
func (e *fieldErrs) legacyIP(path, ip string) {
	if _, ok := parseLegacyIP(ip); !ok {
		e.invalid(path, ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
	} else if e.strictIPs() {
		e.invalidAll(path, ip, strictIPErrors(ip))
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

// ipAddress is kube's IsValidIPForLegacyField for a set value: any value
// the old version held is kept.
func (e *fieldErrs) ipAddress(path, v string, existing map[string]bool) {
	switch {
	case existing[v]:
	case schema.ParseIPSloppy(v) == nil:
		e.invalid(path, v, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
	case e.strictIPs():
		e.invalidAll(path, v, strictIPErrors(v))
	}
}

// cidr is kube's IsValidCIDRForLegacyField for a set value: ok when the
// lenient parser reads it (kube goes on with what it read); a CIDR
// existing holds (the old version's) is not checked.
func (e *fieldErrs) cidr(path, v string, existing map[string]bool) (*net.IPNet, bool) {
	n, err := schema.ParseCIDRSloppy(v)
	ok := err == nil
	switch {
	case existing[v]:
	case !ok:
		e.invalid(path, v, "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")
	case e.strictIPs():
		e.invalidAll(path, v, strictCIDRErrors(v))
	}
	return n, ok
}
