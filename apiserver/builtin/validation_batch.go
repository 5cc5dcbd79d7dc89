package builtin

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // kube-apiserver embeds the zone database too: a time zone is valid whatever the host has

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// The checks the CronJob, HorizontalPodAutoscaler and PodDisruptionBudget
// validations share with nothing else yet: cron schedules as kube's cron
// library reads them, IANA time zone names, int-or-percent budgets,
// metav1.Conditions, quantities printed as kube prints them.

// cronScheduleError is what kube's cron parser (robfig/cron, its standard
// five-field form with descriptors) says about a schedule; "" when it
// parses.
func cronScheduleError(spec string) string {
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		i := strings.Index(spec, " ")
		if i < 0 {
			// kube's parser slices past the end here (a panic the server
			// recovers from); refuse it in words instead.
			return "provided bad location " + spec[strings.Index(spec, "=")+1:] + ": missing schedule"
		}
		name := spec[strings.Index(spec, "=")+1 : i]
		if _, err := time.LoadLocation(name); err != nil {
			return fmt.Sprintf("provided bad location %s: %v", name, err)
		}
		spec = strings.TrimSpace(spec[i:])
	}
	if strings.HasPrefix(spec, "@") {
		return cronDescriptorError(spec)
	}
	fields := strings.Fields(spec)
	if len(fields) != 5 {
		return fmt.Sprintf("expected exactly 5 fields, found %d: %s", len(fields), fmt.Sprint(fields))
	}
	for i, f := range fields {
		if msg := cronFieldError(f, cronBounds[i]); msg != "" {
			return msg
		}
	}
	return ""
}

func cronDescriptorError(spec string) string {
	switch spec {
	case "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
		return ""
	}
	if d, ok := strings.CutPrefix(spec, "@every "); ok {
		if _, err := time.ParseDuration(d); err != nil {
			return fmt.Sprintf("failed to parse duration %s: %s", spec, err)
		}
		return ""
	}
	return "unrecognized descriptor: " + spec
}

// cronBound is one schedule field's range and names.
type cronBound struct {
	min, max int
	names    map[string]int
}

var cronBounds = [5]cronBound{
	{0, 59, nil}, // minute
	{0, 23, nil}, // hour
	{1, 31, nil}, // day of month
	{1, 12, map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
		"sep": 9, "oct": 10, "nov": 11, "dec": 12}},
	{0, 6, map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}},
}

// cronFieldError checks one field: comma-separated ranges, each
// `*`/`?`, a number or name, or a range `a-b`, with an optional `/step`.
func cronFieldError(field string, b cronBound) string {
	for _, expr := range strings.FieldsFunc(field, func(r rune) bool { return r == ',' }) {
		if msg := cronRangeError(expr, b); msg != "" {
			return msg
		}
	}
	return ""
}

func cronRangeError(expr string, b cronBound) string {
	rangeAndStep := strings.Split(expr, "/")
	lowHigh := strings.Split(rangeAndStep[0], "-")
	var start, end int
	if lowHigh[0] == "*" || lowHigh[0] == "?" {
		start, end = b.min, b.max
	} else {
		var msg string
		if start, msg = cronNumber(lowHigh[0], b.names); msg != "" {
			return msg
		}
		switch len(lowHigh) {
		case 1:
			end = start
		case 2:
			if end, msg = cronNumber(lowHigh[1], b.names); msg != "" {
				return msg
			}
		default:
			return "too many hyphens: " + expr
		}
	}
	step := 1
	switch len(rangeAndStep) {
	case 1:
	case 2:
		var msg string
		if step, msg = cronNumber(rangeAndStep[1], nil); msg != "" {
			return msg
		}
		if len(lowHigh) == 1 { // "N/step" runs to the end
			end = b.max
		}
	default:
		return "too many slashes: " + expr
	}
	switch {
	case start < b.min:
		return fmt.Sprintf("beginning of range (%d) below minimum (%d): %s", start, b.min, expr)
	case end > b.max:
		return fmt.Sprintf("end of range (%d) above maximum (%d): %s", end, b.max, expr)
	case start > end:
		return fmt.Sprintf("beginning of range (%d) beyond end of range (%d): %s", start, end, expr)
	case step == 0:
		return "step of range should be a positive number: " + expr
	}
	return ""
}

// cronNumber reads a number or, where the field has names, a name.
func cronNumber(s string, names map[string]int) (int, string) {
	if n, ok := names[strings.ToLower(s)]; ok {
		return n, ""
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Sprintf("failed to parse int from %s: %s", s, err)
	}
	if n < 0 {
		return 0, fmt.Sprintf("negative number (%d) not allowed: %s", n, s)
	}
	return n, ""
}

// timeZoneChars is what a component of an IANA zone name may hold (digits
// and + for the legacy names).
var timeZoneChars = regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)

// timeZone is kube's validateTimeZone of a CronJob's spec.timeZone.
func (e *fieldErrs) timeZone(path string, v any) {
	tz, ok := v.(string)
	if !ok {
		return
	}
	if tz == "" {
		e.invalid(path, tz, "timeZone must be nil or non-empty string")
		return
	}
	for _, part := range strings.Split(tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !timeZoneChars.MatchString(part) {
			e.invalid(path, tz, "unknown time zone "+tz)
			return
		}
	}
	if strings.EqualFold(tz, "Local") {
		e.invalid(path, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")
	}
	if _, err := time.LoadLocation(tz); err != nil {
		e.invalid(path, tz, err.Error())
	}
}

// positiveIntOrPercent is kube's ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent: a non-negative integer or a percentage up to
// 100%, the value printed as kube prints an intstr.IntOrString.
func (e *fieldErrs) positiveIntOrPercent(path string, v any) {
	if n, ok := meta.AsInt64(v); ok {
		e.nonNegative(path, n)
		return
	}
	s, ok := v.(string)
	if !ok {
		return
	}
	if !percentRE.MatchString(s) {
		e.invalid(path, goValue(goIntOrString(s)), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")
		return
	}
	if percentOver100(s) {
		e.invalid(path, goValue(goIntOrString(s)), "must not be greater than 100%")
	}
}

// goPointer is how a set pointer field prints inside a Go value; the
// address is kube's process's, so any stands.
func goPointer(typ string, set bool) string {
	if !set {
		return "(" + typ + ")(nil)"
	}
	return "(" + typ + ")(0xc000010000)"
}

var conditionReasonRE = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// conditions is kube's ValidateConditions of metav1.Conditions: unique,
// qualified-name types, a known status, a transition time and a reason.
func (e *fieldErrs) conditions(path string, v any) {
	seen := map[string]bool{}
	for i, c := range asList(v) {
		cond := asMap(c)
		p := fmt.Sprintf("%s[%d]", path, i)
		typ, _ := cond["type"].(string)
		if seen[typ] {
			e.duplicate(p+".type", typ)
		}
		seen[typ] = true
		e.invalidAll(p+".type", typ, selectors.QualifiedNameErrors(typ))
		status, _ := cond["status"].(string)
		if status != "True" && status != "False" && status != "Unknown" {
			e.notSupported(p+".status", status, "False", "True", "Unknown")
		}
		if n, ok := meta.AsInt64(cond["observedGeneration"]); ok && n < 0 {
			e.invalid(p+".observedGeneration", n, "must be greater than or equal to zero")
		}
		if t, _ := cond["lastTransitionTime"].(string); t == "" {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + ".lastTransitionTime", Detail: "must be set"})
		}
		reason, _ := cond["reason"].(string)
		switch {
		case reason == "":
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + ".reason", Detail: "must be set"})
		case !conditionReasonRE.MatchString(reason):
			e.invalid(p+".reason", reason, "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')")
		}
		if len(reason) > 1024 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: p + ".reason", Detail: "may not be more than 1024 bytes"})
		}
		if m, _ := cond["message"].(string); len(m) > 32*1024 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: p + ".message", Detail: "may not be more than 32768 bytes"})
		}
	}
}

// quantitySign is -1, 0 or 1 for a quantity field's value (ok false
// when it is not a quantity).
func quantitySign(v any) (int, bool) {
	text, ok := quantityText(v)
	if !ok {
		return 0, false
	}
	negative, whole, fraction, _, ok := splitQuantity(strings.TrimSpace(text))
	if !ok {
		return 0, false
	}
	if strings.Trim(whole+fraction, "0") == "" {
		return 0, true
	}
	if negative {
		return -1, true
	}
	return 1, true
}

// goQuantity prints a resource.Quantity as Go's %#v does in kube's
// messages, as kube's parser leaves it: an int64 amount where its fast
// path holds the number (else an inf.Dec), and the text as written when it
// is already canonical.
func goQuantity(v any) goValue {
	text, _ := quantityText(v)
	text = strings.TrimSpace(text)
	const format = `resource.Quantity{i:resource.int64Amount{value:%d, scale:%d}, d:resource.infDecAmount{Dec:%s}, s:%q, Format:%q}`
	if text == "0" {
		return goValue(fmt.Sprintf(format, 0, 0, "(*inf.Dec)(nil)", "0", "DecimalSI"))
	}
	negative, num, denom, suffix, _ := splitQuantity(text)
	sfx, _ := parseSuffix(suffix)
	formatName := map[quantityFormat]string{decimalSI: "DecimalSI", binarySI: "BinarySI", decimalExponent: "DecimalExponent"}[sfx.format]
	precision, scale, mantissa := 0, 0, int64(1)
	switch sfx.format {
	case binarySI:
		if denom != "" {
			precision = -1
			break
		}
		mantissa <<= sfx.exponent
		precision = 15 - len(num) - int(float32(sfx.exponent)*3/10) - 1
	default:
		scale = sfx.exponent
		precision = 18 - len(num) - len(denom)
	}
	if precision >= 0 {
		scale -= len(denom)
		shifted := num + denom
		if n, err := strconv.ParseInt(shifted, 10, 64); err == nil && scale >= -9 {
			if result, ok := mulInt64(n, mantissa); ok {
				if negative {
					result = -result
				}
				kept := ""
				if sfx.format == binarySI && sfx.exponent%10 == 0 && n&7 != 0 ||
					sfx.format != binarySI && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
					kept = text
				}
				return goValue(fmt.Sprintf(format, result, scale, "(*inf.Dec)(nil)", kept, formatName))
			}
		}
	}
	return goValue(fmt.Sprintf(format, 0, 0, goPointer("*inf.Dec", true), "", formatName))
}

// mulInt64 multiplies without overflowing.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	return c, c/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}
