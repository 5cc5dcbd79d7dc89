package cel

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The readings of date-time and duration strings kube's OpenAPI library
// (strfmt) does, which rules see as timestamps and durations.

var dateTimeLayouts = []string{
	"2006-01-02T15:04:05.000000Z07:00", "2006-01-02T15:04:05.000Z07:00", time.RFC3339, time.RFC3339Nano,
	"2006-01-02T15:04:05",
}

// parseDateTime reads a date-time as strfmt does: the layouts in turn, the
// last error when none reads it; "" is the zero time.
func parseDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var last error
	for _, layout := range dateTimeLayouts {
		t, err := time.Parse(layout, s)
		if err == nil {
			return t, nil
		}
		last = err
	}
	return time.Time{}, last
}

var (
	durationPart  = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)
	durationUnits = []struct {
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
)

// parseDuration reads a Go duration, or strfmt's "<n> <unit>" forms
// ("3 days", "1w2d").
func parseDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var d time.Duration
	ok := false
	for _, m := range durationPart.FindAllStringSubmatch(s, -1) {
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

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
