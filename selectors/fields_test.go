package selectors

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFieldSelectorAcceptsTheKubernetesGrammar(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string // canonical String()
		reqs  []FieldRequirement
	}{
		{"an empty string selects everything", "", "", nil},
		{"empty terms are skipped", ",,", "", nil},
		{"a term without field and value is skipped", "=", "", nil},
		{"a double-equals term without field and value is skipped", "==", "", nil},
		{"a not-equals term without field and value is skipped", "!=", "", nil},
		{"equals is parsed", "a=b", "a=b", []FieldRequirement{{"a", Equals, "b"}}},
		{"double equals is written as equals", "a==b", "a=b", []FieldRequirement{{"a", Equals, "b"}}},
		{"not-equals is parsed", "a!=b", "a!=b", []FieldRequirement{{"a", NotEquals, "b"}}},
		{"an empty value is allowed", "a=", "a=", []FieldRequirement{{"a", Equals, ""}}},
		{"an empty value is allowed after not-equals", "a!=", "a!=", []FieldRequirement{{"a", NotEquals, ""}}},
		{"an empty field is allowed", "=b", "=b", []FieldRequirement{{"", Equals, "b"}}},
		{"an empty field is allowed before not-equals", "!=b", "!=b", []FieldRequirement{{"", NotEquals, "b"}}},
		{"terms are sorted", "c=d,a=b", "a=b,c=d", []FieldRequirement{{"a", Equals, "b"}, {"c", Equals, "d"}}},
		{"empty terms between terms are skipped", "a=b,,c=d,", "a=b,c=d", []FieldRequirement{{"a", Equals, "b"}, {"c", Equals, "d"}}},
		{"a skipped empty term does not hide the others", "=x,!=", "=x", []FieldRequirement{{"", Equals, "x"}}},
		{"blanks are part of field and value", "a = b", "a = b", []FieldRequirement{{"a ", Equals, " b"}}},
		{"leading and trailing blanks are kept", " a=b ", " a=b ", []FieldRequirement{{" a", Equals, "b "}}},
		{"an escaped comma is part of the value", `metadata.name=foo\,bar`, `metadata.name=foo\,bar`, []FieldRequirement{{"metadata.name", Equals, "foo,bar"}}},
		{"an escaped backslash is one backslash", `a=\\`, `a=\\`, []FieldRequirement{{"a", Equals, `\`}}},
		{"an escaped equals sign is part of the value", `a=\=`, `a=\=`, []FieldRequirement{{"a", Equals, "="}}},
		{"all three escapes together", `a=x\=y\,z\\w`, `a=x\=y\,z\\w`, []FieldRequirement{{"a", Equals, `x=y,z\w`}}},
		{"an escaped comma in a field stays escaped", `a\,b=c`, `a\,b=c`, []FieldRequirement{{`a\,b`, Equals, "c"}}},
		{"a backslash before the operator stays in the field", `a\=b`, `a\=b`, []FieldRequirement{{`a\`, Equals, "b"}}},
		{"a bang not followed by equals is part of the field", "a!b=c", "a!b=c", []FieldRequirement{{"a!b", Equals, "c"}}},
		{"fields and values may be any text", "é=ü", "é=ü", []FieldRequirement{{"é", Equals, "ü"}}},
		{"unescaping turns invalid UTF-8 into U+FFFD, as Kubernetes does", "a=b\xff\\,", "a=b\uFFFD\\,", []FieldRequirement{{"a", Equals, "b\uFFFD,"}}},
		{"values without escapes keep their bytes", "a=b\xff", "a=b\xff", []FieldRequirement{{"a", Equals, "b\xff"}}},
		{"repeated fields are kept", "a==b,a=c", "a=b,a=c", []FieldRequirement{{"a", Equals, "b"}, {"a", Equals, "c"}}},
		{"a typical selector", "spec.nodeName=,status.phase!=Running", "spec.nodeName=,status.phase!=Running",
			[]FieldRequirement{{"spec.nodeName", Equals, ""}, {"status.phase", NotEquals, "Running"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.input)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.String())
			assert.Equal(t, tt.reqs, sel.Requirements())
			assert.Equal(t, len(tt.reqs) == 0, sel.Empty())
			again, err := ParseFieldSelector(sel.String())
			require.NoError(t, err)
			assert.True(t, again.Equal(sel), "String() must parse back to an equal selector")
		})
	}
}

func TestParseFieldSelectorRejectsWhatKubernetesRejects(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		wantErr string
	}{
		{"a term without an operator", "a", "invalid selector: 'a'; can't understand 'a'"},
		{"a term without an operator among others", "a,b=c", "invalid selector: 'a,b=c'; can't understand 'a'"},
		{"a term without an operator after a good one", "z=1,a", "invalid selector: 'z=1,a'; can't understand 'a'"},
		{"an unescaped equals sign in a value", "a=b=c", "invalid field selector: unescaped character in value: 61"},
		{"three equals signs", "a===b", "invalid field selector: unescaped character in value: 61"},
		{"not-equals followed by equals", "a!==b", "invalid field selector: unescaped character in value: 61"},
		{"an unknown escape", `a=\x`, `invalid field selector: invalid escape sequence: \x`},
		{"an escaped multi-byte character", `a=\é`, `invalid field selector: invalid escape sequence: \é`},
		{"an escaped invalid byte, shown as U+FFFD", "a=\\\xff", "invalid field selector: invalid escape sequence: \\\uFFFD"},
		{"a lone backslash as value", `a=\`, `invalid field selector: invalid escape sequence: \`},
		{"a trailing backslash", `a=b\`, `invalid field selector: invalid escape sequence: \`},
		{"the first bad term in sorted order is reported", `z=\q,a=\r`, `invalid field selector: invalid escape sequence: \r`},
		{"a term without operator sorts before a bad escape", `b=\q,a`, `invalid selector: 'b=\q,a'; can't understand 'a'`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.input)
			require.EqualError(t, err, tt.wantErr)
			assert.True(t, sel.Empty(), "a failed parse returns the zero selector")
		})
	}
}

func TestFieldSelectorMatches(t *testing.T) {
	tests := []struct {
		name     string
		selector string
		fields   FieldSet
		want     bool
	}{
		{"the empty selector matches anything", "", FieldSet{"a": "b"}, true},
		{"the empty selector matches no fields", "", nil, true},
		{"equals matches the same value", "a=b", FieldSet{"a": "b"}, true},
		{"equals does not match another value", "a=b", FieldSet{"a": "c"}, false},
		{"equals does not match an absent field", "a=b", FieldSet{}, false},
		{"equals with no value matches an absent field", "a=", FieldSet{"x": "y"}, true},
		{"equals with no value matches an empty field", "a=", FieldSet{"a": ""}, true},
		{"equals with no value does not match a set field", "a=", FieldSet{"a": "b"}, false},
		{"double equals matches the same value", "a==b", FieldSet{"a": "b"}, true},
		{"not-equals matches another value", "a!=b", FieldSet{"a": "c"}, true},
		{"not-equals does not match the same value", "a!=b", FieldSet{"a": "b"}, false},
		{"not-equals matches an absent field", "a!=b", nil, true},
		{"not-equals with no value does not match an absent field", "a!=", nil, false},
		{"escaped values match their literal text", `metadata.name=a\,b\=c\\d`, FieldSet{"metadata.name": `a,b=c\d`}, true},
		{"all terms must match", "a=b,c=d", FieldSet{"a": "b", "c": "x"}, false},
		{"every term matches", "a=b,c!=d", FieldSet{"a": "b"}, true},
		{"fields are not trimmed", "a = b", FieldSet{"a": "b"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.selector)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.Matches(tt.fields))
		})
	}
}

func TestFieldSelectorRequiresExactMatch(t *testing.T) {
	tests := []struct {
		name      string
		selector  string
		field     string
		wantValue string
		wantOK    bool
	}{
		{"equals requires its value", "metadata.name=foo", "metadata.name", "foo", true},
		{"double equals requires its value", "metadata.name==foo", "metadata.name", "foo", true},
		{"an escaped value is returned unescaped", `metadata.name=a\,b`, "metadata.name", "a,b", true},
		{"equals with no value requires the empty value", "spec.nodeName=", "spec.nodeName", "", true},
		{"not-equals requires nothing", "metadata.name!=foo", "metadata.name", "", false},
		{"another field is not required", "metadata.name=foo", "metadata.namespace", "", false},
		{"the field is found among others", "metadata.name=foo,metadata.namespace=ns", "metadata.namespace", "ns", true},
		{"an exact term is found after a not-equals term", "a!=x,a=y", "a", "y", true},
		{"the empty selector requires nothing", "", "metadata.name", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.selector)
			require.NoError(t, err)
			value, ok := sel.RequiresExactMatch(tt.field)
			assert.Equal(t, tt.wantValue, value)
			assert.Equal(t, tt.wantOK, ok)
		})
	}
}

func TestFieldSelectorValidate(t *testing.T) {
	podFields := func(f string) bool {
		switch f {
		case "metadata.name", "metadata.namespace", "spec.nodeName", "status.phase":
			return true
		}
		return false
	}
	tests := []struct {
		name     string
		selector string
		wantErr  string // "" for no error
	}{
		{"known fields pass", "metadata.name=a,status.phase!=Running", ""},
		{"the empty selector passes", "", ""},
		{"an unknown field is reported as kube-apiserver reports it", "spec.foo=bar", "field label not supported: spec.foo"},
		{"the first unknown field in sorted order is reported", "z.b=1,status.phase=x,a.b=2", "field label not supported: a.b"},
		{"a field with a blank is unknown", "status.phase =Running", "field label not supported: status.phase "},
		{"an empty field is unknown", "=x", "field label not supported: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.selector)
			require.NoError(t, err)
			err = sel.Validate(podFields)
			if tt.wantErr == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tt.wantErr)
			}
		})
	}
}

func TestFieldSelectorValidateMetadataOnly(t *testing.T) {
	tests := []struct {
		name     string
		selector string
		wantErr  string
	}{
		{"metadata.name and metadata.namespace pass", "metadata.name=a,metadata.namespace!=b", ""},
		{"another field is reported as Kubernetes' default conversion reports it", "spec.foo=x",
			`"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.selector)
			require.NoError(t, err)
			err = sel.ValidateMetadataOnly()
			if tt.wantErr == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tt.wantErr)
			}
		})
	}
}

func TestFieldSelectorTransform(t *testing.T) {
	podLabels := func(field, value string) (string, string, error) {
		switch field {
		case "spec.host":
			return "spec.nodeName", value, nil
		case "metadata.name", "spec.nodeName":
			return field, value, nil
		case "drop":
			return "", "", nil
		}
		return "", "", errors.New("field label not supported: " + field)
	}
	tests := []struct {
		name     string
		selector string
		want     string
		wantErr  string
	}{
		{"a field is renamed and the result re-sorted", "spec.host=n1,metadata.name=p", "metadata.name=p,spec.nodeName=n1", ""},
		{"a term turned into nothing is dropped", "drop=x,metadata.name=p", "metadata.name=p", ""},
		{"the function's error is returned", "metadata.name=p,spec.foo=x", "", "field label not supported: spec.foo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseFieldSelector(tt.selector)
			require.NoError(t, err)
			before := sel.String()
			out, err := sel.Transform(podLabels)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, out.String())
			assert.Equal(t, before, sel.String(), "the receiver is unchanged")
		})
	}
	t.Run("nothing stays nothing", func(t *testing.T) {
		out, err := NothingFields().Transform(podLabels)
		require.NoError(t, err)
		assert.True(t, out.Equal(NothingFields()))
	})
}

func TestEscapeFieldValue(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string
	}{
		{"plain text is unchanged", "foo.bar-1", "foo.bar-1"},
		{"a backslash is doubled", `a\b`, `a\\b`},
		{"a comma is escaped", "a,b", `a\,b`},
		{"an equals sign is escaped", "a=b", `a\=b`},
		{"all three together", `\,=`, `\\\,\=`},
		{"the empty value stays empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, EscapeFieldValue(tt.input))
			sel, err := ParseFieldSelector("f=" + EscapeFieldValue(tt.input))
			require.NoError(t, err)
			got, ok := sel.RequiresExactMatch("f")
			assert.True(t, ok)
			assert.Equal(t, tt.input, got, "parsing undoes the escape")
		})
	}
}

func TestEverythingAndNothingFields(t *testing.T) {
	t.Run("everything is the zero value and is empty", func(t *testing.T) {
		assert.True(t, EverythingFields().Empty())
		assert.True(t, FieldSelector{}.Equal(EverythingFields()))
		assert.True(t, EverythingFields().Matches(FieldSet(nil)))
		assert.NoError(t, EverythingFields().Validate(func(string) bool { return false }))
	})
	t.Run("nothing matches nothing and is not empty", func(t *testing.T) {
		assert.False(t, NothingFields().Empty())
		assert.Equal(t, "", NothingFields().String())
		assert.False(t, NothingFields().Matches(FieldSet{"a": "b"}))
		assert.False(t, NothingFields().Equal(EverythingFields()))
	})
	t.Run("requirements are a copy", func(t *testing.T) {
		sel, err := ParseFieldSelector("a=b")
		require.NoError(t, err)
		sel.Requirements()[0].Value = "changed"
		assert.Equal(t, "a=b", sel.String())
	})
	t.Run("a long selector parses", func(t *testing.T) {
		sel, err := ParseFieldSelector(strings.Repeat("a=b,", 1000))
		require.NoError(t, err)
		assert.Len(t, sel.Requirements(), 1000)
	})
}
