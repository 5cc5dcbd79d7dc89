package builtin

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCanonicalQuantities: what the server stores for a quantity field's
// value, a JSON number or text with spaces around it (package quantity
// holds the canonical text itself to kube's).
func TestCanonicalQuantities(t *testing.T) {
	got, ok := canonicalQuantity(" 2048Ki ")
	assert.True(t, ok)
	assert.Equal(t, "2Mi", got)
	for _, in := range []string{"", "abc", "1kk", "1" + strings.Repeat("0", maxQuantityText)} {
		_, ok := canonicalQuantity(in)
		assert.False(t, ok, in)
	}
	assert.Equal(t, "500m", canonicalQuantityValue(0.5))
	assert.Equal(t, "2", canonicalQuantityValue(int64(2)))
	assert.Equal(t, "abc", canonicalQuantityValue("abc"), "kept as it is")
}
