package store

import (
	"context"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/kapi-dev/kapi/meta"
)

// Store keeps API objects by key under one global, dense revision counter.
// Keys are opaque strings ordered bytewise; the API server builds them as
// "/group/resource/namespace/name" so that a resource, or one namespace of
// it, is a key prefix. All methods are safe for concurrent use.
type Store interface {
	// Get returns the newest version of key, or ErrNotFound.
	Get(ctx context.Context, key string) (*Object, error)

	// List returns the objects under prefix from one snapshot revision, in
	// key order, as selected by opts. See ListOptions for how the revision
	// is chosen and which errors each choice can return.
	List(ctx context.Context, prefix string, opts ListOptions) (ListResult, error)

	// Create stores obj at key if key is absent, stamping
	// metadata.resourceVersion with the new revision, or returns ErrExists.
	// The store takes ownership of obj.
	Create(ctx context.Context, key string, obj meta.Object) (*Object, error)

	// Update replaces the object at key with the result of tryUpdate applied
	// to the newest version, retrying with the newer version whenever a
	// concurrent write lands first, so no write is lost. tryUpdate may run
	// more than once and must not have side effects; returning ErrNoChange
	// writes nothing (Update then returns the current version). pre is checked
	// against the version tryUpdate sees. A missing key is ErrNotFound unless
	// tryUpdate is given a nil current object and returns one (create on
	// update), which only happens when opts.AllowCreate is set.
	Update(ctx context.Context, key string, opts UpdateOptions, tryUpdate UpdateFunc) (*Object, error)

	// Delete removes key after checking pre and calling validate (when not
	// nil) with the version being deleted; validate's error aborts the
	// delete. It returns the deleted state stamped with the deletion
	// revision.
	Delete(ctx context.Context, key string, pre Preconditions, validate func(*Object) error) (*Object, error)

	// Watch streams the changes under prefix that happen after
	// opts.Revision (0: after the current revision). A revision older than
	// the history kept is an *ExpiredError; a future one waits like List.
	Watch(ctx context.Context, prefix string, opts WatchOptions) (Watcher, error)

	// Revision returns the revision of the last write (1 for an empty store).
	Revision() int64
}

// BulkDeleter is a Store that removes many objects in one call, as a
// deletecollection or a namespace's teardown does, for less than one Delete
// each and with the same outcome: the same revisions, events and state.
type BulkDeleter interface {
	// DeleteVersions removes each of objs (versions read from this store)
	// that is still the newest version of its key, in the order given,
	// each at a revision of its own as one Delete would, and returns what
	// each delete left (NewDeleted's state, stamped with its revision),
	// nil where the object changed or went since it was read: the caller
	// decides again about those. Watchers see one Deleted event per
	// object removed, in order. An error (ctx done) may come after some
	// were removed: the result then says which.
	DeleteVersions(ctx context.Context, objs []*Object) ([]*Object, error)
}

// UpdateFunc computes the next version of an object from the current one
// (nil when absent and creation is allowed). It returns the new object
// data, which must be a map the store can own (never cur.Data()), or
// ErrNoChange to write nothing (Update then returns cur).
type UpdateFunc func(cur *Object) (meta.Object, error)

// UpdateOptions tunes Update.
type UpdateOptions struct {
	Preconditions Preconditions
	// AllowCreate lets tryUpdate create a missing object.
	AllowCreate bool
}

// Preconditions must hold on the current version for a write to proceed.
// Empty fields are not checked.
type Preconditions struct {
	UID             string
	ResourceVersion string
}

// Check returns a *PreconditionError when obj does not satisfy p.
func (p Preconditions) Check(obj *Object) error {
	if p.UID != "" && p.UID != obj.Data().UID() {
		return &PreconditionError{Field: "UID", Want: p.UID, Got: obj.Data().UID()}
	}
	if p.ResourceVersion != "" && p.ResourceVersion != obj.Data().ResourceVersion() {
		return &PreconditionError{Field: "ResourceVersion", Want: p.ResourceVersion, Got: obj.Data().ResourceVersion()}
	}
	return nil
}

// RevisionMatch says how ListOptions.Revision is interpreted.
type RevisionMatch int

const (
	// NotOlderThan reads a snapshot at least as new as Revision: the
	// current one.
	NotOlderThan RevisionMatch = iota
	// Exact reads the snapshot at exactly Revision.
	Exact
)

// ListOptions selects what List reads.
//
//	Revision  Match         reads                  errors
//	0         either        current snapshot       -
//	R         NotOlderThan  current snapshot       *FutureRevisionError if R is not reached in time
//	R         Exact         snapshot at R          *ExpiredError if R left the history; future as above
type ListOptions struct {
	Revision int64
	Match    RevisionMatch
	// Start is the first key to consider (inclusive); it must lie under the
	// prefix. Empty starts at the prefix.
	Start string
	// Limit stops after that many matching objects (0: no limit).
	Limit int
	// Filter, when set, keeps only the objects it accepts.
	Filter func(*Object) bool
	// Index and IndexValue, when the store keeps an index named Index (see
	// Indexer), let List walk only the objects the index files under
	// IndexValue instead of every object under the prefix. They are a hint:
	// the caller promises that every object Filter accepts is filed under
	// IndexValue, so a store without the index reads every object and
	// returns the same page.
	Index, IndexValue string
}

// IndexFunc files a stored version under one value of an index; ok is
// false for versions the index leaves out. It must depend on the version
// alone, be quick, and not call the store: stores call it while they
// commit.
type IndexFunc func(obj *Object) (value string, ok bool)

// Indexer is a Store that can keep secondary indexes for List (see
// ListOptions.Index), as kube's watch cache indexes pods by node.
type Indexer interface {
	// AddIndex starts keeping an index: the objects stored now are filed
	// at once, later versions as they are written. A name can be added
	// once.
	AddIndex(name string, fn IndexFunc) error
}

// ListResult is one page of a List.
type ListResult struct {
	Items []*Object
	// Revision is the revision of the snapshot read.
	Revision int64
	// Next is the key to pass as Start to read the next page from the same
	// Revision; empty when the page is the last.
	Next string
	// Total counts every object under the prefix in the snapshot, ignoring
	// Start, Limit and Filter: callers derive remainingItemCount from it.
	Total int64
}

// WatchOptions selects where a watch starts.
type WatchOptions struct {
	// Revision: events strictly after it are delivered; 0 means after the
	// current revision.
	Revision int64
}

// EventType is the kind of change an Event reports.
type EventType string

// Event types as they appear on the wire.
const (
	Added    EventType = "ADDED"
	Modified EventType = "MODIFIED"
	Deleted  EventType = "DELETED"
)

// Event is one write. For Deleted, Object is the last state stamped with
// the deletion revision. Prev is the version replaced (nil for Added).
type Event struct {
	Type     EventType
	Object   *Object
	Prev     *Object
	Revision int64
}

// Watcher is a cursor over the store's history under one prefix.
type Watcher interface {
	// Next returns the events available after the last ones it returned;
	// when there are none it blocks until at least one is, ctx is done
	// (returning ctx.Err()), or the watcher has fallen out of the history
	// window (an *ExpiredError; the watcher is then finished). A done ctx
	// still gets the events already available: a caller can gather what
	// came in a while without waking for each. Events come in revision
	// order, each exactly once.
	Next(ctx context.Context) ([]Event, error)
	// Revision is the newest store revision this watcher has fully scanned:
	// every matching event up to it has been returned by Next. Bookmarks
	// report it.
	Revision() int64
	// Stop releases the watcher; Next then returns ErrWatcherStopped.
	Stop()
}

// Object is one immutable stored version of an API object: its key, the
// revision that wrote it and its data. Values derived from a version
// (encodings, selector fields) are computed once and shared, so that a GET,
// every LIST page and every watcher share one serialization.
//
// An Object can be compacted (Compact): it then keeps only one encoding of
// its data and decodes again when Data is called, holding the decoded map
// weakly. Stored objects then cost about their encoded size.
type Object struct {
	key      string
	revision int64

	// data is the decoded object until it is compacted; afterwards weakData
	// may still reach a recent decoding, and compact says how to decode.
	data     atomic.Pointer[meta.Object]
	weakData atomic.Pointer[weak.Pointer[meta.Object]]
	compact  atomic.Pointer[compaction]
	// deleted is, for the state a delete left (NewDeleted), the version
	// deleted: the data is made from its own when needed.
	deleted *Object

	// first is the first value derived (the JSON encoding, in an API
	// server), kept apart from the others so that the lookup every read
	// makes is one load; derived holds the others.
	first   atomic.Pointer[derivedValue]
	derived atomic.Pointer[[]derivedValue]
	mu      sync.Mutex
	labels  atomic.Pointer[map[string]string]
	// lifecycle caches Finalizing (lifecycleKnown and the bits it found),
	// read by Compact while the data is at hand.
	lifecycle atomic.Uint32
}

// Bits of Object.lifecycle.
const (
	lifecycleKnown uint32 = 1 << iota
	lifecycleFinalizers
	lifecycleDeleting
)

type compaction struct {
	key    any
	decode func([]byte) (meta.Object, error)
}

type derivedValue struct {
	key   any
	value any
	// bytes is value when it is a []byte (an encoding), kept unboxed so
	// that Cached reads it without one more pointer to follow.
	bytes   []byte
	isBytes bool
}

func newDerivedValue(key, value any) derivedValue {
	b, isBytes := value.([]byte)
	return derivedValue{key: key, value: value, bytes: b, isBytes: isBytes}
}

// NewObject wraps data written at revision under key. Only store
// implementations create Objects; data must already carry the matching
// metadata.resourceVersion and is never changed again.
func NewObject(key string, revision int64, data meta.Object) *Object {
	o := &Object{key: key, revision: revision}
	o.data.Store(&data)
	return o
}

// NewEncodedObject wraps a version of key written at revision that is
// held as an encoding of its data, under key as Compact would keep it:
// Data decodes it with decode when first needed (and again once the
// decoding is collected). A store loading many versions at once makes them
// so, to decode only those that are read; decode's result must carry the
// matching metadata.resourceVersion, and a failure reads as an empty
// object.
func NewEncodedObject(key string, revision int64, encodingKey any, encoded []byte, decode func([]byte) (meta.Object, error)) *Object {
	o := &Object{key: key, revision: revision}
	dv := newDerivedValue(encodingKey, encoded)
	o.first.Store(&dv)
	o.compact.Store(&compaction{key: encodingKey, decode: decode})
	return o
}

// NewDeleted is the state the delete of prev at revision leaves, as its
// Deleted event carries it: prev's data stamped with the deletion revision
// (metadata.resourceVersion). Nothing is decoded or copied until its data
// is asked for; then it is made from prev's and held weakly, as a
// compacted version's. Only store implementations create Objects.
func NewDeleted(prev *Object, revision int64) *Object {
	return &Object{key: prev.key, revision: revision, deleted: prev}
}

// Deleted is, for the state a delete left (NewDeleted), the version
// deleted; nil for any other version.
func (o *Object) Deleted() *Object { return o.deleted }

// Key is the storage key.
func (o *Object) Key() string { return o.key }

// Revision is the revision of the write that produced this version.
func (o *Object) Revision() int64 { return o.revision }

// Data is the object's content. It is shared: never modify it. On a
// compacted object it may decode the kept encoding (an error there, which
// would mean the encoding was not the object's, yields an empty object).
func (o *Object) Data() meta.Object {
	if d := o.data.Load(); d != nil {
		return *d
	}
	if w := o.weakData.Load(); w != nil {
		if d := w.Value(); d != nil {
			return *d
		}
	}
	var d meta.Object
	if o.deleted != nil {
		d = o.deleted.Data().WithResourceVersion(o.revision)
	} else {
		c := o.compact.Load()
		raw, _ := o.cachedValue(c.key)
		var err error
		if d, err = c.decode(raw.([]byte)); err != nil {
			d = meta.Object{}
		}
	}
	w := weak.Make(&d)
	o.weakData.Store(&w)
	return d
}

// Compact drops the decoded data once its encoding under key is cached,
// keeping a weak reference: Data decodes with decode when needed again.
// It is a no-op when nothing is cached under key.
func (o *Object) Compact(key any, decode func([]byte) (meta.Object, error)) {
	d := o.data.Load()
	if d == nil {
		return
	}
	if _, ok := o.cachedValue(key); !ok {
		return
	}
	o.lifecycleOf(*d)
	o.compact.Store(&compaction{key: key, decode: decode})
	w := weak.Make(d)
	o.weakData.Store(&w)
	o.data.Store(nil)
}

// Labels returns metadata.labels, computed once per version so that label
// selectors match without rebuilding the map. The map is shared: never
// modify it.
func (o *Object) Labels() map[string]string {
	if l := o.labels.Load(); l != nil {
		return *l
	}
	if o.deleted != nil {
		return o.deleted.Labels()
	}
	l := o.Data().Labels()
	o.labels.Store(&l)
	return l
}

// Finalizing reports what a delete looks at first in a version's
// metadata: whether it has finalizers (a non-empty metadata.finalizers)
// and whether it is being deleted (metadata.deletionTimestamp set). It is
// read once per version; a compacted version answers without decoding
// (Compact reads it while the data is at hand), and a deleted state
// answers as the version deleted.
func (o *Object) Finalizing() (finalizers, deleting bool) {
	if o.deleted != nil {
		return o.deleted.Finalizing()
	}
	bits := o.lifecycle.Load()
	if bits == 0 {
		bits = o.lifecycleOf(o.Data())
	}
	return bits&lifecycleFinalizers != 0, bits&lifecycleDeleting != 0
}

// lifecycleOf caches and returns the lifecycle bits of the version's data.
func (o *Object) lifecycleOf(d meta.Object) uint32 {
	bits := lifecycleKnown
	if len(d.Finalizers()) > 0 {
		bits |= lifecycleFinalizers
	}
	if v, ok := d.Metadata()["deletionTimestamp"]; ok && v != nil {
		bits |= lifecycleDeleting
	}
	o.lifecycle.Store(bits)
	return bits
}

// Cached returns the bytes cached under key, if any, without computing
// them: the allocation-free path of Encoded.
func (o *Object) Cached(key any) ([]byte, bool) {
	if f := o.first.Load(); f != nil && f.key == key {
		return f.bytes, f.isBytes
	}
	v, ok := o.cachedValue(key)
	if !ok {
		return nil, false
	}
	b, ok := v.([]byte)
	return b, ok
}

// Encoded returns the bytes cached under key (an encoder's identity, such
// as a media type), calling encode on the first request only. Concurrent
// first requests encode once.
func (o *Object) Encoded(key any, encode func(meta.Object) ([]byte, error)) ([]byte, error) {
	if b, ok := o.Cached(key); ok {
		return b, nil
	}
	v, err := o.Derived(key, func(d meta.Object) (any, error) { return encode(d) })
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

// Derived returns the value cached under key, computing it from the data
// on the first request only: encodings, the fields selectors look at.
// Keys must be comparable and distinct between kinds of values.
func (o *Object) Derived(key any, compute func(meta.Object) (any, error)) (any, error) {
	if v, ok := o.cachedValue(key); ok {
		return v, nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if v, ok := o.cachedValue(key); ok {
		return v, nil
	}
	v, err := compute(o.Data())
	if err != nil {
		return nil, err
	}
	if o.first.Load() == nil {
		dv := newDerivedValue(key, v)
		o.first.Store(&dv)
		return v, nil
	}
	var next []derivedValue
	if cur := o.derived.Load(); cur != nil {
		next = append(next, *cur...)
	}
	next = append(next, newDerivedValue(key, v))
	o.derived.Store(&next)
	return v, nil
}

func (o *Object) cachedValue(key any) (any, bool) {
	if f := o.first.Load(); f != nil && f.key == key {
		return f.value, true
	}
	if cur := o.derived.Load(); cur != nil {
		for _, e := range *cur {
			if e.key == key {
				return e.value, true
			}
		}
	}
	return nil, false
}
