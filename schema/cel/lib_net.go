package cel

import (
	"fmt"
	"math"
	"net/netip"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// Kube's net.IP and net.CIDR types.
var (
	ipType   = cel.OpaqueType("net.IP")
	cidrType = cel.OpaqueType("net.CIDR")
)

// netValue is an IP address (no zone, no IPv4-mapped IPv6) or an IP
// prefix: the values of kube's net.IP and net.CIDR types, which behave
// alike but for their CEL type, name and size.
type netValue[T interface {
	netip.Addr | netip.Prefix
	String() string
}] struct{ v T }

type (
	ipValue   = netValue[netip.Addr]
	cidrValue = netValue[netip.Prefix]
)

// celType returns net.IP or net.CIDR, and the name conversion errors use.
func (n netValue[T]) celType() (*cel.Type, string) {
	if _, ok := any(n.v).(netip.Addr); ok {
		return ipType, "IP"
	}
	return cidrType, "CIDR"
}

func (n netValue[T]) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(n.v).AssignableTo(t) {
		return n.v, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return n.v.String(), nil
	}
	_, name := n.celType()
	return nil, fmt.Errorf("type conversion error from '%s' to '%v'", name, t)
}

func (n netValue[T]) ConvertToType(t ref.Type) ref.Val {
	own, _ := n.celType()
	switch t {
	case own:
		return n
	case types.TypeType:
		return own
	case types.StringType:
		return types.String(n.v.String())
	}
	return types.NewErr("type conversion error from '%s' to '%s'", own, t)
}

func (n netValue[T]) Equal(other ref.Val) ref.Val {
	o, ok := other.(netValue[T])
	if !ok {
		return types.ValOrErr(other, "no such overload")
	}
	return types.Bool(n.v == o.v)
}

func (n netValue[T]) Type() ref.Type { t, _ := n.celType(); return t }
func (n netValue[T]) Value() any     { return n.v }

// Size is the address's bytes, or the prefix length's, rounded up.
func (n netValue[T]) Size() ref.Val {
	bits := 0
	switch v := any(n.v).(type) {
	case netip.Addr:
		bits = v.BitLen()
	case netip.Prefix:
		bits = v.Bits()
	}
	return types.Int(int(math.Ceil(float64(bits) / 8)))
}

func parseIP(s string) (netip.Addr, error) {
	addr, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", s, err)
	}
	if addr.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", s)
	}
	if addr.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return addr, nil
}

func parseCIDR(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return p, nil
}

func stringToIP(v ref.Val) ref.Val {
	s, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	addr, err := parseIP(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return ipValue{addr}
}

func stringToCIDR(v ref.Val) ref.Val {
	s, ok := v.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	p, err := parseCIDR(s)
	if err != nil {
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return cidrValue{p}
}

// netLib is kube's IP and CIDR libraries.
//
//	ip('10.0.0.1').family() == 4  cidr('10.0.0.0/8').containsIP('10.1.2.3')  isCIDR('::1/128')
func netLib() []cel.EnvOption {
	ipPred := func(id string, fn func(netip.Addr) bool) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{ipType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			ip, ok := v.(ipValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return types.Bool(fn(ip.v))
		}))
	}
	isString := func(id string, parse func(string) error) cel.FunctionOpt {
		return cel.Overload(id, []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(func(v ref.Val) ref.Val {
			s, ok := v.Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return types.Bool(parse(s) == nil)
		}))
	}
	containsIP := func(c, other ref.Val) ref.Val {
		cv, ok := c.(cidrValue)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		ip, ok := other.(ipValue)
		if !ok {
			return types.MaybeNoSuchOverloadErr(c)
		}
		return types.Bool(cv.v.Contains(ip.v))
	}
	containsCIDR := func(c, other ref.Val) ref.Val {
		cv, ok := c.(cidrValue)
		if !ok {
			return types.MaybeNoSuchOverloadErr(c)
		}
		o, ok := other.(cidrValue)
		if !ok {
			return types.MaybeNoSuchOverloadErr(other)
		}
		return types.Bool(cv.v.Overlaps(o.v) && cv.v.Bits() <= o.v.Bits())
	}
	cidrOf := func(v ref.Val) (cidrValue, ref.Val) {
		c, ok := v.(cidrValue)
		if !ok {
			return c, types.MaybeNoSuchOverloadErr(v)
		}
		return c, nil
	}
	return []cel.EnvOption{
		cel.Types(ipType, cidrType),
		cel.Function("ip",
			cel.Overload("string_to_ip", []*cel.Type{cel.StringType}, ipType, cel.UnaryBinding(stringToIP)),
			cel.MemberOverload("cidr_ip", []*cel.Type{cidrType}, ipType, cel.UnaryBinding(func(v ref.Val) ref.Val {
				c, errVal := cidrOf(v)
				if errVal != nil {
					return errVal
				}
				return ipValue{c.v.Addr()}
			}))),
		cel.Function("family", cel.MemberOverload("ip_family", []*cel.Type{ipType}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				ip, ok := v.(ipValue)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				switch {
				case ip.v.Is4():
					return types.Int(4)
				case ip.v.Is6():
					return types.Int(6)
				}
				return types.NewErr("IP address %q is not an IPv4 or IPv6 address", ip.v.String())
			}))),
		cel.Function("ip.isCanonical", cel.Overload("ip_is_canonical", []*cel.Type{cel.StringType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				addr, err := parseIP(s)
				if err != nil {
					return types.NewErr("%v", err)
				}
				return types.Bool(addr.String() == s)
			}))),
		cel.Function("isUnspecified", ipPred("ip_is_unspecified", netip.Addr.IsUnspecified)),
		cel.Function("isLoopback", ipPred("ip_is_loopback", netip.Addr.IsLoopback)),
		cel.Function("isLinkLocalMulticast", ipPred("ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast)),
		cel.Function("isLinkLocalUnicast", ipPred("ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast)),
		cel.Function("isGlobalUnicast", ipPred("ip_is_global_unicast", netip.Addr.IsGlobalUnicast)),
		cel.Function("isIP", isString("is_ip", func(s string) error { _, err := parseIP(s); return err })),
		cel.Function("cidr", cel.Overload("string_to_cidr", []*cel.Type{cel.StringType}, cidrType,
			cel.UnaryBinding(stringToCIDR))),
		cel.Function("containsIP",
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{cidrType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return containsIP(c, stringToIP(s)) })),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{cidrType, ipType}, cel.BoolType,
				cel.BinaryBinding(containsIP))),
		cel.Function("containsCIDR",
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{cidrType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return containsCIDR(c, stringToCIDR(s)) })),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{cidrType, cidrType}, cel.BoolType,
				cel.BinaryBinding(containsCIDR))),
		cel.Function("prefixLength", cel.MemberOverload("cidr_prefix_length", []*cel.Type{cidrType}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				c, errVal := cidrOf(v)
				if errVal != nil {
					return errVal
				}
				return types.Int(c.v.Bits())
			}))),
		cel.Function("masked", cel.MemberOverload("cidr_masked", []*cel.Type{cidrType}, cidrType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				c, errVal := cidrOf(v)
				if errVal != nil {
					return errVal
				}
				return cidrValue{c.v.Masked()}
			}))),
		cel.Function("isCIDR", isString("is_cidr", func(s string) error { _, err := parseCIDR(s); return err })),
		cel.Function("string",
			cel.Overload("ip_to_string", []*cel.Type{ipType}, cel.StringType, cel.UnaryBinding(func(v ref.Val) ref.Val {
				ip, ok := v.(ipValue)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				return types.String(ip.v.String())
			})),
			cel.Overload("cidr_to_string", []*cel.Type{cidrType}, cel.StringType, cel.UnaryBinding(func(v ref.Val) ref.Val {
				c, errVal := cidrOf(v)
				if errVal != nil {
					return errVal
				}
				return types.String(c.v.String())
			}))),
	}
}
