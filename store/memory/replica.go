package memory

import (
	"fmt"

	"github.com/google/btree"

	"github.com/kapi-dev/kapi/store"
)

// A replica is a Store that mirrors the history of another store instead
// of making its own writes: store/etcd keeps one per process as its watch
// cache, fed by an etcd watch. Its revisions are the other store's, so they
// may skip numbers (writes there that the replica does not hold, such as
// keys outside the prefix it watches); a skipped revision is recorded as
// an empty one, with the objects of the revision before it, so Lists at
// it, watchers' cursors and waits for it work as for any other. A replica
// is written only through NewReplica, Apply and Advance: Create, Update
// and Delete would make revisions of its own.

// NewReplica returns a store at revision rev holding objs, the state of
// the mirrored store at rev: their keys distinct, their revisions not
// above rev, their metadata.resourceVersion stamped. Its history starts at
// rev.
func NewReplica(cfg Config, rev int64, objs []*store.Object) (*Store, error) {
	if rev < 1 {
		return nil, fmt.Errorf("store/memory: replica revision %d is below 1", rev)
	}
	cfg = cfg.withDefaults()
	s := &Store{
		cfg:    cfg,
		notify: make(chan struct{}),
	}
	s.live = btree.NewG(degree, objectLess)
	s.liveCounts = btree.NewG(degree, countLess)
	for _, o := range objs {
		if o.Revision() > rev {
			return nil, fmt.Errorf("store/memory: replica object %s at revision %d is newer than %d", o.Key(), o.Revision(), rev)
		}
		if _, dup := s.live.ReplaceOrInsert(o); dup {
			return nil, fmt.Errorf("store/memory: replica object %s given twice", o.Key())
		}
		s.countLocked(o.Key(), +1)
	}
	snap := &snapshot{rev: rev, tree: s.live.Clone(), counts: s.liveCounts.Clone()}
	s.hist.push(entry{snap: snap, at: cfg.Now()}, rev)
	s.current.Store(snap)
	return s, nil
}

// Apply publishes a write made at revision rev in the mirrored store: obj
// (its key key, its revision rev, its metadata.resourceVersion stamped)
// becomes the version of key, or, when obj is nil, key is deleted and the
// event carries its last state stamped with rev. rev must be above
// Revision(); the revisions skipped are recorded as empty (see Advance).
// Deleting an absent key records rev as empty. It returns the event
// published (no Object when nothing was).
func (s *Store) Apply(key string, rev int64, obj *store.Object) (store.Event, error) {
	if obj != nil && (obj.Key() != key || obj.Revision() != rev) {
		return store.Event{}, fmt.Errorf("store/memory: object %s at %d applied as %s at %d", obj.Key(), obj.Revision(), key, rev)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur := s.current.Load().rev; rev <= cur {
		return store.Event{}, fmt.Errorf("store/memory: revision %d applied at revision %d", rev, cur)
	}
	s.advanceLocked(rev - 1)
	prev, _ := s.live.Get(probe(key))
	switch {
	case obj == nil && prev == nil:
		s.advanceLocked(rev)
		return store.Event{Revision: rev}, nil
	case obj == nil:
		obj = store.NewDeleted(prev, rev)
		s.publishLocked(store.Deleted, obj, prev)
		return store.Event{Type: store.Deleted, Object: obj, Prev: prev, Revision: rev}, nil
	case prev == nil:
		s.publishLocked(store.Added, obj, nil)
		return store.Event{Type: store.Added, Object: obj, Revision: rev}, nil
	default:
		s.publishLocked(store.Modified, obj, prev)
		return store.Event{Type: store.Modified, Object: obj, Prev: prev, Revision: rev}, nil
	}
}

// Advance records that the mirrored store reached rev through writes the
// replica does not hold (an etcd progress notification): every revision up
// to rev becomes an empty one, and whoever waits for rev is woken. A rev
// not above Revision() does nothing. When the gap is longer than the
// history can hold, the history restarts with its newest part, and
// watchers behind it expire.
func (s *Store) Advance(rev int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.advanceLocked(rev)
}

func (s *Store) advanceLocked(rev int64) {
	last := s.current.Load()
	if rev <= last.rev {
		return
	}
	now := s.cfg.Now()
	s.histMu.Lock()
	defer s.histMu.Unlock()
	from := last.rev + 1
	if rev-from >= int64(s.cfg.MaxHistory) {
		for s.hist.n > 0 {
			s.hist.popOldest()
		}
		from = rev - int64(s.cfg.MaxHistory) + 1
	}
	var snap *snapshot
	for r := from; r <= rev; r++ {
		snap = &snapshot{rev: r, tree: last.tree, counts: last.counts, indexes: last.indexes}
		s.hist.push(entry{ev: store.Event{Revision: r}, snap: snap, at: now}, r)
	}
	s.evictLocked(now)
	s.current.Store(snap)
	if s.notifyTaken.Swap(false) {
		close(s.notify)
		s.notify = make(chan struct{})
	}
}
