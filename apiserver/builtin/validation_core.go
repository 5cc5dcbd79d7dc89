package builtin

import (
	"fmt"
	"math/big"
	"net/netip"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// The checks of kube's core and storage validation shared by quotas,
// limit ranges, volumes, storage classes and endpoints: resource names
// and quantities (with the Go renderings kube puts in its messages),
// IP addresses, topology and node selector terms.

// Resource names kube knows (pkg/apis/core/helper).
var (
	standardResourceNames = setOf("cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
		"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas",
		"services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage",
		"requests.storage", "services.nodeports", "services.loadbalancers")
	standardQuotaResourceNames = setOf("cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
		"requests.storage", "requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage",
		"pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "persistentvolumeclaims", "configmaps",
		"services.nodeports", "services.loadbalancers")
	integerResourceNames = setOf("pods", "resourcequotas", "services", "replicationcontrollers", "secrets", "configmaps",
		"persistentvolumeclaims", "services.nodeports", "services.loadbalancers")
	standardContainerResourceNames = setOf("cpu", "memory", "ephemeral-storage")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func isHugePages(name string) bool { return strings.HasPrefix(name, "hugepages-") }

func isQuotaHugePages(name string) bool {
	return isHugePages(name) || strings.HasPrefix(name, "requests.hugepages-")
}

// isNativeResource: unqualified names and kubernetes.io ones are kube's.
func isNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
}

// isExtendedResource is a qualified resource of another domain, not a
// quota's requests.* name, that can be requested in a quota.
func isExtendedResource(name string) bool {
	if isNativeResource(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(selectors.QualifiedNameErrors("requests."+name)) == 0
}

func isIntegerResource(name string) bool {
	return integerResourceNames[name] || isExtendedResource(name)
}

// resourceName is kube's validateResourceName: a qualified name, and a
// standard one unless it has a domain.
func (e *fieldErrs) resourceName(path, name string) bool {
	msgs := selectors.QualifiedNameErrors(name)
	e.invalidAll(path, goValue(name), msgs)
	if len(msgs) > 0 {
		return false
	}
	if !strings.Contains(name, "/") && !standardResourceNames[name] && !isQuotaHugePages(name) {
		e.invalid(path, goValue(name), "must be a standard resource type or fully qualified")
	}
	return true
}

// quotaResourceName is kube's validateResourceQuotaResourceName.
func (e *fieldErrs) quotaResourceName(path, name string) {
	e.resourceName(path, name)
	if !strings.Contains(name, "/") && !standardQuotaResourceNames[name] && !isQuotaHugePages(name) {
		e.invalid(path, goValue(name), "must be a standard resource for quota")
	}
}

// containerResourceName is kube's validateContainerResourceName.
func (e *fieldErrs) containerResourceName(path, name string) {
	e.resourceName(path, name)
	if !strings.Contains(name, "/") {
		if !standardContainerResourceNames[name] && !isHugePages(name) {
			e.invalid(path, goValue(name), "must be a standard resource for containers")
		}
	} else if !isNativeResource(name) && !isExtendedResource(name) {
		e.invalid(path, goValue(name), "doesn't follow extended resource name standard")
	}
}

// quantity is a parsed resource.Quantity: its exact value, and what kube's
// parser keeps of it (shown when kube prints the Go value).
type quantity struct {
	text  string   // canonical text (resource.Quantity's String())
	value *big.Rat // exact value
	goRep string   // the Go value kube prints (%#v of a resource.Quantity)
	// goShown is goRep once the quantity's String() has cached its text,
	// as kube prints a quantity whose text its message also shows.
	goShown string
}

// parseQuantity reads a quantity field's value; ok is false when it is
// not a quantity (the schema reports that).
func parseQuantity(v any) (quantity, bool) {
	raw, ok := quantityText(v)
	if !ok {
		return quantity{}, false
	}
	raw = strings.TrimSpace(raw)
	canonical, ok := canonicalQuantity(raw)
	if !ok {
		return quantity{}, false
	}
	if raw == "0" {
		rep := goQuantityFields(0, 0, "0", "DecimalSI")
		return quantity{text: "0", value: new(big.Rat), goRep: rep, goShown: rep}, true
	}
	negative, whole, fraction, suffixText, _ := splitQuantity(raw)
	suffix, _ := parseSuffix(suffixText)
	num := strings.TrimLeft(whole, "0")
	if num == "" {
		num = "0"
	}
	val, _ := new(big.Rat).SetString(num + "." + fraction + "0")
	// Exponents beyond ±maxQuantityExponent (1e999999999) are computed as
	// that: no request makes kapi compute a power of ten of a billion
	// digits, and such quantities still compare as huge or tiny.
	suffix.exponent = max(-maxQuantityExponent, min(maxQuantityExponent, suffix.exponent))
	if suffix.base == 2 {
		val.Mul(val, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(suffix.exponent))))
	} else if suffix.exponent >= 0 {
		val.Mul(val, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(suffix.exponent)), nil)))
	} else {
		val.Quo(val, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(-suffix.exponent)), nil)))
	}
	if negative {
		val.Neg(val)
	}
	q := quantity{text: canonical, value: val}
	q.goRep = goQuantityOf(raw, negative, num, fraction, suffix, false)
	q.goShown = goQuantityOf(canonical, negative, num, fraction, suffix, true)
	return q, true
}

const maxQuantityExponent = 100

var formatNames = map[quantityFormat]string{decimalSI: "DecimalSI", binarySI: "BinarySI", decimalExponent: "DecimalExponent"}

// goQuantityOf renders what kube's ParseQuantity makes of text, for the
// quantities it holds in an int64 (any quantity a user writes by hand);
// with shown, once its String() has cached text.
func goQuantityOf(text string, negative bool, num, denom string, suffix quantitySuffix, shown bool) string {
	format := formatNames[suffix.format]
	scale := 0
	mantissa := int64(1)
	precision := -1
	if suffix.base == 2 {
		if len(denom) == 0 {
			mantissa = 1 << suffix.exponent
			precision = 15 - len(num) - int(float32(suffix.exponent)*3/10) - 1
		}
	} else {
		scale = suffix.exponent
		precision = 18 - (len(num) + len(denom))
	}
	if precision >= 0 {
		scale -= len(denom)
		if scale >= -9 {
			shifted := num + denom
			if value, err := strconv.ParseInt(shifted, 10, 64); err == nil {
				if r := new(big.Int).Mul(big.NewInt(value), big.NewInt(mantissa)); r.IsInt64() {
					result := r.Int64()
					if negative {
						result = -result
					}
					keep := ""
					if suffix.base == 2 {
						if suffix.exponent%10 == 0 && value&0x07 != 0 {
							keep = text
						}
					} else if scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
						keep = text
					}
					if shown {
						keep = text
					}
					return goQuantityFields(result, scale, keep, format)
				}
			}
		}
	}
	return fmt.Sprintf("resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(%s)}, s:\"\", Format:%q}", text, format)
}

func goQuantityFields(value int64, scale int, s, format string) string {
	return fmt.Sprintf("resource.Quantity{i:resource.int64Amount{value:%d, scale:%d}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:%q, Format:%q}",
		value, scale, s, format)
}

// milli is the quantity in thousandths, rounded up as kube's MilliValue.
func (q quantity) milli() *big.Int {
	m := new(big.Rat).Mul(q.value, big.NewRat(1000, 1))
	n := new(big.Int).Quo(m.Num(), m.Denom())
	if m.Sign() > 0 && !m.IsInt() {
		n.Add(n, big.NewInt(1))
	}
	return n
}

// int64Value is kube's Value(): rounded up, capped to an int64.
func (q quantity) int64Value() int64 {
	n := new(big.Int).Quo(q.value.Num(), q.value.Denom())
	if q.value.Sign() > 0 && !q.value.IsInt() {
		n.Add(n, big.NewInt(1))
	}
	if !n.IsInt64() {
		if n.Sign() < 0 {
			return -1 << 63
		}
		return 1<<63 - 1
	}
	return n.Int64()
}

// resourceQuantity is kube's ValidateResourceQuantityValue: not negative,
// whole for a resource counted in units.
func (e *fieldErrs) resourceQuantity(path, name string, v any) {
	q, ok := parseQuantity(v)
	if !ok {
		return
	}
	if q.value.Sign() < 0 {
		e.invalid(path, q.text, "must be greater than or equal to 0")
	}
	if isIntegerResource(name) && new(big.Int).Rem(q.milli(), big.NewInt(1000)).Sign() != 0 {
		e.invalid(path, goValue(q.goRep), "must be an integer")
	}
}

// resourceList checks each resource of a quota's list at path.
func (e *fieldErrs) quotaResourceList(path string, v any) {
	list := asMap(v)
	for _, k := range sortedMapKeys(list) {
		p := fmt.Sprintf("%s[%s]", path, k)
		e.quotaResourceName(p, k)
		e.resourceQuantity(p, k, list[k])
	}
}

// goResourceList renders a core.ResourceList as Go's %#v does.
func goResourceList(v any) string {
	list := asMap(v)
	if list == nil {
		return "core.ResourceList(nil)"
	}
	parts := make([]string, 0, len(list))
	for _, k := range sortedMapKeys(list) {
		q, _ := parseQuantity(list[k])
		parts = append(parts, fmt.Sprintf("%q:%s", k, q.goRep))
	}
	return "core.ResourceList{" + strings.Join(parts, ", ") + "}"
}

// goTypedStrings renders a []T of strings as Go's %#v does.
func goTypedStrings(typ string, v any) string {
	list := asList(v)
	if list == nil {
		return "[]" + typ + "(nil)"
	}
	parts := make([]string, len(list))
	for i, x := range list {
		s, _ := x.(string)
		parts[i] = strconv.Quote(s)
	}
	return "[]" + typ + "{" + strings.Join(parts, ", ") + "}"
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

// topologyTerm is kube's ValidateTopologySelectorTerm: each expression has
// values, unique, a label-name key not repeated. It returns the term as a
// key → values set, to compare terms.
func (e *fieldErrs) topologyTerm(path string, term map[string]any) map[string]map[string]bool {
	exprs := map[string]map[string]bool{}
	for i, x := range asList(term["matchLabelExpressions"]) {
		req := asMap(x)
		p := fmt.Sprintf("%s.matchLabelExpressions[%d]", path, i)
		values := asList(req["values"])
		if len(values) == 0 {
			e.required(p + ".values")
		}
		set := map[string]bool{}
		for j, v := range values {
			s, _ := v.(string)
			if set[s] {
				e.duplicate(fmt.Sprintf("%s.values[%d]", p, j), s)
			}
			set[s] = true
		}
		key, _ := req["key"].(string)
		e.invalidAll(p+".key", key, selectors.QualifiedNameErrors(key))
		if _, ok := exprs[key]; ok {
			e.duplicate(p+".key", key)
		}
		exprs[key] = set
	}
	return exprs
}

// nodeSelector is kube's ValidateNodeSelector (a volume's node affinity).
func (e *fieldErrs) nodeSelector(path string, sel map[string]any) {
	terms := asList(sel["nodeSelectorTerms"])
	if len(terms) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".nodeSelectorTerms",
			Detail: "must have at least one node selector term"})
		return
	}
	for i, t := range terms {
		term := asMap(t)
		tp := fmt.Sprintf("%s.nodeSelectorTerms[%d]", path, i)
		for j, r := range asList(term["matchExpressions"]) {
			e.nodeSelectorRequirement(fmt.Sprintf("%s.matchExpressions[%d]", tp, j), asMap(r), true)
		}
		for j, r := range asList(term["matchFields"]) {
			e.nodeSelectorRequirement(fmt.Sprintf("%s.matchFields[%d]", tp, j), asMap(r), false)
		}
	}
}

// nodeSelectorRequirement is kube's ValidateNodeSelectorRequirement, or
// for matchFields ValidateNodeFieldSelectorRequirement.
func (e *fieldErrs) nodeSelectorRequirement(path string, req map[string]any, labels bool) {
	op, _ := req["operator"].(string)
	values := asList(req["values"])
	key, _ := req["key"].(string)
	required := func(detail string) {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".values", Detail: detail})
	}
	if !labels {
		if op == "In" || op == "NotIn" {
			if len(values) != 1 {
				required("must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
			}
		} else {
			e.invalid(path+".operator", op, "not a valid selector operator")
		}
		if key != "metadata.name" {
			e.invalid(path+".key", key, "not a valid field selector key")
			return
		}
		for i, v := range values {
			s, _ := v.(string)
			e.dnsSubdomain(fmt.Sprintf("%s.values[%d]", path, i), s)
		}
		return
	}
	switch op {
	case "In", "NotIn":
		if len(values) == 0 {
			required("must be specified when `operator` is 'In' or 'NotIn'")
		}
	case "Exists", "DoesNotExist":
		if len(values) > 0 {
			e.forbidden(path+".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
		}
	case "Gt", "Lt":
		if len(values) != 1 {
			required("must be specified single value when `operator` is 'Lt' or 'Gt'")
		}
	default:
		e.invalid(path+".operator", op, "not a valid selector operator")
	}
	e.invalidAll(path+".key", key, selectors.QualifiedNameErrors(key))
	for i, v := range values {
		s, _ := v.(string)
		e.invalidAll(fmt.Sprintf("%s.values[%d]", path, i), s, selectors.LabelValueErrors(s))
	}
}

// dnsSubdomain reports kube's IsDNS1123Subdomain messages for v at path.
func (e *fieldErrs) dnsSubdomain(path, v string) {
	e.invalidAll(path, v, schema.DNS1123Subdomain(v))
}
