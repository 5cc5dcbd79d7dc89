package flowcontrol

import (
	"sync"
	"time"
)

// maxRetryAfter bounds the Retry-After of a 429, in seconds.
const maxRetryAfter = 32

// droppedRequests computes the Retry-After a priority level's 429s carry,
// as kube does: it starts at 1 s, doubles (up to 32 s) when the level has
// rejected at least 3 × Retry-After requests within the last Retry-After
// seconds, no sooner than Retry-After seconds after it last grew, and
// shrinks by one second each time it counts a new second in which fewer
// than Retry-After requests were rejected recently.
type droppedRequests struct {
	now    func() time.Time
	mu     sync.Mutex
	levels map[string]*droppedStats
}

type droppedStats struct {
	history      []droppedSecond // completed seconds, oldest first
	current      int64           // unix second being counted
	currentCount int64
	retryAfter   int64
	lastGrowth   int64
}

type droppedSecond struct {
	unix, count int64
}

// record notes a rejection in level.
func (d *droppedRequests) record(level string) {
	now := d.now().Unix()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.levels == nil {
		d.levels = map[string]*droppedStats{}
	}
	s := d.levels[level]
	if s == nil {
		s = &droppedStats{retryAfter: 1}
		d.levels[level] = s
	}
	if s.current == now {
		s.currentCount++
		return
	}
	s.push(s.current, s.currentCount)
	s.current, s.currentCount = now, 1
	s.update(now)
}

func (s *droppedStats) push(unix, count int64) {
	s.history = append(s.history, droppedSecond{unix, count})
	keep := min(2*s.retryAfter, maxRetryAfter)
	i := 0
	for i < len(s.history) && unix-s.history[i].unix > keep {
		i++
	}
	s.history = s.history[i:]
}

func (s *droppedStats) update(now int64) {
	var dropped int64
	for i := len(s.history) - 1; i >= 0; i-- {
		h := s.history[i]
		if now-h.unix > s.retryAfter {
			break
		}
		if h.unix < now {
			dropped += h.count
		}
	}
	if now-s.lastGrowth >= s.retryAfter && dropped >= 3*s.retryAfter {
		s.retryAfter = min(2*s.retryAfter, maxRetryAfter)
		s.lastGrowth = now
		return
	}
	if dropped < s.retryAfter && s.retryAfter > 1 {
		s.retryAfter--
	}
}

// retryAfter is the Retry-After, in seconds, for a 429 of level.
func (d *droppedRequests) retryAfter(level string) int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s := d.levels[level]; s != nil {
		return s.retryAfter
	}
	return 1
}
