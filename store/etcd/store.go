package etcd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// Config configures a Store.
type Config struct {
	// Client talks to etcd. The Store does not close it.
	Client *clientv3.Client
	// Prefix is the etcd key prefix of every object, kube-apiserver's
	// -etcd-prefix. Default "/registry".
	Prefix string
	// Codec encodes stored values. Default JSON; Kube for kube-apiserver's
	// encodings.
	Codec Codec
	// Cache tunes the watch cache (its history window, how long reads
	// wait for a future revision). Zero values are memory's defaults.
	Cache memory.Config
	// HistoryLimit, when positive, bounds the history to that many
	// revisions: the cache's (as Cache.HistoryLimit = Cache.MaxHistory,
	// whatever their age) and etcd's, compacted after every write. It is
	// meant for tests that push revisions out of the history.
	HistoryLimit int
	// Replay is how many revisions of etcd's history a new cache replays
	// (at most its history length), so that watches from those revisions,
	// such as informers' after a restart of the server, resume instead of
	// relisting. Replaying costs start-up time: etcd sends the history of
	// a new watch in steps of 100ms, about 1s for 10,000 revisions.
	// Default 1,000; negative replays none (as kube's cacher, which starts
	// at the current revision).
	Replay int
	// CompactionInterval is how often the store compacts etcd's history,
	// as kube-apiserver's -etcd-compaction-interval: each time to the
	// revision it saw the time before, so a revision stays readable for at
	// least one interval. Default 5 minutes; negative disables (another
	// apiserver, or etcd's own auto-compaction, compacts).
	CompactionInterval time.Duration
	// WriteTimeout bounds each write's etcd requests: past it the write
	// fails with kube's 504 "Timeout: request did not complete within
	// requested timeout - context deadline exceeded", as kube-apiserver's
	// writes do after 34s when etcd does not answer. Default 34s.
	WriteTimeout time.Duration
	// ReadTimeout bounds a read's wait for etcd (its current revision):
	// past it the read fails with kube's 504 "Timeout: request did not
	// complete within the allotted timeout", as kube-apiserver's
	// -request-timeout. Default 60s.
	ReadTimeout time.Duration
	// Logger reports the cache's restarts and values it cannot read.
	// Default slog.Default().
	Logger *slog.Logger
}

// Store is a store.Store over etcd v3 with a watch cache in front, as
// kube-apiserver's cacher: see the package documentation.
type Store struct {
	cfg    Config
	cli    *clientv3.Client
	layout layout
	codec  Codec
	log    *slog.Logger

	// gen is the current cache generation; it is replaced when the cache
	// must be rebuilt from a fresh list (its watch fell behind etcd's
	// compaction).
	gen atomic.Pointer[generation]

	// indexes are re-added to every new generation.
	indexMu sync.Mutex
	indexes []namedIndex

	// pending holds the writes of this process not yet known to be in
	// the cache, by revision: applyPending applies them in revision order,
	// and the feed stores the same *store.Object (and its encodings)
	// instead of decoding the watch event.
	pending sync.Map // int64 -> ownWrite
	// applyMu makes applyPending's calls one at a time.
	applyMu sync.Mutex
	// own holds the revisions applied to the cache from pending before the
	// feed saw their events (see afterWrite), until the feed skips them.
	own sync.Map // int64 -> struct{}

	revisions revisionFetcher

	// watchCtx is the context of the feed's etcd watch, which
	// RequestProgress needs to reach the same gRPC stream.
	watchCtx     atomic.Pointer[context.Context]
	lastProgress atomic.Int64 // unix nanoseconds of the last progress request
	progressing  atomic.Bool  // a progress request is on its way

	compacted atomic.Int64 // the newest revision this store compacted to
	ownClient bool         // Open made the client: Close closes it

	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{}
}

// generation is one cache built from one list of etcd and fed by one
// chain of watches. When it ends, its watchers expire.
type generation struct {
	cache *memory.Store
	ctx   context.Context // done when the generation is replaced
	end   context.CancelFunc
	next  atomic.Int64 // the revision the next generation starts at
	base  int64        // the revision the cache was listed at
	// feed is the watch opened before the generation's list, until the
	// feed takes it.
	feed atomic.Pointer[feedWatch]
}

type namedIndex struct {
	name string
	fn   store.IndexFunc
}

var (
	_ store.Store       = (*Store)(nil)
	_ store.Indexer     = (*Store)(nil)
	_ store.BulkDeleter = (*Store)(nil)
)

// New lists the objects under the prefix into the watch cache and starts
// following etcd. It returns when the cache holds etcd's current state.
// waitReplay waits until the cache has replayed etcd's history up to rev.
func (s *Store) waitReplay(ctx context.Context, rev int64) error {
	for {
		if _, err := s.waitCache(ctx, rev); err == nil {
			return nil
		} else if ctx.Err() != nil {
			return fmt.Errorf("store/etcd: the cache did not reach revision %d: %w", rev, err)
		}
	}
}

// Close stops it.
func New(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Client == nil {
		return nil, errors.New("store/etcd: no etcd client")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.Codec == nil {
		cfg.Codec = JSON{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if n := cfg.HistoryLimit; n > 0 {
		cfg.Cache.HistoryLimit, cfg.Cache.MaxHistory, cfg.Cache.MinHistoryAge = n, n, -1
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 34 * time.Second
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = 60 * time.Second
	}
	if cfg.CompactionInterval == 0 {
		cfg.CompactionInterval = 5 * time.Minute
	}
	s := &Store{
		cfg:    cfg,
		cli:    cfg.Client,
		layout: newLayout(cfg.Prefix),
		codec:  cfg.Codec,
		log:    cfg.Logger,
		done:   make(chan struct{}),
	}
	s.revisions.fetch = s.fetchRevision
	s.revisions.timeout = cfg.ReadTimeout
	s.ctx, s.cancel = context.WithCancel(context.Background())
	gen, current, err := s.newGeneration(ctx)
	if err != nil {
		s.cancel()
		return nil, err
	}
	s.gen.Store(gen)
	go s.follow()
	if err := s.waitReplay(ctx, current); err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// Close stops following etcd; the watchers of the cache expire. It closes
// the client only when Open made it.
func (s *Store) Close() error {
	s.cancel()
	<-s.done
	s.gen.Load().end()
	if s.ownClient {
		return s.cli.Close()
	}
	return nil
}

// Revision is the cache's revision: the newest etcd revision it has
// applied. A store's own writes are applied before they return.
func (s *Store) Revision() int64 { return s.gen.Load().cache.Revision() }

// Get returns the newest version of key: it reads etcd's current revision
// (one request shared by the reads that arrive meanwhile), waits for the
// cache to reach it and reads the cache, as kube's consistent reads from
// the cache.
func (s *Store) Get(ctx context.Context, key string) (*store.Object, error) {
	rev, err := s.currentRevision(ctx)
	if err != nil {
		return nil, err
	}
	gen, err := s.waitCache(ctx, rev)
	if err != nil {
		return nil, err
	}
	return gen.cache.Get(ctx, key)
}

// List reads a page from the cache: revision 0 after confirming it holds
// etcd's current revision, NotOlderThan R once it reached R, Exact R from
// its history, or from etcd when R is older than the cache's history.
func (s *Store) List(ctx context.Context, prefix string, opts store.ListOptions) (store.ListResult, error) {
	switch {
	case opts.Revision < 0:
		return store.ListResult{}, fmt.Errorf("store/etcd: negative revision %d", opts.Revision)
	case opts.Revision == 0:
		rev, err := s.currentRevision(ctx)
		if err != nil {
			return store.ListResult{}, err
		}
		opts.Revision, opts.Match = rev, store.NotOlderThan
	}
	gen, err := s.waitCache(ctx, opts.Revision)
	if err != nil {
		return store.ListResult{}, err
	}
	if opts.Match == store.Exact && opts.Revision < gen.cache.Oldest() {
		return s.listEtcd(ctx, gen, prefix, opts)
	}
	return gen.cache.List(ctx, prefix, opts)
}

// Watch starts a watcher on the cache: kube's cacher serves watches from
// its history too, and a revision older than it is an *ExpiredError (410).
// A watcher expires when the cache is rebuilt.
func (s *Store) Watch(ctx context.Context, prefix string, opts store.WatchOptions) (store.Watcher, error) {
	gen := s.gen.Load()
	if opts.Revision > gen.cache.Revision() {
		var err error
		if gen, err = s.waitCache(ctx, opts.Revision); err != nil {
			return nil, err
		}
	}
	if opts.Revision > 0 && opts.Revision < gen.base {
		// The cache was listed at base: it holds no event at or before it.
		return nil, &store.ExpiredError{Requested: opts.Revision, Oldest: max(gen.base, gen.cache.Oldest())}
	}
	w, err := gen.cache.Watch(ctx, prefix, opts)
	if err != nil {
		return nil, err
	}
	return &watcher{inner: w, gen: gen}, nil
}

// AddIndex implements store.Indexer on the cache, and on every cache
// rebuilt later.
func (s *Store) AddIndex(name string, fn store.IndexFunc) error {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	if err := s.gen.Load().cache.AddIndex(name, fn); err != nil {
		return err
	}
	s.indexes = append(s.indexes, namedIndex{name, fn})
	return nil
}

// Create writes obj at key in one transaction that succeeds only if the
// key is absent (create revision 0).
func (s *Store) Create(ctx context.Context, key string, obj meta.Object) (o *store.Object, err error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, s.cfg.WriteTimeout)
	defer func() { cancel(); err = writeError(parent, err) }()
	if obj == nil {
		return nil, errors.New("store/etcd: nil object")
	}
	obj.SetMetadataField("resourceVersion", nil)
	value, err := s.codec.Encode(obj)
	if err != nil {
		return nil, err
	}
	ek := s.layout.etcdKey(key)
	resp, err := s.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.CreateRevision(ek), "=", 0)).
		Then(clientv3.OpPut(ek, string(value))).
		Commit()
	if err != nil {
		return nil, err
	}
	if !resp.Succeeded {
		return nil, store.ErrExists
	}
	return s.written(ctx, key, resp.Header.Revision, obj), nil
}

// Update is a guaranteed update: tryUpdate runs on the cache's version,
// and the result is written in one transaction that succeeds only if the
// key's mod revision is still that version's; otherwise the transaction
// returns the newer version and tryUpdate runs again on it. An outcome
// that writes nothing (not found, a failed precondition, ErrNoChange) is
// only trusted on a version read from etcd.
func (s *Store) Update(ctx context.Context, key string, opts store.UpdateOptions, tryUpdate store.UpdateFunc) (o *store.Object, err error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, s.cfg.WriteTimeout)
	defer func() { cancel(); err = writeError(parent, err) }()
	ek := s.layout.etcdKey(key)
	cur, fresh := s.cached(key), false
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cur == nil && !opts.AllowCreate {
			if !fresh {
				var err error
				if cur, fresh, err = s.refresh(ctx, key, ek); err != nil {
					return nil, err
				}
				continue
			}
			return nil, store.ErrNotFound
		}
		seen := cur
		if seen == nil {
			seen = store.NewObject(key, 0, meta.Object{})
		}
		if err := opts.Preconditions.Check(seen); err != nil {
			if !fresh {
				if cur, fresh, err = s.refresh(ctx, key, ek); err != nil {
					return nil, err
				}
				continue
			}
			return nil, err
		}
		next, err := tryUpdate(cur)
		if errors.Is(err, store.ErrNoChange) && cur != nil {
			if !fresh {
				latest, _, err := s.refresh(ctx, key, ek)
				if err != nil {
					return nil, err
				}
				if latest != nil && latest.Revision() == cur.Revision() {
					return cur, nil
				}
				cur, fresh = latest, true
				continue
			}
			return cur, nil
		}
		if err != nil {
			return nil, err
		}
		if next == nil {
			return nil, errors.New("store/etcd: nil object")
		}
		next.SetMetadataField("resourceVersion", nil)
		value, err := s.codec.Encode(next)
		if err != nil {
			return nil, err
		}
		cmp := clientv3.Compare(clientv3.CreateRevision(ek), "=", 0)
		if cur != nil {
			cmp = clientv3.Compare(clientv3.ModRevision(ek), "=", cur.Revision())
		}
		resp, err := s.cli.Txn(ctx).If(cmp).
			Then(clientv3.OpPut(ek, string(value))).
			Else(clientv3.OpGet(ek)).
			Commit()
		if err != nil {
			return nil, err
		}
		if resp.Succeeded {
			return s.written(ctx, key, resp.Header.Revision, next), nil
		}
		if cur, err = s.fromGet(key, resp.Responses[0].GetResponseRange().Kvs); err != nil {
			return nil, err
		}
		fresh = true
	}
}

// Delete removes key in one transaction that succeeds only if its mod
// revision is still that of the version pre and validate were checked on.
func (s *Store) Delete(ctx context.Context, key string, pre store.Preconditions, validate func(*store.Object) error) (o *store.Object, err error) {
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, s.cfg.WriteTimeout)
	defer func() { cancel(); err = writeError(parent, err) }()
	ek := s.layout.etcdKey(key)
	cur, fresh := s.cached(key), false
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var err error
		if cur == nil {
			if !fresh {
				if cur, fresh, err = s.refresh(ctx, key, ek); err != nil {
					return nil, err
				}
				continue
			}
			return nil, store.ErrNotFound
		}
		if err := pre.Check(cur); err != nil {
			if !fresh {
				if cur, fresh, err = s.refresh(ctx, key, ek); err != nil {
					return nil, err
				}
				continue
			}
			return nil, err
		}
		if validate != nil {
			if err := validate(cur); err != nil {
				return nil, err
			}
		}
		resp, err := s.cli.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(ek), "=", cur.Revision())).
			Then(clientv3.OpDelete(ek)).
			Else(clientv3.OpGet(ek)).
			Commit()
		if err != nil {
			return nil, err
		}
		if resp.Succeeded {
			rev := resp.Header.Revision
			s.afterWrite(ctx, key, rev, nil)
			return store.NewObject(key, rev, cur.Data().WithResourceVersion(rev)), nil
		}
		if cur, err = s.fromGet(key, resp.Responses[0].GetResponseRange().Kvs); err != nil {
			return nil, err
		}
		fresh = true
	}
}

// cached returns the cache's version of key, or nil.
func (s *Store) cached(key string) *store.Object {
	o, _ := s.gen.Load().cache.Get(context.Background(), key)
	return o
}

// refresh reads key from etcd.
func (s *Store) refresh(ctx context.Context, key, ek string) (*store.Object, bool, error) {
	return s.getEtcd(ctx, key, ek)
}

func (s *Store) getEtcd(ctx context.Context, key, ek string) (*store.Object, bool, error) {
	resp, err := s.cli.Get(ctx, ek)
	if err != nil {
		return nil, false, err
	}
	o, err := s.fromGet(key, resp.Kvs)
	return o, true, err
}

// fromGet decodes the version a Get returned, or nil when it found none.
// It takes the cache's version when it is the same revision.
func (s *Store) fromGet(key string, kvs []*mvccpb.KeyValue) (*store.Object, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	kv := kvs[0]
	if c := s.cached(key); c != nil && c.Revision() == kv.ModRevision {
		return c, nil
	}
	return s.decode(key, kv.ModRevision, kv.Value)
}

// decode builds the stored version of key at rev from its etcd value.
func (s *Store) decode(key string, rev int64, value []byte) (*store.Object, error) {
	data, err := s.decodeData(key, rev, value)
	if err != nil {
		return nil, err
	}
	return store.NewObject(key, rev, data), nil
}

// decodeData decodes the etcd value of key at rev and stamps rev into it.
func (s *Store) decodeData(key string, rev int64, value []byte) (meta.Object, error) {
	data, err := s.codec.Decode(value)
	if err != nil {
		return nil, fmt.Errorf("store/etcd: decoding %s at revision %d: %w", key, rev, err)
	}
	if data == nil {
		data = meta.Object{}
	}
	data.SetMetadataField("resourceVersion", strconv.FormatInt(rev, 10))
	return data, nil
}

// storedValue is the key under which a version loaded by a new cache
// keeps its etcd value (see lazy).
type storedValue struct{}

// lazy builds the version of key at rev from its etcd value without
// decoding it (store.NewEncodedObject): the version keeps the value and
// decodes it when its data is first needed. A new cache loads every
// object under the prefix, and decoding them all was most of a start-up's
// work; most are read later, if ever, one at a time. ok is false when the
// codec cannot tell at a glance that it reads the value (see Sniffer):
// the caller decodes it then.
func (s *Store) lazy(key string, rev int64, value []byte) (o *store.Object, ok bool) {
	sn, isSniffer := s.codec.(Sniffer)
	if !isSniffer || !sn.Recognizes(value) {
		return nil, false
	}
	return store.NewEncodedObject(key, rev, storedValue{}, value, func(value []byte) (meta.Object, error) {
		data, err := s.decodeData(key, rev, value)
		if err != nil {
			s.log.Warn("store/etcd: a stored value does not decode", "key", key, "revision", rev, "err", err)
		}
		return data, err
	}), true
}

// written makes the version a successful create or update wrote, hands it
// to the cache and waits for the cache to apply it.
func (s *Store) written(ctx context.Context, key string, rev int64, data meta.Object) *store.Object {
	data.SetMetadataField("resourceVersion", strconv.FormatInt(rev, 10))
	o := store.NewObject(key, rev, data)
	s.afterWrite(ctx, key, rev, o)
	return o
}

// ownWrite is a write of this process: obj at key, nil for a deletion.
type ownWrite struct {
	key string
	obj *store.Object
}

// afterWrite waits (bounded by ctx) for the cache to hold revision rev,
// the write of obj at key (nil: its deletion) in a transaction of that
// one operation, so the writer's next read sees its write, and compacts
// when the store keeps a bounded history.
//
// The cache does not wait for the write's event to come back through
// etcd's watch: once it holds rev-1, revision rev is known to be exactly
// this write, so it is applied at once (the feed then skips the event).
// The watch's way back is several goroutines long, and it was about a
// third of a write's wait under perfcompare's watch fan-out. Whoever
// brings the cache to rev-1 applies rev (applyPending): the writer of
// rev-1 or the feed, which also brings other clients' writes as before.
// So concurrent writers are not woken one after another to apply their
// own writes in order.
func (s *Store) afterWrite(ctx context.Context, key string, rev int64, obj *store.Object) {
	s.pending.Store(rev, ownWrite{key, obj})
	s.applyPending()
	// Only when rev-1 is still to come (another's write, or one outside
	// the prefix, which the cache learns from rev's event) does the writer
	// wait; no progress notification is asked for unless it is late.
	_, _ = s.waitCacheFor(ctx, rev, true)
	s.pending.Delete(rev)
	if n := int64(s.cfg.HistoryLimit); n > 0 && rev-n+1 > s.compacted.Load() {
		s.compact(ctx, rev-n+1)
	}
}

// applyPending applies to the cache the pending writes that follow its
// revision, in order, until one is missing: see afterWrite.
func (s *Store) applyPending() {
	s.applyMu.Lock()
	defer s.applyMu.Unlock()
	gen := s.gen.Load()
	for {
		rev := gen.cache.Revision() + 1
		p, ok := s.pending.Load(rev)
		if !ok {
			return
		}
		w := p.(ownWrite)
		s.own.Store(rev, struct{}{})
		if _, err := gen.cache.Apply(w.key, rev, w.obj); err != nil {
			s.own.Delete(rev) // the feed applied it first
			if gen.cache.Revision() < rev {
				return
			}
		}
	}
}

// compact compacts etcd's history below rev.
func (s *Store) compact(ctx context.Context, rev int64) {
	for {
		c := s.compacted.Load()
		if rev <= c {
			return
		}
		if s.compacted.CompareAndSwap(c, rev) {
			break
		}
	}
	if _, err := s.cli.Compact(ctx, rev); err != nil && !errors.Is(err, rpctypes.ErrCompacted) {
		s.log.Warn("store/etcd: compaction failed", "revision", rev, "err", err)
	}
}

// waitCache returns the cache generation once it has reached rev,
// requesting etcd progress notifications while it waits (rev may be a
// write outside the prefix, which no event would report), every
// progressStep: etcd 3.5 drops a request that comes while the watch is
// still being sent its history, as a new cache's is. It fails as memory's
// wait for a future revision does.
func (s *Store) waitCache(ctx context.Context, rev int64) (*generation, error) {
	return s.waitCacheFor(ctx, rev, false)
}

// waitCacheFor is waitCache; with written, rev is a write in the prefix,
// whose event the feed delivers, and the first wait asks for no progress
// notification.
func (s *Store) waitCacheFor(ctx context.Context, rev int64, written bool) (*generation, error) {
	gen := s.gen.Load()
	if gen.cache.Revision() >= rev {
		return gen, nil
	}
	wait := s.cfg.Cache.FutureWait
	if wait == 0 {
		wait = memory.DefaultFutureWait
	}
	deadline := time.Now().Add(wait)
	for first := true; ; first = false {
		if !first || !written {
			s.requestProgress()
		}
		step, cancel := context.WithTimeout(ctx, progressStep)
		w, err := gen.cache.Watch(step, "\xff", store.WatchOptions{Revision: rev})
		cancel()
		if err == nil {
			w.Stop()
			return gen, nil
		}
		var fe *store.FutureRevisionError
		if !errors.As(err, &fe) {
			return nil, err
		}
		if next := s.gen.Load(); next != gen {
			gen = next
			if gen.cache.Revision() >= rev {
				return gen, nil
			}
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return nil, &store.FutureRevisionError{Requested: rev, Current: gen.cache.Revision()}
		}
	}
}

// progressStep is how often a read waiting for the cache asks etcd for a
// progress notification again.
const progressStep = 10 * time.Millisecond

// requestProgress asks etcd for a progress notification on the feed's
// watch, at most every few milliseconds and one request at a time. It
// does not wait: the client's request blocks while the watch stream
// reconnects.
func (s *Store) requestProgress() {
	now := time.Now().UnixNano()
	last := s.lastProgress.Load()
	if now-last < int64(5*time.Millisecond) || !s.lastProgress.CompareAndSwap(last, now) {
		return
	}
	ctx := s.watchCtx.Load()
	if ctx == nil || !s.progressing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.progressing.Store(false)
		_ = s.cli.RequestProgress(*ctx)
	}()
}

// fetchRevision reads etcd's current revision with a linearizable read.
func (s *Store) fetchRevision(ctx context.Context) (int64, error) {
	resp, err := s.cli.Get(ctx, s.layout.root(), clientv3.WithCountOnly())
	if err != nil {
		return 0, err
	}
	return resp.Header.Revision, nil
}

// errChanged skips, in DeleteVersions, an object written since it was read.
var errChanged = errors.New("store/etcd: changed since read")

// DeleteVersions implements store.BulkDeleter with one conditional delete
// transaction per object (each its own etcd revision, as a Delete each).
func (s *Store) DeleteVersions(ctx context.Context, objs []*store.Object) ([]*store.Object, error) {
	out := make([]*store.Object, len(objs))
	for i, o := range objs {
		if o == nil {
			continue
		}
		d, err := s.Delete(ctx, o.Key(), store.Preconditions{}, func(cur *store.Object) error {
			if cur.Revision() != o.Revision() {
				return errChanged
			}
			return nil
		})
		switch {
		case err == nil:
			out[i] = d
		case errors.Is(err, errChanged), errors.Is(err, store.ErrNotFound):
		default:
			return out, err
		}
	}
	return out, nil
}
