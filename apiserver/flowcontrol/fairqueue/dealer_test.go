package fairqueue

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDealerDealsTheCardsTheHashSpells(t *testing.T) {
	d, err := NewDealer(3, 3)
	require.NoError(t, err)
	for _, tc := range []struct {
		hash uint64
		want []int
	}{
		{0, []int{0, 1, 2}},     // draws 0,0,0
		{5, []int{2, 1, 0}},     // draws 2,1,0
		{4, []int{1, 2, 0}},     // draws 1,1,0
		{1, []int{1, 0, 2}},     // draws 1,0,0
		{3 * 2, []int{0, 1, 2}}, // the hash wraps around 3*2 hands
	} {
		assert.Equal(t, tc.want, d.Deal(tc.hash, nil), "hash %d", tc.hash)
	}
}

func TestEveryHandHoldsDistinctCardsOfTheDeck(t *testing.T) {
	d, err := NewDealer(128, 6)
	require.NoError(t, err)
	counts := make([]int, 128)
	for h := uint64(0); h < 20000; h++ {
		hand := d.Deal(h*0x9E3779B97F4A7C15, nil)
		require.Len(t, hand, 6)
		seen := map[int]bool{}
		for _, c := range hand {
			require.True(t, c >= 0 && c < 128)
			require.False(t, seen[c], "hand %v repeats a card", hand)
			seen[c] = true
			counts[c]++
		}
	}
	for c, n := range counts {
		assert.InDelta(t, 20000*6/128, n, 20000*6/128/4, "card %d is dealt %d times", c, n)
	}
}

func TestNewDealerRefusesWhatCannotBeDealt(t *testing.T) {
	for _, tc := range []struct {
		deck, hand int
		err        string
	}{
		{0, 1, "deckSize 0 or handSize 1 is not positive"},
		{4, 5, "handSize 5 is greater than deckSize 4"},
		{1<<26 + 1, 1, "deckSize 67108865 is impractically large"},
		{128, 10, "required entropy bits of deckSize 128 and handSize 10 is greater than 60"},
	} {
		_, err := NewDealer(tc.deck, tc.hand)
		assert.EqualError(t, err, tc.err)
	}
	assert.Equal(t, 42, RequiredEntropyBits(128, 6))
	_, err := NewDealer(16, 15)
	assert.NoError(t, err, "15 of 16 is the widest hand")
}
