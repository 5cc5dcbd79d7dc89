package apiserver

import (
	"fmt"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnInconsistentContinueCountsWhatIsLeft holds the page a client lists
// with the token of a 410 (an expired continue: kube's "inconsistent
// continue", read at the newest revision) to kube's: it has a
// remainingItemCount, the objects after it now, and so do the pages after
// it.
func TestAnInconsistentContinueCountsWhatIsLeft(t *testing.T) {
	ts := newTestServer(t)
	for i := range 6 {
		r := ts.do("POST", cmPath, fmt.Sprintf(`{"metadata":{"name":"cm%d"}}`, i))
		require.Equal(t, 201, r.code, string(r.raw))
	}
	first := ts.do("GET", cmPath+"?limit=2", "")
	require.Equal(t, 200, first.code)
	tok, err := decodeContinueToken(field(first.body, "metadata.continue").(string))
	require.NoError(t, err)
	// Objects before the token's key go and come: its offset no longer
	// counts what came before.
	require.Equal(t, 200, ts.do("DELETE", cmPath+"/cm0", "").code)
	require.Equal(t, 200, ts.do("DELETE", cmPath+"/cm1", "").code)
	require.Equal(t, 201, ts.do("POST", cmPath, `{"metadata":{"name":"cm9"}}`).code)
	expired := continueToken{Revision: -1, Start: tok.Start, Offset: tok.Offset}.encode()

	page := ts.do("GET", cmPath+"?limit=2&continue="+url.QueryEscape(expired), "")
	require.Equal(t, 200, page.code, string(page.raw))
	assert.Len(t, page.body["items"], 2) // cm2, cm3
	assert.EqualValues(t, 3, field(page.body, "metadata.remainingItemCount"), "cm4, cm5, cm9")
	next := ts.do("GET", cmPath+"?limit=2&continue="+url.QueryEscape(field(page.body, "metadata.continue").(string)), "")
	require.Equal(t, 200, next.code, string(next.raw))
	assert.EqualValues(t, 1, field(next.body, "metadata.remainingItemCount"), "cm9")
}
