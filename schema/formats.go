package schema

import (
	"encoding/hex"
	"fmt"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The string formats kube-apiserver 1.33 validates in custom resources
// (apiextensions-apiserver's supported formats, checked with the rules of
// kube-openapi's strfmt registry). Other formats, including int32, int64,
// float and double, are not checked (kube strips them before validating).
// Names are compared without dashes, so "date-time" is "datetime".
var formatCheckers = map[string]func(string) bool{
	"bsonobjectid": isBSONObjectID,
	"uri":          isURI,
	"email":        isEmail,
	"hostname":     isHostname,
	"ipv4":         func(s string) bool { return ParseIPSloppy(s) != nil && strings.Contains(s, ".") },
	"ipv6":         func(s string) bool { return net.ParseIP(s) != nil && strings.Contains(s, ":") },
	"cidr":         isCIDR,
	"mac":          func(s string) bool { _, err := net.ParseMAC(s); return err == nil },
	"uuid":         rxUUID.MatchString,
	"uuid3":        rxUUID3.MatchString,
	"uuid4":        rxUUID4.MatchString,
	"uuid5":        rxUUID5.MatchString,
	"isbn":         func(s string) bool { return isISBN(s, 10) || isISBN(s, 13) },
	"isbn10":       func(s string) bool { return isISBN(s, 10) },
	"isbn13":       func(s string) bool { return isISBN(s, 13) },
	"creditcard":   isCreditCard,
	"ssn":          func(s string) bool { return len(s) == 11 && rxSSN.MatchString(s) },
	"hexcolor":     rxHexColor.MatchString,
	"rgbcolor":     rxRGBColor.MatchString,
	"byte":         rxBase64.MatchString,
	"password":     func(string) bool { return true },
	"date":         isDate,
	"duration":     isDuration,
	"datetime":     isDateTime,
}

func normalizeFormat(f string) string { return strings.ReplaceAll(f, "-", "") }

// FormatValidated reports whether kube validates string format f in custom
// resources.
func FormatValidated(f string) bool {
	_, ok := formatCheckers[normalizeFormat(f)]
	return ok
}

var (
	rxHostname = regexp.MustCompile(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxUUID     = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID3    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5    = regexp.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxSSN      = regexp.MustCompile(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxHexColor = regexp.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rxRGBColor = regexp.MustCompile(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`)
	rxBase64   = regexp.MustCompile(`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$`)
	rxCC       = regexp.MustCompile(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`)
	rxISBN10   = regexp.MustCompile(`^(?:[0-9]{9}X|[0-9]{10})$`)
	rxISBN13   = regexp.MustCompile(`^(?:[0-9]{13})$`)
	rxTime     = regexp.MustCompile(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
	rxDuration = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)
	rxSpaces   = regexp.MustCompile(`[\s-]+`)
	rxNotDigit = regexp.MustCompile(`[^0-9]+`)
)

func isBSONObjectID(s string) bool {
	if len(s) != 24 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

func isURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address != ""
}

func isHostname(s string) bool {
	if !rxHostname.MatchString(s) || len(s) > 255 {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if len(part) > 63 {
			return false
		}
	}
	return true
}

// sloppyIPv4 drops the leading zeros of the dotted-decimal part of an
// address, which kube's ParseIPSloppy accepts.
func sloppyIPv4(s string) string {
	head, tail := "", s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		head, tail = s[:i+1], s[i+1:]
	}
	if !strings.Contains(tail, ".") {
		return s
	}
	parts := strings.Split(tail, ".")
	for i, part := range parts {
		trimmed := strings.TrimLeft(part, "0")
		if trimmed == "" && part != "" {
			trimmed = "0"
		}
		parts[i] = trimmed
	}
	return head + strings.Join(parts, ".")
}

// ParseIPSloppy reads an IP address as kube's netutils.ParseIPSloppy does
// for fields that predate strict parsing (Go's net.ParseIP before 1.17): the
// dotted-decimal part, alone or ending an IPv6 address, may have leading
// zeros, read as decimal. nil when s is not an address.
func ParseIPSloppy(s string) net.IP { return net.ParseIP(sloppyIPv4(s)) }

// ParseCIDRSloppy is kube's netutils.ParseCIDRSloppy: net.ParseCIDR with
// ParseIPSloppy's address.
func ParseCIDRSloppy(s string) (*net.IPNet, error) {
	i := strings.IndexByte(s, '/')
	if i < 0 {
		return nil, &net.ParseError{Type: "CIDR address", Text: s}
	}
	_, n, err := net.ParseCIDR(sloppyIPv4(s[:i]) + s[i:])
	return n, err
}

func isCIDR(s string) bool {
	_, err := ParseCIDRSloppy(s)
	return err == nil
}

func isISBN(s string, version int) bool {
	s = rxSpaces.ReplaceAllString(s, "")
	switch version {
	case 10:
		if !rxISBN10.MatchString(s) {
			return false
		}
		sum := 0
		for i := 0; i < 9; i++ {
			sum += (i + 1) * int(s[i]-'0')
		}
		if s[9] == 'X' {
			sum += 100
		} else {
			sum += 10 * int(s[9]-'0')
		}
		return sum%11 == 0
	case 13:
		if !rxISBN13.MatchString(s) {
			return false
		}
		sum := 0
		for i := 0; i < 12; i++ {
			w := 1
			if i%2 == 1 {
				w = 3
			}
			sum += w * int(s[i]-'0')
		}
		return int(s[12]-'0')-((10-(sum%10))%10) == 0
	}
	return false
}

// isCreditCard: one of the card number patterns and a valid Luhn check
// digit, ignoring non-digits.
func isCreditCard(s string) bool {
	s = rxNotDigit.ReplaceAllString(s, "")
	if !rxCC.MatchString(s) {
		return false
	}
	sum, double := 0, false
	for i := len(s) - 1; i >= 0; i-- {
		d := int(s[i] - '0')
		if double {
			d *= 2
			if d >= 10 {
				d = d%10 + 1
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isDateTime is strfmt's check: a full date, a "t", then a time with a
// zone, compared case-insensitively.
func isDateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !isDate(parts[0]) {
		return false
	}
	m := rxTime.FindStringSubmatch(parts[1])
	if m == nil {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

var durationUnits = []struct {
	variants []string
	d        time.Duration
}{
	{[]string{"ns", "nano"}, time.Nanosecond},
	{[]string{"us", "µs", "micro"}, time.Microsecond},
	{[]string{"ms", "milli"}, time.Millisecond},
	{[]string{"s", "sec"}, time.Second},
	{[]string{"m", "min"}, time.Minute},
	{[]string{"h", "hr", "hour"}, time.Hour},
	{[]string{"d", "day"}, 24 * time.Hour},
	{[]string{"w", "wk", "week"}, 7 * 24 * time.Hour},
}

// isDuration accepts Go durations and strfmt's "<n> <unit>" forms.
func isDuration(s string) bool {
	_, err := ParseDuration(s)
	return err == nil
}

// ParseDuration reads a duration as kube's OpenAPI library (strfmt) does: a
// Go duration, or "<n> <unit>" forms ("3 days", "1w2d") with the units of
// durationUnits, a unit's longest name also read as a prefix ("hours").
func ParseDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var d time.Duration
	ok := false
	for _, m := range rxDuration.FindAllStringSubmatch(s, -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, u := range durationUnits {
			last := len(u.variants) - 1
			for i, v := range u.variants {
				if i == last && strings.HasPrefix(unit, v) || strings.EqualFold(v, unit) {
					ok = true
					d += time.Duration(n) * u.d
				}
			}
		}
	}
	if !ok {
		return 0, fmt.Errorf("unable to parse %s as duration", s)
	}
	return d, nil
}
