package flowcontrol

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// allocItem is one priority level in the periodic division of the
// server's seats: it should get target seats, and must get between lower
// and upper.
type allocItem struct {
	target, lower, upper float64
}

// minTarget stands in for a target of zero, which would make every
// allocation proportion infinite.
const minTarget = 0.001

const allocEpsilon = 0.0000001

// allocate divides total seats among items in proportion to their targets,
// within their bounds: it returns the allocations, which sum to total, and
// the fair proportion p such that each allocation is p × target clamped to
// the item's bounds (the same unique answer as kube's computation, found
// here by walking the sorted breakpoints of that piecewise-linear sum). It
// fails when the bounds cannot add up to total.
func allocate(total int, items []allocItem) ([]float64, float64, error) {
	if total < 0 {
		return nil, 0, errors.New("negative sums are not supported")
	}
	want := float64(total)
	var lowSum, highSum float64
	targets := make([]float64, len(items))
	minLow, maxLow := math.Inf(1), math.Inf(-1)
	minHigh, maxHigh := math.Inf(1), math.Inf(-1)
	var breaks []float64
	for i, it := range items {
		switch {
		case it.lower < 0:
			return nil, 0, fmt.Errorf("lower bound %d is %v but negative lower bounds are not allowed", i, it.lower)
		case it.target < it.lower:
			return nil, 0, fmt.Errorf("target %d is %v, which is below its lower bound of %v", i, it.target, it.lower)
		case it.upper < it.lower:
			return nil, 0, fmt.Errorf("upper bound %d is %v but should not be less than the lower bound %v", i, it.upper, it.lower)
		}
		t := math.Max(it.target, minTarget)
		targets[i] = t
		lowSum += it.lower
		highSum += it.upper
		lo, hi := it.lower/t, it.upper/t
		minLow, maxLow = math.Min(minLow, lo), math.Max(maxLow, lo)
		minHigh, maxHigh = math.Min(minHigh, hi), math.Max(maxHigh, hi)
		breaks = append(breaks, lo, hi)
	}
	switch {
	case lowSum-want > allocEpsilon:
		return nil, 0, fmt.Errorf("lower bounds sum to %v, which is higher than the required sum of %v", lowSum, total)
	case want-highSum > allocEpsilon:
		return nil, 0, fmt.Errorf("upper bounds sum to %v, which is lower than the required sum of %v", highSum, total)
	}
	out := make([]float64, len(items))
	if total == 0 {
		return out, 0, nil
	}
	if lowSum-want > -allocEpsilon { // no room: everyone at the lower bound
		for i, it := range items {
			out[i] = it.lower
		}
		return out, minLow, nil
	}
	if want-highSum > -allocEpsilon { // no room: everyone at the upper bound
		for i, it := range items {
			out[i] = it.upper
		}
		return out, maxHigh, nil
	}
	sum := func(p float64) float64 {
		s := 0.0
		for i, it := range items {
			s += math.Max(it.lower, math.Min(it.upper, p*targets[i]))
		}
		return s
	}
	slices.Sort(breaks)
	// The sum is nondecreasing in p: find the breakpoints around want and
	// interpolate, the sum being linear between two breakpoints.
	prev := breaks[0]
	prevSum := sum(prev)
	fair := prev
	for _, b := range breaks[1:] {
		s := sum(b)
		if s >= want {
			if s > prevSum {
				fair = prev + (b-prev)*(want-prevSum)/(s-prevSum)
			} else {
				fair = b
			}
			break
		}
		prev, prevSum, fair = b, s, b
	}
	for i, it := range items {
		out[i] = math.Max(it.lower, math.Min(it.upper, fair*targets[i]))
	}
	return out, fair, nil
}
