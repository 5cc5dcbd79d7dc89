package fairqueue

import (
	"fmt"
	"math"
)

// MaxHashBits bounds how many bits of a flow's hash shuffle sharding may
// consume: beyond 60, the last card dealt is noticeably uneven.
const MaxHashBits = 60

// RequiredEntropyBits is how many hash bits dealing handSize cards out of
// deckSize consumes (a slightly conservative estimate), as validation of a
// priority level's queuing configuration checks it.
func RequiredEntropyBits(deckSize, handSize int) int {
	return int(math.Ceil(math.Log2(float64(deckSize)) * float64(handSize)))
}

// Dealer deals hands of distinct queue indexes from a flow's hash: the
// same hash always gets the same hand.
type Dealer struct {
	deckSize, handSize int
}

// maxDeckSize bounds the number of queues one level may have.
const maxDeckSize = 1 << 26

// NewDealer returns a dealer of handSize cards out of deckSize, or an
// error when the pair cannot be dealt from a 64-bit hash.
func NewDealer(deckSize, handSize int) (*Dealer, error) {
	switch {
	case deckSize <= 0 || handSize <= 0:
		return nil, fmt.Errorf("deckSize %d or handSize %d is not positive", deckSize, handSize)
	case handSize > deckSize:
		return nil, fmt.Errorf("handSize %d is greater than deckSize %d", handSize, deckSize)
	case deckSize > maxDeckSize:
		return nil, fmt.Errorf("deckSize %d is impractically large", deckSize)
	case RequiredEntropyBits(deckSize, handSize) > MaxHashBits:
		return nil, fmt.Errorf("required entropy bits of deckSize %d and handSize %d is greater than %d", deckSize, handSize, MaxHashBits)
	}
	return &Dealer{deckSize: deckSize, handSize: handSize}, nil
}

// maxHandSize is the largest hand NewDealer accepts: 60 bits of entropy
// allow at most 15 cards (out of 16).
const maxHandSize = 15

// Deal appends the hand for hash to hand and returns it. The i-th card is
// drawn among the deckSize-i cards left, by the i-th digit of hash in a
// mixed radix; a draw r names the r-th card not dealt yet, found by moving
// it past each earlier draw it is not below (taken latest first).
func (d *Dealer) Deal(hash uint64, hand []int) []int {
	var draws [maxHandSize]int
	for i := 0; i < d.handSize; i++ {
		left := uint64(d.deckSize - i)
		draws[i] = int(hash % left)
		hash /= left
	}
	for i := 0; i < d.handSize; i++ {
		card := draws[i]
		for j := i; j > 0; j-- {
			if card >= draws[j-1] {
				card++
			}
		}
		hand = append(hand, card)
	}
	return hand
}

// HandSize is the number of cards in a hand.
func (d *Dealer) HandSize() int { return d.handSize }
