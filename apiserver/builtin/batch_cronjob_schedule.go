package builtin

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // kube-apiserver embeds the zone database too: a time zone is valid whatever the host has
)

// A CronJob's schedule and time zone: cron schedules as kube's cron library
// (robfig/cron) reads them, and IANA time zone names.

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
