package memory

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/store"
)

// ctxCheckEvery is how many objects a List walks between two looks at its
// context, so that a long filtered scan stops soon after cancellation.
const ctxCheckEvery = 1024

// List reads one page under prefix from one snapshot (see
// store.ListOptions). It takes no lock unless it needs an older snapshot
// from the history. A page costs O(log n + Limit), or O(log n + scanned)
// with a Filter (through an index, O(log n) per object filed under the
// value); Total costs O(log n) for a prefix ending in "/" and
// O(objects under prefix) otherwise.
func (s *Store) List(ctx context.Context, prefix string, opts store.ListOptions) (store.ListResult, error) {
	if opts.Start != "" && !strings.HasPrefix(opts.Start, prefix) {
		return store.ListResult{}, fmt.Errorf("store/memory: start key %q is not under prefix %q", opts.Start, prefix)
	}
	if opts.Limit < 0 {
		return store.ListResult{}, fmt.Errorf("store/memory: negative limit %d", opts.Limit)
	}
	snap, err := s.listSnapshot(ctx, opts.Revision, opts.Match)
	if err != nil {
		return store.ListResult{}, err
	}
	res := store.ListResult{Revision: snap.rev, Total: snap.count(prefix)}
	res.Items, res.Next, err = snap.page(ctx, prefix, opts, res.Total)
	if err != nil {
		return store.ListResult{}, err
	}
	return res, nil
}

// listSnapshot chooses the snapshot a List reads, per the table on
// store.ListOptions.
func (s *Store) listSnapshot(ctx context.Context, rev int64, match store.RevisionMatch) (*snapshot, error) {
	switch {
	case rev < 0:
		return nil, fmt.Errorf("store/memory: negative revision %d", rev)
	case match != store.NotOlderThan && match != store.Exact:
		return nil, fmt.Errorf("store/memory: unknown revision match %d", match)
	case rev == 0:
		return s.current.Load(), nil
	}
	cur, err := s.waitFor(ctx, rev)
	if err != nil || match == store.NotOlderThan {
		return cur, err
	}
	return s.snapshotAt(rev)
}

// waitFor returns the current snapshot once its revision is at least rev,
// or a *store.FutureRevisionError when ctx is done or Config.FutureWait
// elapses first.
func (s *Store) waitFor(ctx context.Context, rev int64) (*snapshot, error) {
	if cur := s.current.Load(); cur.rev >= rev {
		return cur, nil
	}
	var timeout <-chan time.Time
	if s.cfg.FutureWait > 0 {
		t := time.NewTimer(s.cfg.FutureWait)
		defer t.Stop()
		timeout = t.C
	}
	for {
		// Read current and take notify under the same lock as commits
		// publish, so a commit between the two cannot be missed.
		s.histMu.RLock()
		cur := s.current.Load()
		var notify <-chan struct{}
		if cur.rev < rev {
			s.notifyTaken.Store(true)
			notify = s.notify
		}
		s.histMu.RUnlock()
		if notify == nil {
			return cur, nil
		}
		if timeout == nil {
			return nil, &store.FutureRevisionError{Requested: rev, Current: cur.rev}
		}
		select {
		case <-notify:
		case <-ctx.Done():
			return nil, &store.FutureRevisionError{Requested: rev, Current: s.Revision()}
		case <-timeout:
			return nil, &store.FutureRevisionError{Requested: rev, Current: s.Revision()}
		}
	}
}

// page returns the objects of one page and the key the next page starts
// at: the first candidate past Limit matches, or "" when the walk left the
// prefix first. It walks the snapshot lazily from max(prefix, Start).
func (snap *snapshot) page(ctx context.Context, prefix string, opts store.ListOptions, total int64) (items []*store.Object, next string, err error) {
	start := max(prefix, opts.Start)
	if opts.Index != "" {
		if idx := snap.index(opts.Index); idx != nil {
			return snap.indexedPage(ctx, idx, opts.IndexValue, start, prefix, opts)
		}
	}
	if opts.Filter == nil {
		items, next = snap.pageUnfiltered(start, prefix, opts.Limit, total)
		return items, next, nil
	}
	size := min(int(total), 64)
	if opts.Limit > 0 {
		size = min(size, opts.Limit)
	}
	items = make([]*store.Object, 0, size)
	scanned := 0
	snap.tree.AscendGreaterOrEqual(probe(start), func(o *store.Object) bool {
		if !strings.HasPrefix(o.Key(), prefix) {
			return false
		}
		if opts.Limit > 0 && len(items) == opts.Limit {
			next = o.Key()
			return false
		}
		if scanned++; scanned%ctxCheckEvery == 0 {
			if err = ctx.Err(); err != nil {
				return false
			}
		}
		if opts.Filter(o) {
			items = append(items, o)
		}
		return true
	})
	if err != nil {
		return nil, "", err
	}
	return items, next, nil
}

// pageUnfiltered is page without a Filter. A prefix is one contiguous key
// range and start lies in it, so instead of a prefix check per object (two
// dependent loads, the object and its key, that miss the CPU cache on a
// big store) it copies up to limit+1 candidates blindly, at most one more
// than total objects exist under the prefix, and finds where the range
// ends by binary search: the walk touches O(log limit) objects.
func (snap *snapshot) pageUnfiltered(start, prefix string, limit int, total int64) (items []*store.Object, next string) {
	want := int(total)
	if limit > 0 {
		want = min(want, limit)
	}
	items = make([]*store.Object, 0, want+1)
	snap.tree.AscendGreaterOrEqual(probe(start), func(o *store.Object) bool {
		items = append(items, o)
		return len(items) <= want
	})
	n := sort.Search(len(items), func(i int) bool { return !strings.HasPrefix(items[i].Key(), prefix) })
	if n > want {
		next = items[want].Key()
		n = want
	}
	return items[:n:n], next
}

// count returns the number of objects under prefix: the tree size for "",
// one lookup in the count tree for a prefix ending in "/", and a scan
// otherwise.
func (snap *snapshot) count(prefix string) int64 {
	switch {
	case prefix == "":
		return int64(snap.tree.Len())
	case strings.HasSuffix(prefix, "/"):
		c, _ := snap.counts.Get(prefixCount{prefix: prefix})
		return c.n
	}
	var n int64
	snap.tree.AscendGreaterOrEqual(probe(prefix), func(o *store.Object) bool {
		if !strings.HasPrefix(o.Key(), prefix) {
			return false
		}
		n++
		return true
	})
	return n
}
