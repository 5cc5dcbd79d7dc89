package builtin

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCanonicalQuantities: negative quantities, capped binary ones and
// text kube refuses (examples/e2e holds the rest to k8s.io/apimachinery's
// resource.Quantity; these are what it answered for each).
func TestCanonicalQuantities(t *testing.T) {
	for in, want := range map[string]string{
		"-1.5Gi": "-1536Mi", "-0.5": "-500m", "-1000": "-1k", "-2048Ki": "-2Mi", "-1Ki": "-1Ki", "-1023Ki": "-1023Ki",
		"-0": "0", "-0.5Ki": "-512", "-1e3": "-1e3", "-100m": "-100m", "-1n": "-1n", "-0.0000000001": "-1n",
		"9300000000000000000Ki": "9223372036854775807", "99999999999Ei": "9223372036854775807",
	} {
		got, ok := canonicalQuantity(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "abc", "1Q", "1kk", "1e", "1.5.5", "--1", "1e3x"} {
		_, ok := canonicalQuantity(in)
		assert.False(t, ok, in)
	}
	assert.Equal(t, "500m", canonicalQuantityValue(0.5))
	assert.Equal(t, "2", canonicalQuantityValue(int64(2)))
	assert.Equal(t, "abc", canonicalQuantityValue("abc"), "kept as it is")
}

// FuzzCanonicalQuantity: any text is answered at once without a panic,
// and what canonicalQuantity writes is a quantity it writes the same way
// again.
func FuzzCanonicalQuantity(f *testing.F) {
	for _, seed := range []string{"0", "0.5", "+1", "1024Mi", "1.5Gi", "1e-999999999", "1e2147483647", "99999999999Ei",
		"-0.0000000001", "1000E", "0.3Ki", "1kk", "--1", " 2Gi ", "12345678901234567890123456789012345678901234567890Ki"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, ok := canonicalQuantity(in)
		if !ok {
			return
		}
		again, ok := canonicalQuantity(out)
		if !ok || again != out {
			t.Fatalf("%q → %q → %q (%v)", in, out, again, ok)
		}
	})
}
