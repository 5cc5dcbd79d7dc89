package etcd

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// listPage is how many keys one etcd range request of a full list reads:
// small enough that decoding a page overlaps reading the next, large
// enough that the requests' own cost stays small (kube's cacher lists in
// pages of 10,000, one after the other).
const listPage = 1_000

// errCompacted ends a feed whose next revision etcd compacted: the cache
// must be rebuilt from a fresh list.
var errCompacted = errors.New("store/etcd: the cache's next revision was compacted")

// newGeneration builds a new cache: it lists every key under the prefix
// at a revision up to the cache's history length before etcd's current
// one (or at the oldest etcd still holds), so that the feed replays the
// history since then into the cache. Watches from a revision etcd still
// holds, such as an informer's after a restart, then resume without a
// relist. It returns the cache and etcd's current revision, which the
// cache reaches once the feed has replayed the history.
func (s *Store) newGeneration(ctx context.Context) (*generation, int64, error) {
	root := s.layout.root()
	end := clientv3.GetPrefixRangeEnd(root)
	resp, err := s.cli.Get(ctx, root, clientv3.WithRange(end), clientv3.WithCountOnly())
	if err != nil {
		return nil, 0, fmt.Errorf("store/etcd: listing %s: %w", root, err)
	}
	current := resp.Header.Revision
	rev := max(1, current-s.replayDepth())
	for attempt := 0; ; attempt++ {
		// The feed's watch opens before the list: etcd sends a watch from
		// an old revision its history at its next sync of such watches
		// (every 100ms), which the list and its decoding then overlap.
		feed := s.openFeed(rev + 1)
		objs, err := s.listAt(ctx, rev)
		if errors.Is(err, rpctypes.ErrCompacted) && attempt < 10 {
			feed.cancel()
			if rev >= current {
				// Compacted past the revision read at first: read it again.
				resp, err := s.cli.Get(ctx, root, clientv3.WithCountOnly())
				if err != nil {
					return nil, 0, fmt.Errorf("store/etcd: listing %s: %w", root, err)
				}
				current = resp.Header.Revision
			}
			if rev, err = s.oldestRevision(ctx, rev, current); err != nil {
				return nil, 0, fmt.Errorf("store/etcd: listing %s: %w", root, err)
			}
			continue
		}
		if err != nil {
			feed.cancel()
			return nil, 0, fmt.Errorf("store/etcd: listing %s: %w", root, err)
		}
		cache, err := memory.NewReplica(s.cfg.Cache, rev, objs)
		if err != nil {
			feed.cancel()
			return nil, 0, err
		}
		s.indexMu.Lock()
		defer s.indexMu.Unlock()
		for _, ix := range s.indexes {
			if err := cache.AddIndex(ix.name, ix.fn); err != nil {
				feed.cancel()
				return nil, 0, err
			}
		}
		gen := &generation{cache: cache, base: rev}
		gen.feed.Store(feed)
		gen.ctx, gen.end = context.WithCancel(context.Background())
		return gen, max(current, rev), nil
	}
}

// defaultReplay is Config.Replay's default.
const defaultReplay = 1_000

// replayDepth is how many revisions of etcd's history a new cache
// replays: Config.Replay, at most its history length.
func (s *Store) replayDepth() int64 {
	n := s.cfg.Replay
	switch {
	case n < 0:
		return 0
	case n == 0:
		n = defaultReplay
	}
	limit := s.cfg.Cache.HistoryLimit
	if limit <= 0 {
		limit = memory.DefaultHistoryLimit
	}
	return int64(min(n, limit))
}

// oldestRevision returns the oldest revision etcd still holds: the
// smallest one above compacted (a revision etcd compacted) and at most
// current that a range read succeeds at, found in a few count-only reads
// (a watch from a compacted revision would learn it only at etcd's next
// sync of such watches, up to 100ms later).
func (s *Store) oldestRevision(ctx context.Context, compacted, current int64) (int64, error) {
	lo, hi := compacted, current
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		_, err := s.cli.Get(ctx, s.layout.root(), clientv3.WithCountOnly(), clientv3.WithRev(mid))
		switch {
		case err == nil:
			hi = mid
		case errors.Is(err, rpctypes.ErrCompacted):
			lo = mid
		default:
			return 0, err
		}
	}
	return hi, nil
}

// listAt reads every object under the prefix at rev: pages of listPage
// keys, each decoded by one of GOMAXPROCS workers while the next page is
// read, so that etcd's work, the transfer and the decoding overlap.
func (s *Store) listAt(ctx context.Context, rev int64) ([]*store.Object, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	root := s.layout.root()
	end := clientv3.GetPrefixRangeEnd(root)
	pages := make(chan []*mvccpb.KeyValue, 1)
	decoded := make(chan []*store.Object, 1)
	var readErr error
	go func() {
		defer close(pages)
		for from := root; ; {
			resp, err := s.cli.Get(ctx, from, clientv3.WithRange(end), clientv3.WithLimit(listPage), clientv3.WithRev(rev))
			if err != nil {
				readErr = err
				return
			}
			if len(resp.Kvs) == 0 {
				return
			}
			select {
			case pages <- resp.Kvs:
			case <-ctx.Done():
				readErr = ctx.Err()
				return
			}
			if !resp.More {
				return
			}
			from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
		}
	}()
	var workers sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		workers.Go(func() {
			for kvs := range pages {
				decoded <- s.decodePage(kvs)
			}
		})
	}
	go func() {
		workers.Wait()
		close(decoded)
	}()
	var objs []*store.Object
	for page := range decoded {
		objs = append(objs, page...)
	}
	// The reader's last write happens before pages closes, which happens
	// before decoded closes.
	if readErr != nil {
		return nil, readErr
	}
	return objs, nil
}

// decodePage makes the versions of one page of a full list, skipping the
// keys the layout does not map and the values that do not decode. The
// values the codec recognizes are decoded when first read (see lazy).
func (s *Store) decodePage(kvs []*mvccpb.KeyValue) []*store.Object {
	objs := make([]*store.Object, 0, len(kvs))
	for _, kv := range kvs {
		key, ok := s.layout.key(string(kv.Key))
		if !ok {
			continue
		}
		if o, ok := s.lazy(key, kv.ModRevision, kv.Value); ok {
			objs = append(objs, o)
			continue
		}
		o, err := s.decode(key, kv.ModRevision, kv.Value)
		if err != nil {
			s.log.Debug("store/etcd: skipping a value that does not decode", "key", string(kv.Key), "err", err)
			continue
		}
		objs = append(objs, o)
	}
	return objs
}

// follow feeds the cache from etcd's watch until Close: it resumes the
// watch after its last revision when the watch breaks (etcd unreachable,
// a leader lost), and rebuilds the cache when etcd compacted past it.
func (s *Store) follow() {
	defer close(s.done)
	if s.cfg.CompactionInterval > 0 {
		go s.compactEvery(s.cfg.CompactionInterval)
	}
	backoff := 10 * time.Millisecond
	for s.ctx.Err() == nil {
		gen := s.gen.Load()
		err := s.watchFrom(gen)
		if s.ctx.Err() != nil {
			return
		}
		if errors.Is(err, errCompacted) {
			next, _, err := s.newGeneration(s.ctx)
			if err == nil {
				s.log.Info("store/etcd: the cache was rebuilt after a compaction", "from", gen.cache.Revision(), "to", next.cache.Revision())
				gen.next.Store(next.cache.Revision())
				s.gen.Store(next)
				gen.end()
				backoff = 10 * time.Millisecond
				continue
			}
			s.log.Warn("store/etcd: rebuilding the cache", "err", err)
		} else if err != nil {
			s.log.Debug("store/etcd: the watch ended; resuming", "revision", gen.cache.Revision(), "err", err)
		}
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

// watchFrom applies etcd's events after the cache's revision until the
// watch ends.
func (s *Store) watchFrom(gen *generation) error {
	feed := gen.feed.Swap(nil)
	if feed != nil && feed.from != gen.cache.Revision()+1 {
		feed.cancel()
		feed = nil
	}
	if feed == nil {
		feed = s.openFeed(gen.cache.Revision() + 1)
	}
	defer feed.cancel()
	// The revisions writers applied before this feed's first one are
	// never seen again.
	s.own.Range(func(rev, _ any) bool {
		if rev.(int64) < feed.from {
			s.own.Delete(rev)
		}
		return true
	})
	for resp := range feed.ch {
		if resp.CompactRevision != 0 {
			return errCompacted
		}
		if err := resp.Err(); err != nil {
			return err
		}
		if resp.IsProgressNotify() {
			gen.cache.Advance(resp.Header.Revision)
		}
		for _, ev := range resp.Events {
			s.apply(gen, ev)
		}
		// The writes of this process that follow are known to be next.
		s.applyPending()
	}
	return errors.New("store/etcd: the watch channel closed")
}

// feedWatch is the etcd watch that feeds a cache generation.
type feedWatch struct {
	from   int64 // the first revision it delivers
	ctx    context.Context
	cancel context.CancelFunc
	ch     clientv3.WatchChan
}

// openFeed opens a watch on the prefix from revision from, with progress
// notifications; it ends with the store. Progress requests go to its
// stream from then on: one sent while etcd still replays the history is
// answered right after the replay, so a new cache whose last revisions
// are writes outside the prefix reaches etcd's revision without waiting
// for the next request.
func (s *Store) openFeed(from int64) *feedWatch {
	ctx, cancel := context.WithCancel(clientv3.WithRequireLeader(s.ctx))
	ch := s.cli.Watch(ctx, s.layout.root(), clientv3.WithPrefix(), clientv3.WithRev(from), clientv3.WithProgressNotify())
	s.watchCtx.Store(&ctx)
	return &feedWatch{from: from, ctx: ctx, cancel: cancel, ch: ch}
}

// apply hands one etcd event to the cache.
func (s *Store) apply(gen *generation, ev *clientv3.Event) {
	rev := ev.Kv.ModRevision
	if rev <= gen.cache.Revision() {
		if _, ok := s.own.LoadAndDelete(rev); ok {
			return // applied by its writer (see afterWrite)
		}
		// A second key of one multi-key transaction (kapi and kube write one
		// key per transaction): the cache holds one write per revision.
		s.log.Warn("store/etcd: skipping a second write at one revision", "key", string(ev.Kv.Key), "revision", rev)
		return
	}
	key, ok := s.layout.key(string(ev.Kv.Key))
	if !ok {
		gen.cache.Advance(rev)
		return
	}
	var obj *store.Object
	if ev.Type == mvccpb.PUT {
		if p, ok := s.pending.Load(rev); ok && p.(ownWrite).key == key && p.(ownWrite).obj != nil {
			obj = p.(ownWrite).obj
		} else {
			var err error
			if obj, err = s.decode(key, rev, ev.Kv.Value); err != nil {
				s.log.Debug("store/etcd: skipping a value that does not decode", "key", string(ev.Kv.Key), "err", err)
				gen.cache.Advance(rev)
				return
			}
		}
	}
	if _, err := gen.cache.Apply(key, rev, obj); err != nil {
		if _, ok := s.own.LoadAndDelete(rev); ok {
			return // its writer applied it meanwhile
		}
		s.log.Warn("store/etcd: the cache refused an event", "key", key, "err", err)
	}
}

// listEtcd serves an Exact list older than the cache's history from etcd,
// as kube's cacher delegates such lists to storage. It reads every key
// under the store's prefix at the revision (kapi's key order is not
// etcd's across resources) and pages in kapi's order.
func (s *Store) listEtcd(ctx context.Context, gen *generation, prefix string, opts store.ListOptions) (store.ListResult, error) {
	if opts.Start != "" && !strings.HasPrefix(opts.Start, prefix) {
		return store.ListResult{}, fmt.Errorf("store/etcd: start key %q is not under prefix %q", opts.Start, prefix)
	}
	if opts.Limit < 0 {
		return store.ListResult{}, fmt.Errorf("store/etcd: negative limit %d", opts.Limit)
	}
	root := s.layout.root()
	end := clientv3.GetPrefixRangeEnd(root)
	var all []*store.Object
	for from := root; ; {
		resp, err := s.cli.Get(ctx, from, clientv3.WithRange(end), clientv3.WithLimit(listPage), clientv3.WithRev(opts.Revision))
		if errors.Is(err, rpctypes.ErrCompacted) {
			return store.ListResult{}, &store.ExpiredError{Requested: opts.Revision, Oldest: gen.cache.Oldest()}
		}
		if err != nil {
			return store.ListResult{}, err
		}
		for _, kv := range resp.Kvs {
			key, ok := s.layout.key(string(kv.Key))
			if !ok || !strings.HasPrefix(key, prefix) {
				continue
			}
			o, err := s.decode(key, kv.ModRevision, kv.Value)
			if err != nil {
				return store.ListResult{}, err
			}
			all = append(all, o)
		}
		if !resp.More || len(resp.Kvs) == 0 {
			break
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Key() < all[j].Key() })
	res := store.ListResult{Revision: opts.Revision, Total: int64(len(all))}
	start := max(prefix, opts.Start)
	i := sort.Search(len(all), func(i int) bool { return all[i].Key() >= start })
	for ; i < len(all); i++ {
		o := all[i]
		if opts.Limit > 0 && len(res.Items) == opts.Limit {
			res.Next = o.Key()
			break
		}
		if opts.Filter == nil || opts.Filter(o) {
			res.Items = append(res.Items, o)
		}
	}
	return res, nil
}

// compactRevKey is the key kube-apiservers sharing an etcd coordinate
// compaction through; kapi takes part the same way, so a mixed set of
// servers compacts once per interval.
const compactRevKey = "compact_rev_key"

// compactEvery compacts etcd each interval to the revision seen the
// interval before, as kube-apiserver's compactor: the servers race to
// bump compact_rev_key's version, and only the winner compacts.
func (s *Store) compactEvery(interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	var version, rev int64
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(s.ctx, interval)
		v, r, err := s.compactOnce(ctx, version, rev)
		cancel()
		if err != nil {
			s.log.Warn("store/etcd: compaction", "err", err)
			continue
		}
		version, rev = v, r
	}
}

// compactOnce is one round of kube's compaction protocol: it claims
// round version+1 by writing rev into compact_rev_key and, if it won and
// rev is known, compacts to rev. It returns the round and the revision to
// compact to next time.
func (s *Store) compactOnce(ctx context.Context, version, rev int64) (int64, int64, error) {
	resp, err := s.cli.Txn(ctx).
		If(clientv3.Compare(clientv3.Version(compactRevKey), "=", version)).
		Then(clientv3.OpPut(compactRevKey, strconv.FormatInt(rev, 10))).
		Else(clientv3.OpGet(compactRevKey)).
		Commit()
	if err != nil {
		return version, rev, err
	}
	cur := resp.Header.Revision
	if !resp.Succeeded {
		kvs := resp.Responses[0].GetResponseRange().Kvs
		if len(kvs) == 0 {
			return 0, cur, nil
		}
		return kvs[0].Version, cur, nil
	}
	if rev != 0 {
		s.compact(ctx, rev)
	}
	return version + 1, cur, nil
}
