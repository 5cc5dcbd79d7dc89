package builtin

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCronScheduleErrors holds the parser to what kube's cron library
// answers (recorded through kube-apiserver 1.33,
// docs/kube-behaviour/15-validation-batch-autoscaling-policy.md) and to
// its rules where the recordings do not reach.
func TestCronScheduleErrors(t *testing.T) {
	cases := []struct{ name, schedule, want string }{
		{"five stars are every minute", "* * * * *", ""},
		{"a question mark stands for a star", "0 0 ? * ?", ""},
		{"steps may follow a single number", "5/15 * * * *", ""},
		{"names are case-insensitive", "0 0 * JAN-Mar SUN", ""},
		{"the weekly macro parses", "@weekly", ""},
		{"a zone before five fields is read", "CRON_TZ=UTC 0 * * * *", ""},
		{"extra spaces between fields are allowed", " 0  *\t* * * ", ""},
		{"three fields are refused", "not a schedule", "expected exactly 5 fields, found 3: [not a schedule]"},
		{"an empty field list is refused", "   ", "expected exactly 5 fields, found 0: []"},
		{"a minute above 59 is refused", "60 * * * *", "end of range (60) above maximum (59): 60"},
		{"a month of zero is refused", "0 0 1 0 *", "beginning of range (0) below minimum (1): 0"},
		{"the first bad field is reported", "0 25 32 * *", "end of range (25) above maximum (23): 25"},
		{"a name outside its field is refused", "0 0 * mon *", "failed to parse int from mon: strconv.Atoi: parsing \"mon\": invalid syntax"},
		{"a step of zero is refused", "*/0 * * * *", "step of range should be a positive number: */0"},
		{"a negative step is refused", "*/-1 * * * *", "negative number (-1) not allowed: -1"},
		{"a backwards range is refused", "0 5-1 * * *", "beginning of range (5) beyond end of range (1): 5-1"},
		{"two hyphens are refused", "1-2-3 * * * *", "too many hyphens: 1-2-3"},
		{"two slashes are refused", "*/2/3 * * * *", "too many slashes: */2/3"},
		{"an unknown macro is refused", "@fortnightly", "unrecognized descriptor: @fortnightly"},
		{"an @every needs a duration", "@every soon", `failed to parse duration @every soon: time: invalid duration "soon"`},
		{"an unknown zone is refused", "TZ=Mars/Olympus 0 * * * *", "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"},
		{"a zone alone does not panic", "TZ=UTC", "provided bad location UTC: missing schedule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, cronScheduleError(c.schedule))
		})
	}
}

// FuzzCronSchedule: any schedule gets an answer, never a panic; one that
// parses is a descriptor or five fields.
func FuzzCronSchedule(f *testing.F) {
	for _, s := range []string{"* * * * *", "*/5 0-12/2 1,15 jan-jun mon,fri", "@every 1h", "@hourly", "TZ=UTC 0 * * * *",
		"CRON_TZ=", "TZ=", "1-2-3 * * * *", "*/0 * * * *", "-1 * * * *", "9999999999999999999 * * * *"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if cronScheduleError(s) != "" {
			return
		}
		rest := s
		if strings.HasPrefix(s, "TZ=") || strings.HasPrefix(s, "CRON_TZ=") {
			rest = strings.TrimSpace(s[strings.Index(s, " "):])
		}
		if !strings.HasPrefix(rest, "@") && len(strings.Fields(rest)) != 5 {
			t.Fatalf("%q parsed without five fields", s)
		}
	})
}
