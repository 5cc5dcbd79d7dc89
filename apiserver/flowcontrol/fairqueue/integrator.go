package fairqueue

import (
	"math"
	"time"
)

// DemandStats summarises a value observed over a period: its time-weighted
// average and standard deviation, and its extremes. Average and Deviation
// are NaN for a period of zero length.
type DemandStats struct {
	Duration           time.Duration
	Average, Deviation float64
	Min, Max           float64
}

// integrator accumulates the time integral of a piecewise-constant value
// (a QueueSet's seat demand) and of its square; its owner serialises
// calls.
type integrator struct {
	last              time.Time
	x                 float64
	elapsed           float64 // seconds
	integral, squares float64
	min, max          float64
}

func (g *integrator) init(now time.Time) { g.last = now }

// set records that the value becomes x at now.
func (g *integrator) set(now time.Time, x float64) {
	g.advance(now)
	g.x = x
	g.min = math.Min(g.min, x)
	g.max = math.Max(g.max, x)
}

func (g *integrator) advance(now time.Time) {
	dt := now.Sub(g.last).Seconds()
	if dt < 0 {
		dt = 0
	}
	g.last = now
	g.elapsed += dt
	g.integral += g.x * dt
	g.squares += g.x * g.x * dt
}

// reset returns the statistics since the last reset and starts a new
// period at the current value.
func (g *integrator) reset(now time.Time) DemandStats {
	g.advance(now)
	st := DemandStats{Duration: time.Duration(g.elapsed * float64(time.Second)), Min: g.min, Max: g.max,
		Average: math.NaN(), Deviation: math.NaN()}
	if g.elapsed > 0 {
		st.Average = g.integral / g.elapsed
		if v := g.squares/g.elapsed - st.Average*st.Average; v >= 0 {
			st.Deviation = math.Sqrt(v)
		}
	}
	g.elapsed, g.integral, g.squares = 0, 0, 0
	g.min, g.max = g.x, g.x
	return st
}
