package apiserver

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestContentLengthIsTheBodysLengthWhetherItsValueIsSharedOrNot(t *testing.T) {
	ts := newTestServer(t)
	for _, size := range []int{1, 5000, 20000} { // under and over the shared values' range
		name := fmt.Sprintf("cm-%d", size)
		ts.do("POST", "/api/v1/namespaces/default/configmaps",
			fmt.Sprintf(`{"metadata":{"name":%q},"data":{"k":%q}}`, name, strings.Repeat("x", size)))
		for range 2 { // the second answer of a size reuses the first's value
			r := ts.do("GET", "/api/v1/namespaces/default/configmaps/"+name, "")
			require.Equal(t, 200, r.code, string(r.raw))
			assert.Equal(t, strconv.Itoa(len(r.raw)), r.header.Get("Content-Length"), name)
		}
	}
}

func TestContentLengthValueIsTheDecimalSize(t *testing.T) {
	for _, n := range []int{0, 9, 10, 99, 100, 8191, len(contentLengthValues), 1 << 20} {
		assert.Equal(t, []string{strconv.Itoa(n)}, contentLengthValue(n), "n=%d", n)
		assert.Equal(t, []string{strconv.Itoa(n)}, contentLengthValue(n), "n=%d, asked again", n)
	}
}
