package kapitest

import (
	"sync"
	"time"
)

// Clock is the time a test server stamps on what it writes
// (creationTimestamp, deletionTimestamp, managedFields times) and checks
// tokens against (a ServiceAccount token's expiry). It reads the real time
// plus an offset the test moves: Advance jumps ahead without sleeping, so a
// token expires or a timestamp ages at once. Freeze stops it, so that every
// stamp is predictable. It is safe for concurrent use.
//
// The clock does not drive the server's timers (watch bookmarks, request
// timeouts), nor the store's history window, nor anything on the client's
// side (a controller's requeue delays): those keep real time.
type Clock struct {
	mu     sync.Mutex
	offset time.Duration
	frozen bool
	at     time.Time // the reading while frozen
}

// NewClock returns a clock that reads the real time.
func NewClock() *Clock { return &Clock{} }

// Now returns the clock's reading.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen {
		return c.at
	}
	return time.Now().Add(c.offset)
}

// Advance moves the clock d ahead (or back, if negative).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
	c.at = c.at.Add(d)
}

// Set makes the clock read t now; it keeps running from there unless it
// is frozen.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset = time.Until(t)
	c.at = t
}

// Freeze stops the clock at its current reading; Advance and Set still
// move it.
func (c *Clock) Freeze() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.frozen {
		c.at, c.frozen = time.Now().Add(c.offset), true
	}
}

// Unfreeze lets a frozen clock run again from its reading.
func (c *Clock) Unfreeze() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frozen {
		c.offset, c.frozen = time.Until(c.at), false
	}
}
