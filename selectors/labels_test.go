package selectors

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expected messages below are what k8s.io/apimachinery v0.33.13 (the
// library of the reference kube-apiserver v1.33.13) answers for the same
// input, checked by running both parsers side by side.
const (
	nameRegexMsg = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
		"(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	valueRegexMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
		"with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	prefixRegexMsg = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start " +
		"and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	unableToParse = "unable to parse requirement: "
)

func TestParseLabelSelectorAcceptsTheKubernetesGrammar(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  string // canonical String()
	}{
		{"an empty string selects everything", "", ""},
		{"blanks alone select everything", " \t\r\n", ""},
		{"a bare key requires the key", "a", "a"},
		{"a bang requires the key to be absent", "!a", "!a"},
		{"blanks may surround the bang", " ! a ", "!a"},
		{"a single equals sign is kept", "a=b", "a=b"},
		{"a double equals sign is kept as written", "a==b", "a==b"},
		{"not-equals is parsed", "a!=b", "a!=b"},
		{"blanks around an operator are dropped", "a = b", "a=b"},
		{"tabs around a double equals sign are dropped", "a\t==\tb", "a==b"},
		{"newlines and carriage returns are blanks", "a\n!=\r\nb", "a!=b"},
		{"in takes a set of values", "a in (b,c)", "a in (b,c)"},
		{"notin values are sorted and deduplicated", "a notin (c,b,b)", "a notin (b,c)"},
		{"blanks inside a value set are dropped", "a in ( b , c )", "a in (b,c)"},
		{"empty parentheses are the empty value", "a in ()", "a in ()"},
		{"a lone comma in parentheses is the empty value", "a in (,)", "a in ()"},
		{"a leading comma adds the empty value", "a in (,b)", "a in (,b)"},
		{"a trailing comma adds the empty value", "a in (b,)", "a in (,b)"},
		{"a double comma adds the empty value", "a in (b,,c)", "a in (,b,c)"},
		{"greater-than takes an integer", "a>5", "a>5"},
		{"less-than takes an integer with blanks", "a < 10", "a<10"},
		{"leading zeros are kept as written", "a>007", "a>007"},
		{"requirements are sorted by key", "x=1,a=2", "a=2,x=1"},
		{"existence requirements are sorted by key", "b,a,!c", "a,b,!c"},
		{"in is a key where a key is expected", "in", "in"},
		{"notin is a key where a key is expected", "notin", "notin"},
		{"in is key, operator and value by position", "in in (in)", "in in (in)"},
		{"notin is key, operator and value by position", "notin notin (notin)", "notin notin (notin)"},
		{"in is a value after equals", "a=in", "a=in"},
		{"a missing value after equals is the empty value", "a=", "a="},
		{"a missing value after double equals is the empty value", "a==", "a=="},
		{"a missing value after not-equals is the empty value", "a!=", "a!="},
		{"a missing value before a comma is the empty value", "a=,b", "a=,b"},
		{"a key may have a DNS subdomain prefix", "example.com/a=b", "example.com/a=b"},
		{"keys and values may use dashes underscores and dots", "k8s.io/x-y_z.w=V-1_2.3", "k8s.io/x-y_z.w=V-1_2.3"},
		{"upper case is fine in names and values", "A=B", "A=B"},
		{"a name of 63 characters is fine", strings.Repeat("a", 63), strings.Repeat("a", 63)},
		{"a prefix of 253 characters is fine", strings.Repeat("p", 253) + "/n", strings.Repeat("p", 253) + "/n"},
		{"a value of 63 characters is fine", "a=" + strings.Repeat("v", 63), "a=" + strings.Repeat("v", 63)},
		{"a repeated key is kept twice", "a,a", "a,a"},
		{"requirements on one key are ordered by their text", "a=1,a!=2", "a!=2,a=1"},
		{"the order of input does not change the result", "a!=2,a=1", "a!=2,a=1"},
		{"absence sorts before presence of one key", "a,!a", "!a,a"},
		{"a NUL byte where a token starts ends the input", "a \x00,!!garbage", "a"},
		{"a NUL byte right after a key only separates", "a\x00,b", "a,b"},
		{"a NUL byte first gives the empty selector", "\x00a", ""},
		{"a NUL byte after a symbol is skipped", "a=\x00b", "a=b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseLabelSelector(tt.input)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.String())
			again, err := ParseLabelSelector(sel.String())
			require.NoError(t, err)
			assert.True(t, again.Equal(sel), "String() must parse back to an equal selector")
		})
	}
}

func TestParseLabelSelectorRejectsWhatKubernetesRejects(t *testing.T) {
	long := strings.Repeat("a", 64)
	tests := []struct {
		name    string
		input   string
		wantErr string
	}{
		// Syntax.
		{"an unclosed value set", "a in (", unableToParse + "found '', expected: ',', ')' or identifier"},
		{"an unclosed notin value set", "a notin (", unableToParse + "found '', expected: ',', ')' or identifier"},
		{"in without a value set", "a in", unableToParse + "found '' expected: '('"},
		{"in followed by a bare value", "a in b", unableToParse + "found 'b' expected: '('"},
		{"a value set without a closing parenthesis", "a in (b", unableToParse + "found '', expected: ',' or ')'"},
		{"two values without a comma", "a in (b c)", unableToParse + "found 'c', expected: ',' or ')'"},
		{"a value set that ends after a comma", "a in (b,", unableToParse + "found '', expected: ',', or identifier"},
		{"two commas alone in a value set, as in v1.33", "a in (,,)", unableToParse + "found ')', expected: ',', or identifier"},
		{"two trailing commas in a value set, as in v1.33", "a in (b,,)", unableToParse + "found ')', expected: ',', or identifier"},
		{"nested parentheses", "a in ((b))", unableToParse + "found '(', expected: ',', ')' or identifier"},
		{"a key followed by a value", "a b", unableToParse + "found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"a key followed by a bang", "a !b", unableToParse + "found '!', expected: in, notin, =, ==, !=, gt, lt"},
		{"parentheses without in", "a (b)", unableToParse + "found '(', expected: in, notin, =, ==, !=, gt, lt"},
		{"a trailing comma", "a,", "found '', expected: identifier after ','"},
		{"a trailing comma after a value", "a=b,", "found '', expected: identifier after ','"},
		{"two commas between requirements", "a,,b", "found ',', expected: identifier after ','"},
		{"an operator after a comma", "a=b,=c", "found '=', expected: identifier after ','"},
		{"a leading comma", ",a", "found ',', expected: !, identifier, or 'end of string'"},
		{"a leading operator", "=a", "found '=', expected: !, identifier, or 'end of string'"},
		{"a leading not-equals", "!=a", "found '!=', expected: !, identifier, or 'end of string'"},
		{"two values after equals", "a=b c", "found 'c', expected: ',' or 'end of string'"},
		{"a stray closing parenthesis", "a=b)", "found ')', expected: ',' or 'end of string'"},
		{"text after a value set", "a in (b)c", "found 'c', expected: ',' or 'end of string'"},
		{"a bang with an operator after the key", "!a=b", "found '=', expected: ',' or 'end of string'"},
		{"text after a NUL byte that follows a value", "a=b\x00garbage", "found 'garbage', expected: ',' or 'end of string'"},
		{"a bang alone", "!", unableToParse + "found '', expected: identifier"},
		{"a bang alone after a comma", "a=b,!", unableToParse + "found '', expected: identifier"},
		{"two bangs", "!!a", unableToParse + "found '!', expected: identifier"},
		{"a parenthesis after equals", "a=(", unableToParse + "found '(', expected: identifier"},
		{"three equals signs", "a===", unableToParse + "found '=', expected: identifier"},
		{"less-or-equal, which does not exist", "a<=1", unableToParse + "found '=', expected: identifier"},
		{"greater-or-equal, which does not exist", "a>=1", unableToParse + "found '=', expected: identifier"},
		{"less-greater, which does not exist", "a<>1", unableToParse + "found '>', expected: identifier"},

		// Integers of > and <.
		{"a word after greater-than", "a>b", unableToParse + `values[0]: Invalid value: "b": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"nothing after greater-than", "a>", unableToParse + `values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"a decimal after less-than", "a<1.5", unableToParse + `values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"an integer beyond int64", "a>99999999999999999999", unableToParse + `values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"a negative integer, which is no label value", "a>-1", unableToParse + `values[0][a]: Invalid value: "-1": ` + valueRegexMsg},
		{"a value that is neither an integer nor a label value", "a>b-", unableToParse +
			`[values[0]: Invalid value: "b-": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "b-": ` + valueRegexMsg + "]"},

		// Values.
		{"a value starting with a dash", "a=-b", unableToParse + `values[0][a]: Invalid value: "-b": ` + valueRegexMsg},
		{"a value ending with an underscore", "a=b_", unableToParse + `values[0][a]: Invalid value: "b_": ` + valueRegexMsg},
		{"a value that is not ASCII", "a=é", unableToParse + `values[0][a]: Invalid value: "é": ` + valueRegexMsg},
		{"a quoted value", `a="b"`, unableToParse + `values[0][a]: Invalid value: "\"b\"": ` + valueRegexMsg},
		{"a value of 64 characters", "a=" + long, unableToParse + `values[0][a]: Invalid value: "` + long + `": must be no more than 63 characters`},
		{"a long value with a bad last character", "a=" + long[1:] + "-", unableToParse +
			`values[0][a]: Invalid value: "` + long[1:] + `-": must be no more than 63 characters; ` + valueRegexMsg},
		{"two bad values in a set, by sorted index", "a in (y_,-x)", unableToParse +
			`[values[0][a]: Invalid value: "-x": ` + valueRegexMsg + `, values[1][a]: Invalid value: "y_": ` + valueRegexMsg + "]"},

		// Keys.
		{"a key with a symbol", "A@", unableToParse + `<nil>: Invalid value: "A@": name part ` + nameRegexMsg},
		{"a key after a bang with a symbol", "!A@", unableToParse + `<nil>: Invalid value: "A@": name part ` + nameRegexMsg},
		{"a key starting with a dash", "-a", unableToParse + `<nil>: Invalid value: "-a": name part ` + nameRegexMsg},
		{"a key that is not ASCII", "é", unableToParse + `<nil>: Invalid value: "é": name part ` + nameRegexMsg},
		{"a key with a no-break space", "a\u00a0b", unableToParse + `<nil>: Invalid value: "a\u00a0b": name part ` + nameRegexMsg},
		{"a key with two slashes", "a/b/c", unableToParse + `<nil>: Invalid value: "a/b/c": a qualified name ` + nameRegexMsg +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
		{"a key with an empty prefix", "/a", unableToParse + `<nil>: Invalid value: "/a": prefix part must be non-empty`},
		{"a key with an empty name", "a/", unableToParse + `<nil>: Invalid value: "a/": name part must be non-empty; name part ` + nameRegexMsg},
		{"a key with an upper case prefix", "Example.com/a", unableToParse + `<nil>: Invalid value: "Example.com/a": ` + prefixRegexMsg},
		{"a key with an underscore in its prefix", "a_b.c/d", unableToParse + `<nil>: Invalid value: "a_b.c/d": ` + prefixRegexMsg},
		{"a key with a bad name after a prefix", "a.b/-c", unableToParse + `<nil>: Invalid value: "a.b/-c": name part ` + nameRegexMsg},
		{"a key name of 64 characters", long, unableToParse + `<nil>: Invalid value: "` + long + `": name part must be no more than 63 characters`},
		{"a prefixed key name of 64 characters", "x/" + long, unableToParse + `<nil>: Invalid value: "x/` + long + `": name part must be no more than 63 characters`},
		{"a key prefix of 254 characters", strings.Repeat("p", 254) + "/n", unableToParse + `<nil>: Invalid value: "` + strings.Repeat("p", 254) +
			`/n": prefix part must be no more than 253 characters`},
		{"a long upper case key prefix", strings.Repeat("P", 254) + "/n", unableToParse + `<nil>: Invalid value: "` + strings.Repeat("P", 254) +
			`/n": prefix part must be no more than 253 characters; ` + prefixRegexMsg},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseLabelSelector(tt.input)
			require.EqualError(t, err, tt.wantErr)
			assert.True(t, sel.Empty(), "a failed parse returns the zero selector")
		})
	}
}

func TestLabelSelectorMatches(t *testing.T) {
	tests := []struct {
		name     string
		selector string
		labels   map[string]string
		want     bool
	}{
		{"the empty selector matches no labels", "", nil, true},
		{"the empty selector matches any labels", "", map[string]string{"a": "b"}, true},
		{"exists matches a set key", "a", map[string]string{"a": "x"}, true},
		{"exists matches a key set to the empty value", "a", map[string]string{"a": ""}, true},
		{"exists does not match an absent key", "a", map[string]string{"b": "x"}, false},
		{"does-not-exist matches an absent key", "!a", map[string]string{"b": "x"}, true},
		{"does-not-exist matches nil labels", "!a", nil, true},
		{"does-not-exist does not match a set key", "!a", map[string]string{"a": ""}, false},
		{"equals matches the same value", "a=b", map[string]string{"a": "b"}, true},
		{"equals does not match another value", "a=b", map[string]string{"a": "c"}, false},
		{"equals does not match an absent key", "a=b", nil, false},
		{"equals with no value matches the empty value", "a=", map[string]string{"a": ""}, true},
		{"equals with no value does not match an absent key", "a=", nil, false},
		{"double equals matches the same value", "a==b", map[string]string{"a": "b"}, true},
		{"double equals does not match another value", "a==b", map[string]string{"a": "c"}, false},
		{"not-equals matches another value", "a!=b", map[string]string{"a": "c"}, true},
		{"not-equals does not match the same value", "a!=b", map[string]string{"a": "b"}, false},
		{"not-equals matches an absent key", "a!=b", map[string]string{"c": "b"}, true},
		{"not-equals matches nil labels", "a!=b", nil, true},
		{"in matches any of its values", "a in (b,c)", map[string]string{"a": "c"}, true},
		{"in does not match other values", "a in (b,c)", map[string]string{"a": "d"}, false},
		{"in does not match an absent key", "a in (b,c)", nil, false},
		{"in with the empty value matches it", "a in (,b)", map[string]string{"a": ""}, true},
		{"notin matches other values", "a notin (b,c)", map[string]string{"a": "d"}, true},
		{"notin does not match its values", "a notin (b,c)", map[string]string{"a": "b"}, false},
		{"notin matches an absent key", "a notin (b,c)", map[string]string{"x": "b"}, true},
		{"greater-than compares integers", "a>5", map[string]string{"a": "10"}, true},
		{"greater-than is strict", "a>5", map[string]string{"a": "5"}, false},
		{"greater-than reads leading zeros", "a>5", map[string]string{"a": "006"}, true},
		{"greater-than reads signs in labels", "a>5", map[string]string{"a": "+6"}, true},
		{"greater-than does not match a negative number", "a>5", map[string]string{"a": "-6"}, false},
		{"greater-than does not match a word", "a>5", map[string]string{"a": "six"}, false},
		{"greater-than does not match an absent key", "a>5", nil, false},
		{"greater-than does not match an integer beyond int64", "a>5", map[string]string{"a": "9223372036854775808"}, false},
		{"greater-than matches the largest int64", "a>5", map[string]string{"a": "9223372036854775807"}, true},
		{"less-than compares integers", "a<5", map[string]string{"a": "4"}, true},
		{"less-than is strict", "a<5", map[string]string{"a": "5"}, false},
		{"less-than matches a negative number", "a<5", map[string]string{"a": "-9223372036854775808"}, true},
		{"less-than does not match the empty value", "a<5", map[string]string{"a": ""}, false},
		{"less-than does not match an absent key", "a<5", nil, false},
		{"all requirements must match", "a=b,c", map[string]string{"a": "b"}, false},
		{"every requirement matches", "a=b,c,!d,e!=f", map[string]string{"a": "b", "c": "", "e": "g"}, true},
		{"conflicting requirements on one key match nothing", "a=b,a=c", map[string]string{"a": "b"}, false},
		{"a key and its not-equals require the key", "a,a!=b", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseLabelSelector(tt.selector)
			require.NoError(t, err)
			assert.Equal(t, tt.want, sel.Matches(tt.labels))
			assert.Equal(t, tt.want, sel.MatchesLabels(LabelSet(tt.labels)), "MatchesLabels agrees with Matches")
		})
	}
}

func TestLabelSelectorRequiresExactMatch(t *testing.T) {
	tests := []struct {
		name      string
		selector  string
		key       string
		wantValue string
		wantOK    bool
	}{
		{"equals requires its value", "a=b", "a", "b", true},
		{"double equals requires its value", "a==b", "a", "b", true},
		{"in with one value requires it", "a in (b)", "a", "b", true},
		{"equals with no value requires the empty value", "a=", "a", "", true},
		{"in with empty parentheses requires the empty value", "a in ()", "a", "", true},
		{"in with two values requires neither", "a in (b,c)", "a", "", false},
		{"not-equals requires nothing", "a!=b", "a", "", false},
		{"notin with one value requires nothing", "a notin (b)", "a", "", false},
		{"exists requires no particular value", "a", "a", "", false},
		{"greater-than requires no particular value", "a>1", "a", "", false},
		{"another key is not required", "a=b", "c", "", false},
		{"the empty selector requires nothing", "", "a", "", false},
		{"an exact requirement is found among others on the key", "a!=x,a=y", "a", "y", true},
		{"an exact requirement is found among other keys", "a=1,b=2,c=3", "b", "2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, err := ParseLabelSelector(tt.selector)
			require.NoError(t, err)
			value, ok := sel.RequiresExactMatch(tt.key)
			assert.Equal(t, tt.wantValue, value)
			assert.Equal(t, tt.wantOK, ok)
		})
	}
}

func TestLabelSelectorRequirementsDescribeTheSelector(t *testing.T) {
	sel, err := ParseLabelSelector("x in (c,a), !y, z>3, w")
	require.NoError(t, err)
	reqs := sel.Requirements()
	require.Len(t, reqs, 4)
	type req struct {
		key    string
		op     Operator
		values []string
	}
	var got []req
	for _, r := range reqs {
		got = append(got, req{r.Key(), r.Operator(), r.Values()})
	}
	assert.Equal(t, []req{
		{"w", Exists, nil},
		{"x", In, []string{"a", "c"}},
		{"y", DoesNotExist, nil},
		{"z", GreaterThan, []string{"3"}},
	}, got)
	assert.Equal(t, "x in (a,c)", reqs[1].String())

	reqs[1].Values()[0] = "changed"
	reqs[0] = LabelRequirement{}
	assert.Equal(t, "w,x in (a,c),!y,z>3", sel.String(), "callers cannot change a selector through what it returns")
}

func TestEverythingAndNothingLabels(t *testing.T) {
	t.Run("everything is the zero value and is empty", func(t *testing.T) {
		assert.True(t, EverythingLabels().Empty())
		assert.True(t, LabelSelector{}.Equal(EverythingLabels()))
		assert.Equal(t, "", EverythingLabels().String())
		assert.True(t, EverythingLabels().Matches(map[string]string{"a": "b"}))
		assert.True(t, EverythingLabels().MatchesLabels(LabelSet(nil)))
	})
	t.Run("nothing matches nothing and is not empty", func(t *testing.T) {
		assert.False(t, NothingLabels().Empty())
		assert.Equal(t, "", NothingLabels().String())
		assert.False(t, NothingLabels().Matches(nil))
		assert.False(t, NothingLabels().MatchesLabels(LabelSet{"a": "b"}))
		assert.False(t, NothingLabels().Equal(EverythingLabels()))
		_, ok := NothingLabels().RequiresExactMatch("a")
		assert.False(t, ok)
	})
	t.Run("a parsed empty selector is everything", func(t *testing.T) {
		sel, err := ParseLabelSelector("  ")
		require.NoError(t, err)
		assert.True(t, sel.Equal(EverythingLabels()))
	})
}

func TestParseInt64ReadsIntegersLikeStrconv(t *testing.T) {
	for _, s := range []string{
		"", "0", "-0", "+0", "1", "-1", "+1", "007", "1_000", "0x10", "1e3", " 1", "1 ", "+", "-", "--1", "+-1", "١",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551616", "99999999999999999999999",
	} {
		t.Run("the input "+strconv.Quote(s)+" reads as strconv reads it", func(t *testing.T) {
			want, err := strconv.ParseInt(s, 10, 64)
			got, ok := parseInt64(s)
			assert.Equal(t, err == nil, ok)
			if ok {
				assert.Equal(t, want, got)
			}
		})
	}
}
