package quantity_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/quantity"
)

// TestStringIsKubesCanonicalText: negative quantities, capped binary ones
// and text kube refuses (examples/e2e holds the rest to k8s.io/apimachinery's
// resource.Quantity; these are what it answered for each).
func TestStringIsKubesCanonicalText(t *testing.T) {
	for in, want := range map[string]string{
		"-1.5Gi": "-1536Mi", "-0.5": "-500m", "-1000": "-1k", "-2048Ki": "-2Mi", "-1Ki": "-1Ki", "-1023Ki": "-1023Ki",
		"-0": "0", "-0.5Ki": "-512", "-1e3": "-1e3", "-100m": "-100m", "-1n": "-1n", "-0.0000000001": "-1n",
		"9300000000000000000Ki": "9223372036854775807", "99999999999Ei": "9223372036854775807",
		"1e4294967297": "10", // an exponent beyond an int32 wraps, as in kube
	} {
		q, err := quantity.Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, q.String(), in)
	}
	for _, in := range []string{"", "abc", "1Q", "1kk", "1e", "1.5.5", "--1", "1e3x", " 2Gi ", "Pi", "+Ei"} {
		_, err := quantity.Parse(in)
		assert.Error(t, err, in)
	}
}

// TestAQuantityPrintsAsKubesGoValue holds GoString to what %#v printed of
// k8s.io/apimachinery's resource.Quantity for the same text, as parsed and
// once its String() was called.
func TestAQuantityPrintsAsKubesGoValue(t *testing.T) {
	for _, c := range []struct{ in, parsed, shown string }{
		{"1500m", `resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}`,
			`resource.Quantity{i:resource.int64Amount{value:1500, scale:-3}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1500m", Format:"DecimalSI"}`},
		{"1000", `resource.Quantity{i:resource.int64Amount{value:1000, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"", Format:"DecimalSI"}`,
			`resource.Quantity{i:resource.int64Amount{value:1000, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"1k", Format:"DecimalSI"}`},
		{"-1Gi", `resource.Quantity{i:resource.int64Amount{value:-1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1Gi", Format:"BinarySI"}`,
			`resource.Quantity{i:resource.int64Amount{value:-1073741824, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"-1Gi", Format:"BinarySI"}`},
		{"0", `resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"0", Format:"DecimalSI"}`,
			`resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"0", Format:"DecimalSI"}`},
		{".0001Ki", `resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(0xc000010000)}, s:"", Format:"DecimalSI"}`,
			`resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(0xc000010000)}, s:"102400u", Format:"DecimalSI"}`},
	} {
		q, err := quantity.Parse(c.in)
		require.NoError(t, err, c.in)
		assert.Equal(t, c.parsed, q.GoString(), c.in)
		assert.Equal(t, c.shown, q.Canonical().GoString(), c.in)
	}
}

// TestQuantitiesCompareAndRoundAsKubes: exact comparison (a capped binary
// quantity compares as its cap), Value and Milli rounded up.
func TestQuantitiesCompareAndRoundAsKubes(t *testing.T) {
	parse := func(s string) quantity.Quantity {
		q, err := quantity.Parse(s)
		require.NoError(t, err, s)
		return q
	}
	assert.Equal(t, 1, parse("1Gi").Cmp(parse("1000Mi")))
	assert.Equal(t, 0, parse("1k").Cmp(parse("1000")))
	assert.Equal(t, 0, parse("99999999999Ei").Cmp(parse("9223372036854775807")))
	assert.Equal(t, -1, parse("1e200").Cmp(parse("1e201")))
	assert.Equal(t, int64(2), parse("1.5").Value())
	assert.Equal(t, int64(math.MaxInt64), parse("1e30").Value())
	assert.Equal(t, int64(1), parse("0.1m").Milli().Int64())
	assert.Equal(t, int64(1500), parse("1.5").Milli().Int64())
}

// FuzzString: any text is answered at once without a panic, and what
// String writes is a quantity it writes the same way again.
func FuzzString(f *testing.F) {
	for _, seed := range []string{"0", "0.5", "+1", "1024Mi", "1.5Gi", "1e-999999999", "1e2147483647", "99999999999Ei",
		"-0.0000000001", "1000E", "0.3Ki", "1kk", "--1", " 2Gi ", "12345678901234567890123456789012345678901234567890Ki"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		q, err := quantity.Parse(in)
		if err != nil {
			return
		}
		out := q.String()
		again, err := quantity.Parse(out)
		if err != nil || again.String() != out {
			t.Fatalf("%q → %q → %q (%v)", in, out, again.String(), err)
		}
	})
}

// FuzzParse: any string parses or fails cleanly, and a parsed quantity
// compares equal to itself and converts without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0", "1", "-1.5", "1Gi", "1.5Gi", "500m", "1e3", "1E-3", "+.5k", ".", "1ki", "1Gb",
		"99999999999999999999999", "1Ei", "9223372036854775807Ki", "0.0000000001", "1e9223372036854775807", "--1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := quantity.Parse(s)
		if err != nil {
			return
		}
		if q.Cmp(q) != 0 {
			t.Fatalf("%q is not equal to itself", s)
		}
		_ = q.AsApproximateFloat64()
		_, _ = q.AsInt64()
		_ = q.Add(q).Sub(quantity.Int64(math.MinInt64))
		_, _, _ = q.Sign(), q.Value(), q.Milli()
		_ = q.GoString()
	})
}
