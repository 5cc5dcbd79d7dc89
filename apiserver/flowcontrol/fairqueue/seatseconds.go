package fairqueue

import (
	"fmt"
	"math"
	"time"
)

// SeatSeconds is an amount of work (seats × seconds) in fixed point, so
// that virtual times add up without rounding drift: SeatSeconds(n) is
// n/1e8 seat-seconds.
type SeatSeconds uint64

const ssScale = 1e8

// MaxSeatSeconds is the largest representable amount of work.
const MaxSeatSeconds = SeatSeconds(math.MaxUint64)

// SeatsTimesDuration is the work of seats held for d.
func SeatsTimesDuration(seats float64, d time.Duration) SeatSeconds {
	return SeatSeconds(int64(math.Round(seats * float64(d) / (1e9 / ssScale))))
}

// Float is the work in seat-seconds.
func (ss SeatSeconds) Float() float64 { return float64(ss) / ssScale }

// DurationPerSeat is how long seats would take to do this work.
func (ss SeatSeconds) DurationPerSeat(seats float64) time.Duration {
	return time.Duration(float64(ss) / seats * (float64(time.Second) / ssScale))
}

// String renders the work as kube's debug dumps do: "1.50000000ss".
func (ss SeatSeconds) String() string {
	const div = SeatSeconds(ssScale)
	q := ss / div
	return fmt.Sprintf("%d.%08dss", q, ss-q*div)
}
