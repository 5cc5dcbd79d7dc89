package memory

import (
	"time"

	"github.com/kapi-dev/kapi/store"
)

// entry is one revision of the history: the write that made it and the
// snapshot after it. The entry of revision 1 (the empty store) has no
// event.
type entry struct {
	ev   store.Event
	snap *snapshot
	at   time.Time // when the revision was committed, by Config.Now
}

// minRingCap is the smallest buffer a ring shrinks back to.
const minRingCap = 8

// ring holds the entries of the consecutive revisions base .. base+n-1 in
// a circular buffer whose length is a power of two: revision r lives in
// slot (head + r - base) & (len(buf) - 1), so finding a revision is O(1).
// It grows by doubling and shrinks by halving when a quarter full, so an
// append or eviction is amortised O(1).
//
//	revisions   7  8  9 10 11           base = 7, n = 5, head = 6
//	buf       [ 9 10 11  .  .  .  7  8 ]
type ring struct {
	buf  []entry
	head int
	n    int
	base int64
}

func (r *ring) oldest() int64 { return r.base }
func (r *ring) newest() int64 { return r.base + int64(r.n) - 1 }

// at returns the entry of rev, which must lie in [oldest, newest].
func (r *ring) at(rev int64) *entry {
	return &r.buf[(r.head+int(rev-r.base))&(len(r.buf)-1)]
}

// push appends the entry of rev, which must be newest+1 (or anything for
// the first entry).
func (r *ring) push(e entry, rev int64) {
	if r.n == 0 {
		r.base = rev
	}
	if r.n == len(r.buf) {
		r.resize(max(2*len(r.buf), minRingCap))
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = e
	r.n++
}

// popOldest drops the oldest entry.
func (r *ring) popOldest() {
	r.buf[r.head] = entry{} // release the snapshot and the objects
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	r.base++
	if len(r.buf) > minRingCap && r.n <= len(r.buf)/4 {
		r.resize(len(r.buf) / 2)
	}
}

func (r *ring) resize(size int) {
	buf := make([]entry, size)
	for i := 0; i < r.n; i++ {
		buf[i] = r.buf[(r.head+i)&(len(r.buf)-1)]
	}
	r.buf, r.head = buf, 0
}

// staleLocked reports whether the oldest entry should go: it is never the
// newest, and it is past MaxHistoryAge, or past both HistoryLimit and
// MinHistoryAge, or past MaxHistory. histMu must be held (shared is
// enough).
func (s *Store) staleLocked(now time.Time) bool {
	h := &s.hist
	if h.n <= 1 {
		return false
	}
	if h.n > s.cfg.MaxHistory {
		return true
	}
	age := now.Sub(h.at(h.base).at)
	if age > s.cfg.MaxHistoryAge {
		return true
	}
	return h.n > s.cfg.HistoryLimit && (s.cfg.MinHistoryAge < 0 || age > s.cfg.MinHistoryAge)
}

// evictLocked drops the oldest entries while they are stale. histMu must be
// held exclusively.
func (s *Store) evictLocked(now time.Time) {
	for s.staleLocked(now) {
		s.hist.popOldest()
	}
}

// rLockFresh takes histMu shared after evicting the entries that aged out
// since the last commit: the age bounds are applied on append and lazily
// here, on read, so no background goroutine is needed.
func (s *Store) rLockFresh() {
	now := s.cfg.Now()
	s.histMu.RLock()
	if !s.staleLocked(now) {
		return
	}
	s.histMu.RUnlock()
	s.histMu.Lock()
	s.evictLocked(now)
	s.histMu.Unlock()
	s.histMu.RLock()
}

// Oldest returns the oldest revision still readable: a List can read any
// snapshot from Oldest to Revision, and a Watch can start from Oldest-1.
func (s *Store) Oldest() int64 {
	s.rLockFresh()
	defer s.histMu.RUnlock()
	return s.hist.oldest()
}

// Compact drops the history before rev, as if it had aged out: later Lists
// at those revisions and watchers behind them get *store.ExpiredError. The
// current revision is always kept. It is meant for fault-injection tests.
func (s *Store) Compact(rev int64) {
	s.histMu.Lock()
	defer s.histMu.Unlock()
	for s.hist.n > 1 && s.hist.oldest() < rev {
		s.hist.popOldest()
	}
}

// snapshotAt returns the snapshot at rev, which must not be newer than the
// current revision, or an *store.ExpiredError.
func (s *Store) snapshotAt(rev int64) (*snapshot, error) {
	if cur := s.current.Load(); cur.rev == rev {
		return cur, nil
	}
	s.rLockFresh()
	defer s.histMu.RUnlock()
	if rev < s.hist.oldest() {
		return nil, &store.ExpiredError{Requested: rev, Oldest: s.hist.oldest()}
	}
	if snap := s.hist.at(rev).snap; snap != nil {
		return snap, nil
	}
	return s.rebuildLocked(rev), nil // inside a bulk delete
}
