package selectors

import (
	"strconv"
	"strings"
)

// Validation of label keys and values, with the messages kube-apiserver
// v1.33 (k8s.io/apimachinery v0.33 pkg/util/validation) gives, because they
// travel verbatim inside 400 responses. The checks are written by hand
// instead of with regular expressions; the regular expressions are still
// quoted in the messages, as Kubernetes quotes them.

const (
	// maxLabelNameLen bounds the name part of a key and a whole value.
	maxLabelNameLen = 63
	// maxSubdomainLen bounds the DNS-1123 subdomain prefix of a key.
	maxSubdomainLen = 253

	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	qualifiedNameErrMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	labelValueFmt    = "(" + qualifiedNameFmt + ")?"
	labelValueErrMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"

	dns1123LabelFmt          = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt      = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainErrorMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
)

// regexError explains a failed format check the way Kubernetes' RegexError
// does, including its doubled spaces between examples.
func regexError(msg, format string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	if len(examples) > 0 {
		b.WriteString(" (e.g. ")
		for i, e := range examples {
			if i > 0 {
				b.WriteString(" or ")
			}
			b.WriteString("'" + e + "', ")
		}
	} else {
		b.WriteString(" (")
	}
	b.WriteString("regex used for validation is '" + format + "')")
	return b.String()
}

func maxLenError(n int) string { return "must be no more than " + strconv.Itoa(n) + " characters" }

const emptyError = "must be non-empty"

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isQualifiedNamePart reports whether s matches ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$.
func isQualifiedNamePart(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain reports whether s matches the lowercase RFC 1123
// subdomain pattern (dot-separated labels of [a-z0-9-] that start and end
// with [a-z0-9]). Like Kubernetes, it does not bound each label's length.
func isDNS1123Subdomain(s string) bool {
	for label := range strings.SplitSeq(s, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			lowerAlnum := 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
			edge := i == 0 || i == len(label)-1
			if !lowerAlnum && (edge || c != '-') {
				return false
			}
		}
	}
	return true
}

// labelKeyErrors returns the problems with key as a label key (Kubernetes'
// IsQualifiedName): an optional DNS-1123 subdomain prefix of at most 253
// characters and "/", then a name of at most 63 characters.
func labelKeyErrors(key string) []string {
	var errs []string
	name := key
	switch strings.Count(key, "/") {
	case 0:
	case 1:
		var prefix string
		prefix, name, _ = strings.Cut(key, "/")
		if prefix == "" {
			errs = append(errs, "prefix part "+emptyError)
		} else {
			if len(prefix) > maxSubdomainLen {
				errs = append(errs, "prefix part "+maxLenError(maxSubdomainLen))
			}
			if !isDNS1123Subdomain(prefix) {
				errs = append(errs, "prefix part "+regexError(dns1123SubdomainErrorMsg, dns1123SubdomainFmt, "example.com"))
			}
		}
	default:
		return []string{"a qualified name " + regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part "+emptyError)
	} else if len(name) > maxLabelNameLen {
		errs = append(errs, "name part "+maxLenError(maxLabelNameLen))
	}
	if !isQualifiedNamePart(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameErrMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// labelValueErrors returns the problems with v as a label value: at most 63
// characters, empty or a qualified name part.
func labelValueErrors(v string) []string {
	var errs []string
	if len(v) > maxLabelNameLen {
		errs = append(errs, maxLenError(maxLabelNameLen))
	}
	if v != "" && !isQualifiedNamePart(v) {
		errs = append(errs, regexError(labelValueErrMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// invalidValue formats a field.Invalid error of apimachinery for a string
// value: `<path>: Invalid value: "<value>": <detail>`.
func invalidValue(path, value, detail string) string {
	return path + ": Invalid value: " + strconv.Quote(value) + ": " + detail
}

// parseInt64 is strconv.ParseInt(s, 10, 64) without the error value, so a
// failed parse does not allocate: an optional sign, then decimal digits.
func parseInt64(s string) (int64, bool) {
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, false
	}
	const limit = 1 << 63 // magnitude of math.MinInt64
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n > (limit-uint64(c-'0'))/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if neg {
		return -int64(n), true // n == 1<<63 wraps to MinInt64, which is right
	}
	if n >= limit {
		return 0, false
	}
	return int64(n), true
}

// QualifiedNameErrors returns kube's messages for a key that is not a
// valid label key (an optional DNS subdomain prefix and '/', then a name of
// at most 63 characters); nil when valid. Object metadata validation uses
// it for label and annotation keys and finalizers.
func QualifiedNameErrors(key string) []string { return labelKeyErrors(key) }

// LabelValueErrors returns kube's messages for an invalid label value; nil
// when valid.
func LabelValueErrors(v string) []string { return labelValueErrors(v) }
