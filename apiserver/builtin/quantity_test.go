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
