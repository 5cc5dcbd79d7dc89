package cel

import (
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/kapi-dev/kapi/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// eval compiles and runs a constant expression in the base environment.
func eval(t *testing.T, expr string) (any, error) {
	t.Helper()
	env, err := baseEnv()
	require.NoError(t, err)
	ast, iss := env.Compile(expr)
	require.NoError(t, iss.Err(), expr)
	prog, err := env.Program(ast, programOptions(&costEstimator{})...)
	require.NoError(t, err)
	out, _, err := prog.Eval(cel.NoVars())
	if err != nil {
		return nil, err
	}
	return out.Value(), nil
}

func TestLibraryFunctionsAnswerAsKubes(t *testing.T) {
	cases := []struct {
		expr string
		want any
	}{
		// lists
		{"[1, 2, 3].isSorted()", true},
		{"['b', 'a'].isSorted()", false},
		{"[1, 2, 3].sum()", int64(6)},
		{"[1.5, 2.0].sum()", 3.5},
		{"[duration('1s'), duration('2s')].sum() == duration('3s')", true},
		{"[3, 1, 2].min()", int64(1)},
		{"['a', 'c', 'b'].max()", "c"},
		{"[1, 2, 1].indexOf(1)", int64(0)},
		{"[1, 2, 1].lastIndexOf(1)", int64(2)},
		{"[1, 2].indexOf(5)", int64(-1)},
		// regex
		{"'abc 123'.find('[0-9]+')", "123"},
		{"'abc'.find('[0-9]+')", ""},
		{"'a1b2c3'.findAll('[0-9]') == ['1', '2', '3']", true},
		{"'a1b2c3'.findAll('[0-9]', 2) == ['1', '2']", true},
		// URLs
		{"url('https://example.com:8080/a%20b?x=1&x=2').getHost()", "example.com:8080"},
		{"url('https://example.com:8080/p').getHostname()", "example.com"},
		{"url('https://example.com:8080/p').getPort()", "8080"},
		{"url('https://example.com/a%20b').getEscapedPath()", "/a%20b"},
		{"url('https://example.com/?x=1&x=2').getQuery()['x'] == ['1', '2']", true},
		{"url('/absolute/path').getScheme()", ""},
		{"isURL('https://example.com')", true},
		{"isURL('not a url')", false},
		{"url('https://a.b/c') == url('https://a.b/c')", true},
		// quantity
		{"quantity('1Gi').isGreaterThan(quantity('1000Mi'))", true},
		{"quantity('500m').isLessThan(quantity('1'))", true},
		{"quantity('1k').compareTo(quantity('1000'))", int64(0)},
		{"quantity('1k') == quantity('1000')", true},
		{"quantity('2').asInteger()", int64(2)},
		{"quantity('1.5').isInteger()", false},
		{"quantity('1k').isInteger()", true},
		{"quantity('1Ei').isInteger()", false}, // kube's decimal representation is never an integer
		{"quantity('1.5').asApproximateFloat()", 1.5},
		{"quantity('500Mi').add(quantity('524Mi')) == quantity('1Gi')", true},
		{"quantity('1').add(2).asInteger()", int64(3)},
		{"quantity('5').sub(quantity('7')).asInteger()", int64(-2)},
		{"quantity('1').sub(3).isLessThan(quantity('0'))", true},
		{"sign(quantity('-1m'))", int64(-1)},
		{"sign(quantity('0'))", int64(0)},
		{"isQuantity('1.5Gi')", true},
		{"isQuantity('1.5Gb')", false},
		{"isQuantity('')", false},
		{"isQuantity('1e3')", true},
		{"isQuantity('.')", true},                    // kube reads "." as 0
		{"quantity('0.1n') == quantity('1n')", true}, // rounded up to a whole nano
		// IP and CIDR
		{"ip('10.0.0.1').family()", int64(4)},
		{"ip('::1').family()", int64(6)},
		{"ip('127.0.0.1').isLoopback()", true},
		{"ip('0.0.0.0').isUnspecified()", true},
		{"ip('224.0.0.1').isLinkLocalMulticast()", true},
		{"ip('fe80::1').isLinkLocalUnicast()", true},
		{"ip('8.8.8.8').isGlobalUnicast()", true},
		{"isIP('10.0.0.256')", false},
		{"isIP('::ffff:10.0.0.1')", false}, // IPv4-mapped IPv6 is refused
		{"isIP('fe80::1%eth0')", false},    // zones are refused
		{"ip.isCanonical('2001:db8::1')", true},
		{"ip.isCanonical('2001:DB8::1')", false},
		{"string(ip('2001:db8:0::1'))", "2001:db8::1"},
		{"cidr('10.0.0.0/8').containsIP('10.1.2.3')", true},
		{"cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))", false},
		{"cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true},
		{"cidr('10.0.0.0/16').containsCIDR(cidr('10.0.0.0/8'))", false},
		{"cidr('10.1.2.3/8').masked() == cidr('10.0.0.0/8')", true},
		{"cidr('10.1.2.3/8').ip() == ip('10.1.2.3')", true},
		{"cidr('10.0.0.0/8').prefixLength()", int64(8)},
		{"isCIDR('10.0.0.0/33')", false},
		{"string(cidr('::/0'))", "::/0"},
		{"type(ip('10.0.0.1')) == net.IP", true},
		{"type(cidr('10.0.0.0/8')) == net.CIDR", true},
		{"ip('10.0.0.1') == ip('10.0.0.1')", true},
		{"cidr('10.0.0.0/8') == cidr('10.0.0.0/16')", false},
		// format
		{"format.dns1123Label().validate('my-name').hasValue()", false},
		{"format.dns1123Label().validate('My_Name').value().size() > 0", true},
		{"format.named('dns1123Subdomain').hasValue()", true},
		{"format.named('nope').hasValue()", false},
		{"format.dns1123LabelPrefix().validate('abc-').hasValue()", false},
		{"format.dns1123Label().validate('abc-').hasValue()", true},
		{"format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()", false},
		{"format.byte().validate('!!').value()[0]", "invalid base64"},
		{"format.date().validate('2024-02-30').value()[0]", "invalid date"},
		{"format.datetime().validate('2024-02-03T04:05:06Z').hasValue()", false},
		{"format.labelValue().validate('a b').hasValue()", true},
		{"format.qualifiedName().validate('example.com/name').hasValue()", false},
		{"format.uri().validate('https://x').hasValue()", false},
		// cel-go extensions kube enables
		{"'Hello'.lowerAscii()", "hello"},
		{"sets.contains([1, 2, 3], [1, 2])", true},
		{"[1, 2].all(i, v, v > i)", true},
		{"optional.of(1).orValue(2)", int64(1)},
	}
	for _, tc := range cases {
		t.Run(tc.expr, func(t *testing.T) {
			got, err := eval(t, tc.expr)
			require.NoError(t, err)
			if b, ok := got.(types.Bool); ok {
				got = bool(b)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLibraryErrorsAreKubes(t *testing.T) {
	cases := []struct{ expr, err string }{
		{"quantity('1ki') == quantity('1')", "unable to parse quantity's suffix"},
		{"quantity('1Gb') == quantity('1')", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"quantity('x') == quantity('1')", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{"quantity('1.5').asInteger() == 1", "cannot convert value to integer"},
		{"ip('10.0.0.256').family() == 4", `IP Address "10.0.0.256" parse error during conversion from string: ParseAddr("10.0.0.256"): IPv4 field has value >255`},
		{"ip('::ffff:1.2.3.4').family() == 4", `IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed`},
		{"cidr('10.0.0.0').prefixLength() == 1", `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("10.0.0.0"): no '/'`},
		{"url('not a url').getHost() == ''", `URL parse error during conversion from string: parse "not a url": invalid URI for request`},
		{"[1].min() == 1 && ([] + [1]).min() == 1 && [0].filter(x, x > 0).min() == 1", "min called on empty list"},
		{"'a'.find(string(1)+'[') == ''", "Illegal regex: error parsing regexp: missing closing ]: `[`"},
	}
	for _, tc := range cases {
		t.Run(tc.expr, func(t *testing.T) {
			_, err := eval(t, tc.expr)
			require.Error(t, err)
			assert.Equal(t, tc.err, err.Error())
		})
	}
}

func TestNamesAreEscapedAsKubeEscapesThem(t *testing.T) {
	cases := []struct {
		name, escaped string
		ok            bool
	}{
		{"spec", "spec", true},
		{"namespace", "__namespace__", true},
		{"a-b", "a__dash__b", true},
		{"a.b/c", "a__dot__b__slash__c", true},
		{"a__b", "a__underscores__b", true},
		{"a_b", "a_b", true},
		{"1a", "", false},
		{"a b", "", false},
		{"", "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := escapeName(tc.name)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.escaped, got)
			if ok {
				back, ok := unescapeName(got)
				assert.True(t, ok)
				assert.Equal(t, tc.name, back)
			}
		})
	}
}

func TestListsAndMapsConvertToTheirOwnTypeOnly(t *testing.T) {
	cases := []struct {
		name string
		v    ref.Val
		own  ref.Type
	}{
		{"a list", &listValue{elements: []any{"a"}, items: &schema.Schema{Type: "string"}}, types.ListType},
		{"a map", &mapValue{value: map[string]any{"a": "b"}, schema: &schema.Schema{Type: "object"}}, types.MapType},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Same(t, tc.v, tc.v.ConvertToType(tc.own), "to its own type")
			assert.Equal(t, tc.own, tc.v.ConvertToType(types.TypeType), "to its type's value")
			assert.True(t, types.IsError(tc.v.ConvertToType(types.StringType)), "to anything else")
		})
	}
}
