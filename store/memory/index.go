package memory

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/btree"

	"github.com/kapi-dev/kapi/store"
)

// An index is one more copy-on-write tree beside the objects: entries
// (value, key) in that order, so the keys filed under one value are one
// contiguous range, in key order as pages need them. A commit changes it
// only when the value of the key it writes changes, and snapshots share
// it until then, as they share the count tree. Entries hold keys, not
// versions: a page looks each one up in its own snapshot's object tree.

// index is a live index, written only under the writer mutex.
type index struct {
	name string
	fn   store.IndexFunc
	live *btree.BTreeG[indexEntry]
}

type indexEntry struct{ value, key string }

func indexLess(a, b indexEntry) bool {
	if a.value != b.value {
		return a.value < b.value
	}
	return a.key < b.key
}

// indexSnap is an index as one snapshot sees it.
type indexSnap struct {
	name string
	// fn files a version, for a snapshot rebuilt (rebuildLocked).
	fn   store.IndexFunc
	tree *btree.BTreeG[indexEntry]
}

// file moves key from the value prev was filed under to the one next is
// (either nil: absent) and reports whether the index changed.
func (ix *index) file(key string, prev, next *store.Object) bool {
	var pv, nv string
	var pok, nok bool
	if prev != nil {
		pv, pok = ix.fn(prev)
	}
	if next != nil {
		nv, nok = ix.fn(next)
	}
	if pok == nok && pv == nv {
		return false
	}
	if pok {
		ix.live.Delete(indexEntry{pv, key})
	}
	if nok {
		ix.live.ReplaceOrInsert(indexEntry{nv, key})
	}
	return true
}

// AddIndex implements store.Indexer: it files every current object at
// once (O(n) under the writer lock) and publishes the current revision
// again with the index, so Lists use it from now on; older snapshots go on
// without it.
func (s *Store) AddIndex(name string, fn store.IndexFunc) error {
	if name == "" || fn == nil {
		return fmt.Errorf("store/memory: an index needs a name and a function")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ix := range s.indexes {
		if ix.name == name {
			return fmt.Errorf("store/memory: index %q exists", name)
		}
	}
	ix := &index{name: name, fn: fn, live: btree.NewG(degree, indexLess)}
	s.live.Ascend(func(o *store.Object) bool {
		ix.file(o.Key(), nil, o)
		return true
	})
	s.indexes = append(s.indexes, ix)

	s.histMu.Lock()
	defer s.histMu.Unlock()
	cur := *s.current.Load()
	cur.indexes = append(cur.indexes[:len(cur.indexes):len(cur.indexes)], indexSnap{name, fn, ix.live.Clone()})
	s.hist.at(cur.rev).snap = &cur
	s.current.Store(&cur)
	return nil
}

// indexesLocked files one write in every index and returns the indexes of
// its snapshot: last's own when no index changed (most writes: a pod's
// node rarely changes), otherwise a copy with fresh clones of the trees
// that did.
func (s *Store) indexesLocked(last *snapshot, key string, prev, next *store.Object) []indexSnap {
	out, copied := last.indexes, false
	for i, ix := range s.indexes {
		if !ix.file(key, prev, next) && i < len(last.indexes) {
			continue
		}
		if !copied {
			out, copied = append(make([]indexSnap, 0, len(s.indexes)), last.indexes...), true
		}
		snap := indexSnap{ix.name, ix.fn, ix.live.Clone()}
		if i < len(out) {
			out[i] = snap
		} else {
			out = append(out, snap)
		}
	}
	return out
}

// index returns the snapshot's tree of the named index, or nil.
func (snap *snapshot) index(name string) *btree.BTreeG[indexEntry] {
	for _, ix := range snap.indexes {
		if ix.name == name {
			return ix.tree
		}
	}
	return nil
}

// indexedPage is page through an index: it walks the keys filed under
// value from max(prefix, start), looking each up in the snapshot.
func (snap *snapshot) indexedPage(ctx context.Context, idx *btree.BTreeG[indexEntry], value, start, prefix string, opts store.ListOptions) (items []*store.Object, next string, err error) {
	scanned := 0
	idx.AscendGreaterOrEqual(indexEntry{value, start}, func(e indexEntry) bool {
		if e.value != value || !strings.HasPrefix(e.key, prefix) {
			return false
		}
		if opts.Limit > 0 && len(items) == opts.Limit {
			next = e.key
			return false
		}
		if scanned++; scanned%ctxCheckEvery == 0 {
			if err = ctx.Err(); err != nil {
				return false
			}
		}
		o := snap.get(e.key)
		if o != nil && (opts.Filter == nil || opts.Filter(o)) {
			items = append(items, o)
		}
		return true
	})
	if err != nil {
		return nil, "", err
	}
	return items, next, nil
}
