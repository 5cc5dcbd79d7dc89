package memory

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store"
)

// TestRingFindsEveryRevisionAcrossWrapsAndResizes grows the ring past
// several doublings, shrinks it by evicting, wraps it around, and checks
// after every step that each kept revision is where at() looks.
func TestRingFindsEveryRevisionAcrossWrapsAndResizes(t *testing.T) {
	var r ring
	next := int64(1)
	push := func(n int) {
		for range n {
			r.push(entry{ev: store.Event{Revision: next}}, next)
			next++
		}
	}
	pop := func(n int) {
		for range n {
			r.popOldest()
		}
	}
	check := func() {
		t.Helper()
		require.Equal(t, next-1, r.newest())
		require.Equal(t, r.n, int(r.newest()-r.oldest()+1))
		require.Zero(t, len(r.buf)&(len(r.buf)-1), "capacity %d is not a power of two", len(r.buf))
		for rev := r.oldest(); rev <= r.newest(); rev++ {
			require.Equal(t, rev, r.at(rev).ev.Revision)
		}
	}
	push(1)
	check()
	require.Equal(t, minRingCap, len(r.buf))
	push(1000)
	check()
	require.Equal(t, 1024, len(r.buf))
	pop(990) // shrinks by halving while at most a quarter full
	check()
	require.LessOrEqual(t, len(r.buf), max(minRingCap, 4*r.n), "the buffer shrank back")
	for range 20 { // wrap around many times at a steady size
		push(50)
		pop(50)
		check()
	}
	require.LessOrEqual(t, len(r.buf), max(minRingCap, 4*r.n), "wrapping does not grow the buffer")
	push(300)
	pop(305)
	check()
	require.Equal(t, 6, r.n)
}
