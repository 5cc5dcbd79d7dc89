package meta_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/meta"
)

// styled stands for a kube Go value with a rendering per style.
type styled struct{}

func (styled) FormatValue(s meta.ValueStyle) string {
	if s == meta.JSONValues {
		return `{"A":1}`
	}
	return "x.T{A:1}"
}

// TestFieldErrorValuesPerStyle: kube 1.33 prints a field error's value in
// Go syntax, kube 1.34 and later as JSON; strings, numbers and booleans
// print alike.
func TestFieldErrorValuesPerStyle(t *testing.T) {
	cases := []struct {
		name    string
		value   any
		go133   string
		json134 string
	}{
		{"a string is quoted as Go quotes it", "a<b", `"a<b"`, `"a<b"`},
		{"an int64 prints as is", int64(-1), "-1", "-1"},
		{"a boolean prints as is", true, "true", "true"},
		{"nil is null", nil, "null", "null"},
		{"a []string is a Go literal or a JSON array", []string{"a", "b"}, `[]string{"a", "b"}`, `["a","b"]`},
		{"a nil []string is a typed nil or null", []string(nil), `[]string(nil)`, `null`},
		{"a map's keys are sorted, and JSON escapes <", map[string]any{"b": "<", "a": int64(1)},
			`map[string]interface {}{"a":1, "b":"<"}`, `{"a":1,"b":"\u003c"}`},
		{"a styled value prints in its style", styled{}, "x.T{A:1}", `{"A":1}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			errs := meta.FieldErrors{{Type: meta.ErrorInvalid, Field: "f", Value: c.value, Detail: "bad"}}
			assert.Equal(t, "f: Invalid value: "+c.go133+": bad", errs.InStyle(meta.GoValues).Error())
			assert.Equal(t, "f: Invalid value: "+c.json134+": bad", errs.InStyle(meta.JSONValues).Error())
		})
	}
}

// TestFieldErrorsInStyleKeepOmittedValues: a Required or Forbidden error,
// and one whose value is NoValue, prints no value in either style.
func TestFieldErrorsInStyleKeepOmittedValues(t *testing.T) {
	errs := meta.FieldErrors{{Type: meta.ErrorRequired, Field: "a"}, {Type: meta.ErrorInvalid, Field: "b", Value: meta.NoValue, Detail: "d"}}
	assert.Equal(t, "[a: Required value, b: Invalid value: d]", errs.InStyle(meta.JSONValues).Error())
}
