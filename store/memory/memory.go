package memory

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/btree"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// degree is the B-tree degree of the object and count trees: a node holds
// degree-1 to 2*degree-1 items. A commit path-copies one root-to-leaf path
// (about log_degree(n) nodes of up to 2*degree-1 pointers) and the history
// keeps that copy alive, so a small degree makes writes cheaper; a page of
// a List visits limit/degree leaves, and google/btree's ascending walk
// binary-searches the start key again in every node it enters, so a large
// degree makes lists cheaper. BenchmarkDegree (degree_test.go: 100k
// objects; process CPU per op, median of 3, go1.26, 2 shared cores):
//
//	degree  commit (update+clone)    Get      List page of 500
//	8       11.4µs  2.5KB  29 allocs  2.2µs    71µs
//	16      11.8µs  3.0KB  23 allocs  2.3µs    40µs
//	32      13.9µs  3.8KB  23 allocs  1.9µs    24µs
//	64      14.2µs  5.1KB  20 allocs  1.9µs    19µs
//
// kube chose 16 for its watch cache, etcd 32 for its index. We take 32: an
// API server lists (client-go pages by 500) far more than it writes, and
// 32 buys a 40% cheaper page for about 15% more per commit and 0.8KB more
// history per write; 64 gains little more on lists and costs more on
// every write.
const degree = 32

// Defaults for the zero values of Config.
const (
	DefaultHistoryLimit  = 10_000
	DefaultMaxHistory    = 25_000
	DefaultMinHistoryAge = 75 * time.Second
	DefaultMaxHistoryAge = 5 * time.Minute
	DefaultFutureWait    = 3 * time.Second
)

// Config tunes a Store. Zero values mean the defaults.
type Config struct {
	// HistoryLimit is the number of revisions (events and snapshots) kept
	// when the oldest is older than MinHistoryAge. Default 10_000.
	HistoryLimit int
	// MaxHistory caps the revisions kept whatever their age, so a write
	// burst cannot grow the history without bound. Default 25_000: each
	// revision pins its snapshot's copied B-tree path (about 4.6 KB with
	// 100,000 objects, BenchmarkHistoryMemory), so about 115 MB at most;
	// raised to HistoryLimit when lower.
	MaxHistory int
	// MinHistoryAge keeps revisions younger than it even past
	// HistoryLimit (up to MaxHistory), so a burst of writes does not cut the
	// window watchers and paged lists rely on. Default 75s (kube's
	// eventFreshDuration); negative means no minimum.
	MinHistoryAge time.Duration
	// MaxHistoryAge drops revisions older than it, whatever their number.
	// The current revision is always kept. Default 5 minutes.
	MaxHistoryAge time.Duration
	// FutureWait is how long a List or Watch asking for a revision the
	// store has not reached waits for it before failing with
	// *store.FutureRevisionError. Default 3s (kube's blockTimeout);
	// negative means do not wait.
	FutureWait time.Duration
	// Now is the clock that dates history entries for the age bounds.
	// Default time.Now. It is called from several goroutines.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.HistoryLimit <= 0 {
		c.HistoryLimit = DefaultHistoryLimit
	}
	if c.MaxHistory <= 0 {
		c.MaxHistory = DefaultMaxHistory
	}
	if c.MaxHistory < c.HistoryLimit {
		c.MaxHistory = c.HistoryLimit
	}
	if c.MinHistoryAge == 0 {
		c.MinHistoryAge = DefaultMinHistoryAge
	}
	if c.MaxHistoryAge <= 0 {
		c.MaxHistoryAge = DefaultMaxHistoryAge
	}
	if c.FutureWait == 0 {
		c.FutureWait = DefaultFutureWait
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Store is the in-memory store.Store. See the package documentation for
// its invariants, concurrency and costs.
type Store struct {
	cfg Config

	// mu serialises commits. It guards live and liveCounts, which only the
	// writer holding mu reads or changes; nobody else ever sees them.
	mu         sync.Mutex
	live       *btree.BTreeG[*store.Object]
	liveCounts *btree.BTreeG[prefixCount]
	indexes    []*index

	// current is the newest published snapshot. Get, List and Revision
	// load it without any lock.
	current atomic.Pointer[snapshot]

	// histMu guards hist and notify. A commit holds it exclusively for an
	// O(1) append (plus evictions); readers hold it shared to copy entries.
	histMu sync.RWMutex
	hist   ring
	// notify is closed and replaced by the first commit after a reader took
	// it, waking everyone waiting for a newer revision.
	notify chan struct{}
	// notifyTaken says a reader holds notify, so the next commit must
	// close it; without readers commits skip the close and the allocation.
	notifyTaken atomic.Bool
}

// snapshot is the immutable state of the store at one revision. Its trees
// are clones nobody writes: never call Clone or a write method on them.
type snapshot struct {
	rev  int64
	tree *btree.BTreeG[*store.Object]
	// counts holds, for every prefix ending in "/" of some key, the number
	// of keys under it (see prefixCount).
	counts *btree.BTreeG[prefixCount]
	// indexes are the store's indexes (index.go) as of this revision.
	indexes []indexSnap
}

// prefixCount is the number of keys under a "/"-terminated prefix. Items
// are values, so a snapshot never sees a later count change.
type prefixCount struct {
	prefix string
	n      int64
}

var (
	_ store.Store       = (*Store)(nil)
	_ store.Indexer     = (*Store)(nil)
	_ store.BulkDeleter = (*Store)(nil)
)

// New returns an empty store at revision 1.
func New(cfg Config) *Store { return newStore(cfg, degree) }

func newStore(cfg Config, degree int) *Store {
	cfg = cfg.withDefaults()
	s := &Store{
		cfg:        cfg,
		live:       btree.NewG(degree, objectLess),
		liveCounts: btree.NewG(degree, countLess),
		notify:     make(chan struct{}),
	}
	snap := &snapshot{rev: 1, tree: s.live.Clone(), counts: s.liveCounts.Clone()}
	s.hist.push(entry{snap: snap, at: cfg.Now()}, 1)
	s.current.Store(snap)
	return s
}

// objectLess orders the object tree by key. The tree holds the
// *store.Object itself, so a comparison loads the object, then its key.
// Items of {key, *Object} (keys inline) were measured too (process CPU per
// op, 100k objects, degree 16, 2 cores): Get 0.7µs instead of 1.2µs, no probe
// allocation, a page of 500 about the same, but every commit path-copies
// 1.8 times the bytes (5.4KB instead of 3.0KB per write, which the
// history pins) for a Create no faster. Pointers keep the history smaller.
func objectLess(a, b *store.Object) bool { return a.Key() < b.Key() }

// countLess orders the count tree by prefix.
func countLess(a, b prefixCount) bool { return a.prefix < b.prefix }

// probe is a search key for the object tree.
func probe(key string) *store.Object { return store.NewObject(key, 0, nil) }

// get returns the version of key in the snapshot, or nil.
func (s *snapshot) get(key string) *store.Object {
	o, _ := s.tree.Get(probe(key))
	return o
}

var errNilObject = errors.New("store/memory: nil object")

// Revision returns the current revision, lock-free.
func (s *Store) Revision() int64 { return s.current.Load().rev }

// Get returns the newest version of key from the current snapshot, without
// locking: O(log n).
func (s *Store) Get(ctx context.Context, key string) (*store.Object, error) {
	if o := s.current.Load().get(key); o != nil {
		return o, nil
	}
	return nil, store.ErrNotFound
}

// Create stores obj at key at the next revision, stamping its
// metadata.resourceVersion in place; the store owns obj from now on.
func (s *Store) Create(ctx context.Context, key string, obj meta.Object) (*store.Object, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, errNilObject
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.live.Has(probe(key)) {
		return nil, store.ErrExists
	}
	return s.commitLocked(key, store.Added, obj, nil), nil
}

// Update is an optimistic guaranteed update: tryUpdate runs without any
// lock on the newest published version, and the result is committed only
// if that version is still the live one (pointer identity); otherwise
// tryUpdate runs again on the newer version.
func (s *Store) Update(ctx context.Context, key string, opts store.UpdateOptions, tryUpdate store.UpdateFunc) (*store.Object, error) {
	cur := s.current.Load().get(key)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cur == nil && !opts.AllowCreate {
			return nil, store.ErrNotFound
		}
		seen := cur
		if seen == nil {
			// A missing object has no UID or resourceVersion: any
			// precondition fails, as in kube.
			seen = store.NewObject(key, 0, meta.Object{})
		}
		if err := opts.Preconditions.Check(seen); err != nil {
			return nil, err
		}
		next, err := tryUpdate(cur)
		if errors.Is(err, store.ErrNoChange) && cur != nil {
			return cur, nil
		}
		if err != nil {
			return nil, err
		}
		if next == nil {
			return nil, errNilObject
		}
		s.mu.Lock()
		latest, _ := s.live.Get(probe(key))
		if latest != cur {
			s.mu.Unlock()
			cur = latest
			continue
		}
		typ := store.Modified
		if cur == nil {
			typ = store.Added
		}
		obj := s.commitLocked(key, typ, next, cur)
		s.mu.Unlock()
		return obj, nil
	}
}

// Delete removes key once pre and validate hold on the exact version
// removed, retrying them if a concurrent write replaces it first.
func (s *Store) Delete(ctx context.Context, key string, pre store.Preconditions, validate func(*store.Object) error) (*store.Object, error) {
	cur := s.current.Load().get(key)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cur == nil {
			return nil, store.ErrNotFound
		}
		if err := pre.Check(cur); err != nil {
			return nil, err
		}
		if validate != nil {
			if err := validate(cur); err != nil {
				return nil, err
			}
		}
		s.mu.Lock()
		latest, _ := s.live.Get(probe(key))
		if latest != cur {
			s.mu.Unlock()
			cur = latest
			continue
		}
		obj := s.commitLocked(key, store.Deleted, nil, cur)
		s.mu.Unlock()
		return obj, nil
	}
}

// commitLocked writes one revision: it applies the change to live, clones
// the trees into a new snapshot, appends it with its event to the history
// and publishes it. For Added and Modified, data is the new version (owned
// by the store, stamped here); for Deleted, prev is the version removed.
func (s *Store) commitLocked(key string, typ store.EventType, data meta.Object, prev *store.Object) *store.Object {
	rev := s.current.Load().rev + 1
	var obj *store.Object
	if typ == store.Deleted {
		obj = store.NewDeleted(prev, rev)
	} else {
		data.SetMetadataField("resourceVersion", strconv.FormatInt(rev, 10))
		obj = store.NewObject(key, rev, data)
	}
	s.publishLocked(typ, obj, prev)
	return obj
}

// publishLocked commits obj, the version of revision obj.Revision() (the
// next one) made by a write of type typ over prev: for Deleted, obj is the
// last state stamped with the deletion revision.
func (s *Store) publishLocked(typ store.EventType, obj, prev *store.Object) {
	last := s.current.Load()
	key, rev := obj.Key(), obj.Revision()
	counts := last.counts
	var indexes []indexSnap
	switch typ {
	case store.Deleted:
		s.live.Delete(prev)
		counts = s.countLocked(key, -1)
		indexes = s.indexesLocked(last, key, prev, nil)
	default:
		s.live.ReplaceOrInsert(obj)
		if prev == nil {
			counts = s.countLocked(key, +1)
		}
		indexes = s.indexesLocked(last, key, prev, obj)
	}
	snap := &snapshot{rev: rev, tree: s.live.Clone(), counts: counts, indexes: indexes}
	ev := store.Event{Type: typ, Object: obj, Prev: prev, Revision: rev}

	now := s.cfg.Now()
	s.histMu.Lock()
	s.hist.push(entry{ev: ev, snap: snap, at: now}, rev)
	s.evictLocked(now)
	s.current.Store(snap)
	if s.notifyTaken.Swap(false) {
		close(s.notify)
		s.notify = make(chan struct{})
	}
	s.histMu.Unlock()
}

// countLocked adds delta to the count of every "/"-terminated prefix of
// key ("/a/b/c" counts under "/" and "/a/" and "/a/b/") and returns a
// clone of the count tree to publish.
func (s *Store) countLocked(key string, delta int64) *btree.BTreeG[prefixCount] {
	countIn(s.liveCounts, key, delta)
	return s.liveCounts.Clone()
}

// countIn adds delta to the count of every "/"-terminated prefix of key in
// counts.
func countIn(counts *btree.BTreeG[prefixCount], key string, delta int64) {
	for i := 0; i < len(key); i++ {
		if key[i] == '/' {
			addCount(counts, key[:i+1], delta)
		}
	}
}

// addCount adds delta to the count of prefix.
func addCount(counts *btree.BTreeG[prefixCount], prefix string, delta int64) {
	c, ok := counts.Get(prefixCount{prefix: prefix})
	if !ok {
		// Do not pin the whole key in the count tree.
		c.prefix = string([]byte(prefix))
	}
	c.n += delta
	if c.n == 0 {
		counts.Delete(c)
	} else {
		counts.ReplaceOrInsert(c)
	}
}

// addPrefixes adds delta to the count of every "/"-terminated prefix of
// key in a short list of counts to apply later (a linear search: a bulk
// delete touches few prefixes).
func addPrefixes(counts []prefixCount, key string, delta int64) []prefixCount {
	for i := 0; i < len(key); i++ {
		if key[i] != '/' {
			continue
		}
		p := key[:i+1]
		found := false
		for j := len(counts) - 1; j >= 0; j-- {
			if counts[j].prefix == p {
				counts[j].n += delta
				found = true
				break
			}
		}
		if !found {
			counts = append(counts, prefixCount{prefix: p, n: delta})
		}
	}
	return counts
}

// bulkChunk is how many deletes DeleteVersions commits between two
// publications of the current snapshot, so that watchers and readers of
// the history are never held back long.
const bulkChunk = 256

// DeleteVersions implements store.BulkDeleter: the deletes are committed
// as Delete commits them, one revision each, under one hold of the writer
// lock per chunk of bulkChunk, with the chunk's history entries appended
// and the last one published together.
func (s *Store) DeleteVersions(ctx context.Context, objs []*store.Object) ([]*store.Object, error) {
	out := make([]*store.Object, len(objs))
	for start := 0; start < len(objs); start += bulkChunk {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		chunk := objs[start:min(start+bulkChunk, len(objs))]
		s.deleteChunk(chunk, out[start:])
	}
	return out, nil
}

// deleteChunk commits the deletes of one chunk (see DeleteVersions). Its
// revisions but the last get no snapshot of their own: the trees are
// changed in place from one delete to the next, and a read at one of those
// revisions rebuilds its snapshot (snapshotAt).
func (s *Store) deleteChunk(objs, out []*store.Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := s.current.Load()
	rev := last.rev
	entries := make([]entry, 0, len(objs))
	changed := make([]bool, len(s.indexes))
	// The counts change once per prefix at the end: the deletes of a
	// chunk are mostly under the same few prefixes.
	var counted []prefixCount
	for i, prev := range objs {
		if prev == nil {
			continue
		}
		key := prev.Key()
		if removed, _ := s.live.Delete(prev); removed != prev {
			if removed != nil { // another version is current: put it back
				s.live.ReplaceOrInsert(removed)
			}
			continue
		}
		rev++
		obj := store.NewDeleted(prev, rev)
		counted = addPrefixes(counted, key, -1)
		for j, ix := range s.indexes {
			if ix.file(key, prev, nil) {
				changed[j] = true
			}
		}
		entries = append(entries, entry{ev: store.Event{Type: store.Deleted, Object: obj, Prev: prev, Revision: rev}})
		out[i] = obj
	}
	if len(entries) == 0 {
		return
	}
	for _, c := range counted {
		addCount(s.liveCounts, c.prefix, c.n)
	}
	indexes := last.indexes
	if len(indexes) != len(s.indexes) || slices.Contains(changed, true) {
		indexes = make([]indexSnap, len(s.indexes))
		for j, ix := range s.indexes {
			if j < len(last.indexes) && !changed[j] {
				indexes[j] = last.indexes[j]
			} else {
				indexes[j] = indexSnap{name: ix.name, fn: ix.fn, tree: ix.live.Clone()}
			}
		}
	}
	snap := &snapshot{rev: rev, tree: s.live.Clone(), counts: s.liveCounts.Clone(), indexes: indexes}
	entries[len(entries)-1].snap = snap
	now := s.cfg.Now()
	s.histMu.Lock()
	for _, e := range entries {
		e.at = now
		s.hist.push(e, e.ev.Revision)
	}
	s.evictLocked(now)
	s.current.Store(snap)
	if s.notifyTaken.Swap(false) {
		close(s.notify)
		s.notify = make(chan struct{})
	}
	s.histMu.Unlock()
}

// rebuildLocked makes the snapshot of a revision inside a bulk delete,
// which has none of its own: the snapshot of the chunk's last revision
// (the next entry with one), with the objects deleted after rev put back.
// histMu must be held (shared is enough); nothing is changed.
func (s *Store) rebuildLocked(rev int64) *snapshot {
	end := rev + 1
	for s.hist.at(end).snap == nil {
		end++
	}
	base := s.hist.at(end).snap
	snap := &snapshot{rev: rev, tree: cloneShared(base.tree), counts: cloneShared(base.counts),
		indexes: make([]indexSnap, len(base.indexes))}
	for i, ix := range base.indexes {
		snap.indexes[i] = indexSnap{name: ix.name, fn: ix.fn, tree: cloneShared(ix.tree)}
	}
	for r := end; r > rev; r-- {
		prev := s.hist.at(r).ev.Prev
		snap.tree.ReplaceOrInsert(prev)
		countIn(snap.counts, prev.Key(), +1)
		for _, ix := range snap.indexes {
			if v, ok := ix.fn(prev); ok {
				ix.tree.ReplaceOrInsert(indexEntry{v, prev.Key()})
			}
		}
	}
	return snap
}

// cloneShared returns a writable copy of a snapshot's tree, which others
// may be reading or copying at the same time: Clone changes the tree it is
// called on, so it is called on a private copy of the tree's header.
func cloneShared[T any](t *btree.BTreeG[T]) *btree.BTreeG[T] {
	header := *t
	return header.Clone()
}

// Clone returns a new store holding what s holds now, at the same
// revision, with a history of that revision only and no indexes (add them
// again); writes to either store are never seen by the other. It costs
// O(1): both share the copy-on-write trees, and each copies the paths it
// writes. A test kit clones a store prepared once (built-in policy, CRDs)
// instead of writing the same objects for every test server.
func (s *Store) Clone() *Store {
	s.mu.Lock()
	live, counts := s.live.Clone(), s.liveCounts.Clone()
	rev := s.current.Load().rev
	s.mu.Unlock()
	c := &Store{cfg: s.cfg, live: live, liveCounts: counts, notify: make(chan struct{})}
	snap := &snapshot{rev: rev, tree: c.live.Clone(), counts: c.liveCounts.Clone()}
	c.hist.push(entry{snap: snap, at: c.cfg.Now()}, rev)
	c.current.Store(snap)
	return c
}
