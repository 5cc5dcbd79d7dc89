package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
	"github.com/kapi-dev/kapi/store/storetest/internal/require"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

func testHistory(t *testing.T, newStore Factory) {
	t.Run("every watcher from every start revision sees exactly the events after it, and replaying them gives the final list", func(t *testing.T) {
		checkHistory(t, newStore(t, Options{}), historyCheck{writers: 4, writes: 400, watchers: 60})
	})
	t.Run("watchers that fall out of a small history get ExpiredError, never a gap", func(t *testing.T) {
		checkHistory(t, newStore(t, Options{HistoryLimit: 40}), historyCheck{writers: 4, writes: 300, watchers: 30, slow: true})
	})
}

// historyCheck configures checkHistory.
type historyCheck struct {
	writers, writes int  // concurrent writers and writes each
	watchers        int  // watchers started while writing, besides the fixed ones
	slow            bool // consumers dawdle, so a small history expires them
}

// observed is what one watcher saw.
type observed struct {
	start   int64
	prefix  string
	initial []*store.Object // List(prefix) at start; nil when it was no longer readable
	events  []store.Event
	err     error
}

// checkHistory runs concurrent random creates, updates and deletes over a
// small key space while watchers, started before, during and after the
// writes at many revisions and prefixes, record everything. Then it checks,
// in the spirit of etcd's and kube's history checkers:
//
//   - the full log (a watcher on "/" from revision 1) holds every revision
//     from 2 to the final one exactly once, and each is the write a writer
//     saw succeed, with the right type, key, object and Prev;
//   - every other watcher received exactly the full log's events after its
//     start revision under its prefix, in order: none lost, duplicated or
//     reordered; with a small history a watcher may instead end with an
//     *ExpiredError, after a gap-free prefix of them;
//   - replaying a complete watcher's events onto List(prefix) at its start
//     revision gives List(prefix) at the final revision.
func checkHistory(t *testing.T, s store.Store, cfg historyCheck) {
	ctx := t.Context()
	keySpace := []string{"/h/a/", "/h/b/", "/x/"}
	prefixes := []string{"/", "/h/", "/h/a/", "/h/b/", "/x/", "/h/a/k001"}
	var allKeys []string
	for _, p := range keySpace {
		for i := range 4 {
			allKeys = append(allKeys, p+name(i))
		}
	}

	var (
		mu      sync.Mutex
		watches []*observed
		written = map[int64]change{}
		final   atomic.Int64
		consume sync.WaitGroup
		// The watchers give up waitLong after the writes end: the writes
		// themselves may take long on a loaded machine (under -race, over
		// etcd), and are bounded by the test's own timeout.
		deadline atomic.Int64 // unix nanoseconds; 0 while writing
	)
	startWatch := func(rev int64, prefix string, seed uint64) {
		w, err := s.Watch(ctx, prefix, store.WatchOptions{Revision: rev})
		if err != nil {
			var ee *store.ExpiredError
			check.ErrorAs(t, err, &ee, "watch %s from %d", prefix, rev)
			return
		}
		ob := &observed{start: w.Revision(), prefix: prefix}
		if rev != 0 {
			check.Equal(t, rev, ob.start)
		}
		if res, err := s.List(ctx, prefix, store.ListOptions{Revision: ob.start, Match: store.Exact}); err == nil {
			ob.initial = res.Items
		}
		mu.Lock()
		watches = append(watches, ob)
		mu.Unlock()
		consume.Add(1)
		go func() {
			defer consume.Done()
			defer w.Stop()
			rng := rand.New(rand.NewPCG(seed, 7))
			for {
				if f := final.Load(); f != 0 && w.Revision() >= f {
					return
				}
				if d := deadline.Load(); d != 0 && time.Now().UnixNano() > d {
					ob.err = fmt.Errorf("watcher %s from %d stuck at %d", prefix, ob.start, w.Revision())
					return
				}
				nctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
				evs, err := w.Next(nctx)
				cancel()
				if errors.Is(err, context.DeadlineExceeded) {
					continue
				}
				if err != nil {
					ob.err = err
					return
				}
				ob.events = append(ob.events, evs...)
				if cfg.slow && rng.IntN(4) == 0 {
					time.Sleep(time.Duration(rng.IntN(3)) * time.Millisecond)
				}
			}
		}()
	}

	// The full log, and watchers on every prefix from the very beginning.
	startWatch(1, "/", 0)
	for i, p := range prefixes {
		startWatch(0, p, uint64(i+1))
	}

	record := func(typ store.EventType, o *store.Object) {
		mu.Lock()
		defer mu.Unlock()
		_, dup := written[o.Revision()]
		check.False(t, dup, "two writes returned revision %d", o.Revision())
		written[o.Revision()] = change{Type: typ, Revision: o.Revision(), Object: versionOf(o)}
	}
	var writers sync.WaitGroup
	for w := range cfg.writers {
		writers.Add(1)
		go func() {
			defer writers.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 11))
			for i := range cfg.writes {
				if i%10 == 9 {
					time.Sleep(50 * time.Microsecond) // let watchers start between writes
				}
				k := allKeys[rng.IntN(len(allKeys))]
				switch rng.IntN(4) {
				case 0:
					o, err := s.Create(ctx, k, object(keyName(k), "w", fmt.Sprint(w, "/", i)))
					if err == nil {
						record(store.Added, o)
					} else {
						check.ErrorIs(t, err, store.ErrExists)
					}
				case 1:
					o, err := s.Delete(ctx, k, store.Preconditions{}, nil)
					if err == nil {
						record(store.Deleted, o)
					} else {
						check.ErrorIs(t, err, store.ErrNotFound)
					}
				default:
					created := false
					o, err := s.Update(ctx, k, store.UpdateOptions{AllowCreate: rng.IntN(2) == 0}, func(cur *store.Object) (meta.Object, error) {
						created = cur == nil
						if cur == nil {
							return object(keyName(k), "w", fmt.Sprint(w, "/", i)), nil
						}
						return withData(cur, "w", fmt.Sprint(w, "/", i)), nil
					})
					switch {
					case err == nil && created:
						record(store.Added, o)
					case err == nil:
						record(store.Modified, o)
					default:
						check.ErrorIs(t, err, store.ErrNotFound)
					}
				}
			}
		}()
	}
	writesDone := make(chan struct{})
	go func() { writers.Wait(); close(writesDone) }()

	// More watchers while the writes go on, at random past revisions.
	rng := rand.New(rand.NewPCG(99, 100))
	for i := range cfg.watchers {
		time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond)
		startWatch(rng.Int64N(s.Revision()+1), prefixes[rng.IntN(len(prefixes))], uint64(100+i))
	}
	<-writesDone
	deadline.Store(time.Now().Add(waitLong).UnixNano())
	end := s.Revision()
	final.Store(end)
	// Watchers that start after the last write.
	startWatch(0, "/", 1000)
	startWatch(end, "/h/", 1001)
	startWatch(max(1, end-5), "/h/", 1002)
	consume.Wait()
	require.False(t, t.Failed())

	finals := map[string][]version{}
	for _, p := range prefixes {
		finals[p] = versions(listAll(t, s, p, end).Items)
	}

	// The expected log, rebuilt from what the writers saw: every revision
	// from 2 to end is one successful write, and Prev is the version of the
	// same key written before.
	require.Len(t, written, int(end-1), "every revision is a successful write")
	log := make([]change, 0, end-1)
	last := map[string]version{}
	for rev := int64(2); rev <= end; rev++ {
		c, ok := written[rev]
		require.True(t, ok, "no write returned revision %d", rev)
		c.Prev = last[c.Object.Key]
		if c.Type == store.Deleted {
			delete(last, c.Object.Key)
		} else {
			last[c.Object.Key] = c.Object
		}
		log = append(log, c)
	}
	require.Equal(t, int64(1), watches[0].start)
	require.Equal(t, "/", watches[0].prefix)
	if !cfg.slow {
		require.NoError(t, watches[0].err)
		require.Len(t, watches[0].events, len(log), "the watcher from revision 1 saw every revision")
	}

	complete, expired := 0, 0
	for _, ob := range watches {
		want := nilIfEmpty(after(log, ob.start, ob.prefix))
		got := nilIfEmpty(changes(ob.events))
		if ob.err != nil {
			var ee *store.ExpiredError
			require.ErrorAs(t, ob.err, &ee, "watch %s from %d", ob.prefix, ob.start)
			require.True(t, cfg.slow, "only a small history expires watchers")
			require.LessOrEqual(t, len(got), len(want))
			require.Equal(t, nilIfEmpty(want[:len(got)]), got, "watch %s from %d: events before the expiry", ob.prefix, ob.start)
			expired++
			continue
		}
		require.Equal(t, want, got, "watch %s from %d", ob.prefix, ob.start)
		for _, e := range ob.events {
			require.Equal(t, e.Revision, e.Object.Revision())
			require.Equal(t, rv(e.Revision), e.Object.Data().ResourceVersion())
			require.Equal(t, e.Type == store.Added, e.Prev == nil)
		}
		complete++
		if ob.initial == nil && ob.start > 1 {
			continue
		}
		state := map[string]version{}
		for _, o := range ob.initial {
			state[o.Key()] = versionOf(o)
		}
		for _, e := range ob.events {
			c := changeOf(e)
			prev, ok := state[c.Object.Key]
			switch e.Type {
			case store.Added:
				require.False(t, ok, "ADDED %s at %d over an existing object", c.Object.Key, c.Revision)
				state[c.Object.Key] = c.Object
			case store.Modified:
				require.Equal(t, prev, c.Prev, "MODIFIED %s at %d: Prev is not the replayed state", c.Object.Key, c.Revision)
				state[c.Object.Key] = c.Object
			case store.Deleted:
				require.Equal(t, prev, c.Prev, "DELETED %s at %d: Prev is not the replayed state", c.Object.Key, c.Revision)
				delete(state, c.Object.Key)
			}
		}
		var replayed []version
		for _, v := range state {
			replayed = append(replayed, v)
		}
		slices.SortFunc(replayed, func(a, b version) int { return strings.Compare(a.Key, b.Key) })
		require.Equal(t, nilIfEmpty(finals[ob.prefix]), nilIfEmpty(replayed), "replaying watch %s from %d", ob.prefix, ob.start)
	}
	if cfg.slow {
		check.GreaterOrEqual(t, complete, 3, "the watchers started after the writes complete")
	} else {
		check.Equal(t, len(watches), complete, "every watcher completes")
	}
	t.Logf("%d revisions, %d watchers complete, %d expired", end, complete, expired)
}
