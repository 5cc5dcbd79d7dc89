package cel

import (
	"slices"
	"time"
)

// The readings of date-time strings kube's OpenAPI library
// (strfmt) does, which rules see as timestamps (durations: schema.ParseDuration).

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

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
