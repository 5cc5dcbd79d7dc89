package builtin

import (
	"net/netip"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The answers below are kube 1.33's (docs/kube-behaviour/18-validation-misc.md).
func TestKubeIPErrorsAreKubes(t *testing.T) {
	cases := []struct {
		name, ip string
		want     []string
	}{
		{"an IPv4 address is valid", "192.0.2.1", nil},
		{"a canonical IPv6 address is valid", "2001:db8::1", nil},
		{"a name is not an address", "not-an-ip", []string{"must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"}},
		{"leading zeros are refused", "192.000.002.252", []string{"must not have leading 0s"}},
		{"an IPv4-mapped IPv6 address is refused", "::ffff:1.2.3.4", []string{"must not be an IPv4-mapped IPv6 address"}},
		{"upper case IPv6 is not canonical", "2001:DB8::1", []string{`must be in canonical form ("2001:db8::1")`}},
		{"a zone is not an address", "fe80::1%eth0", []string{"must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, kubeIPErrors(c.ip, true)) })
	}
}

func TestKubeCIDRErrorsAreKubes(t *testing.T) {
	cases := []struct {
		name, cidr string
		want       []string
	}{
		{"an IPv4 CIDR is valid", "10.0.0.0/24", nil},
		{"an IPv6 CIDR is valid", "fd00:250::/112", nil},
		{"a word is not a CIDR", "bogus", []string{invalidCIDRDetail}},
		{"a prefix longer than the family is not a CIDR", "10.0.0.0/33", []string{invalidCIDRDetail}},
		{"leading zeros are refused", "010.0.0.0/24", []string{"must not have leading 0s in IP or prefix length"}},
		{"leading zeros in the length are refused", "10.0.0.0/024", []string{"must not have leading 0s in IP or prefix length"}},
		{"an IPv4-mapped address is refused", "::ffff:10.0.0.0/120", []string{"must not have an IPv4-mapped IPv6 address"}},
		{"host bits are refused", "10.0.0.1/24", []string{"must not have bits set beyond the prefix length"}},
		{"upper case is not canonical", "FD00:251::/112", []string{`must be in canonical form ("fd00:251::/112")`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, kubeCIDRErrors(c.cidr)) })
	}
}

// FuzzKubeIPAndCIDRErrors: the checks never panic, what they accept the
// standard library reads back unchanged, and a strictly valid CIDR is a
// leniently valid one of the same family.
func FuzzKubeIPAndCIDRErrors(f *testing.F) {
	for _, s := range []string{"192.0.2.1", "2001:db8::1", "010.0.0.0/24", "::ffff:1.2.3.4", "10.0.0.1/24", "fe80::1%eth0", "1.2.3.4/", "/24", "1.2.3.4/-1", "::/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(kubeIPErrors(s, true)) == 0 {
			addr, err := netip.ParseAddr(s)
			if err != nil || addr.String() != s {
				t.Fatalf("%q accepted as a canonical IP", s)
			}
		}
		if len(kubeCIDRErrors(s)) == 0 {
			p, err := netip.ParsePrefix(s)
			if err != nil || p.String() != s || !legacyCIDR(s) {
				t.Fatalf("%q accepted as a CIDR", s)
			}
			if fam := cidrFamily(s); (fam == 4) != p.Addr().Is4() {
				t.Fatalf("%q: family %d", s, fam)
			}
		}
	})
}
