// Package memory is kapi's default store.Store: every object in memory, in
// a copy-on-write B-tree (github.com/google/btree), with a snapshot of the
// whole tree for every recent revision.
//
//	           Create / Update / Delete
//	                      |
//	             [ one writer mutex ]
//	                      |  path-copy the live B-tree, Clone() it: O(1)
//	                      v
//	history ring  | 7 | 8 | 9 | 10 | 11 |   <- watchers pull batches
//	 (revision,                        |       under a read lock
//	  event,                           v
//	  snapshot)          current (atomic pointer)  <- Get and List,
//	                                                  no lock at all
//
// # Invariants
//
//   - Revisions are dense: the empty store is at revision 1 and every
//     create, update and delete adds exactly one. Failed and empty writes
//     (an Update whose tryUpdate returns the current data) add none.
//   - A stored version (*store.Object) never changes once published: a
//     write builds a new version, and its metadata.resourceVersion is
//     stamped before publication. A delete's result and DELETED event carry
//     the last state stamped with the deletion revision (store.NewDeleted:
//     made from the version deleted when first read, never at the commit).
//   - Only the writer touches the live tree, and only under the writer
//     mutex; it clones the live tree after each write and publishes the
//     clone. Published snapshots are never written to nor cloned (Clone
//     writes to its receiver, so cloning a snapshot others read is a data
//     race).
//   - The history is one ring indexed by revision: the entry for revision r
//     holds the event that made r and the snapshot after it, at slot
//     r - oldest. It always holds the current revision. Watchers and Exact
//     lists read it; nothing else keeps old state alive.
//   - A bulk delete (DeleteVersions) commits its deletes by chunks of 256,
//     one revision and event each, under one hold of the writer mutex per
//     chunk. Only a chunk's last revision gets a snapshot (the trees change
//     in place in between, so no path is copied per delete); an Exact list
//     at a revision inside the chunk rebuilds that snapshot from the
//     chunk's last one, putting back the objects deleted after it.
//
// # Concurrency
//
// Get, List of the current revision and Revision take no lock: they load
// the current snapshot through an atomic pointer. Commits are serialised by
// one mutex and hold the history's lock exclusively only to append an entry
// and evict old ones. Update and Delete run tryUpdate and validate without
// any lock, then commit only if the version they saw is still the live one
// (pointer identity), retrying otherwise: optimistic concurrency without a
// lost update. Watchers are cursors: Next copies up to 100 entries after its
// cursor under the history's read lock, together with the channel the next
// commit closes, and filters them after unlocking. No goroutine runs per
// watcher, writers never wait for a watcher, and a slow watcher only lags
// until the history drops its next entry, when Next reports an
// *store.ExpiredError once and the watcher is finished.
//
// # Costs
//
// With n objects: Get O(log n); a commit O(log n) to path-copy the B-tree,
// O(1) to clone and publish, amortised O(1) to append to the ring; Watch
// O(1) to start; a List page O(log n + limit) (with a Filter,
// O(log n + objects scanned); through an index (AddIndex), O(log n) per
// object filed under the value); ListResult.Total O(log n) for a prefix
// ending in "/", kept in a second copy-on-write tree of per-prefix counts,
// and O(objects under prefix) otherwise. An index is one more
// copy-on-write tree that a commit path-copies only when the value of the
// key it writes changes. Memory: the live objects, plus, per revision in
// the history, the path the write copied (about 4 KB at 100k objects) and
// the objects it replaced.
//
// # History window
//
// The ring drops its oldest entry when appending (and lazily when read, so
// no background goroutine is needed) while any of these holds:
//
//	len > Config.HistoryLimit and oldest older than Config.MinHistoryAge
//	len > Config.MaxHistory
//	oldest older than Config.MaxHistoryAge
//
// so a burst of writes keeps everything younger than MinHistoryAge (up to
// MaxHistory), and an idle store forgets all but the current revision
// after MaxHistoryAge. [Store.Oldest] is the oldest revision still readable.
//
// # A worked example
//
// A new store, then three writes and a Compact:
//
//	op                  rev  live            ring (revision: event, snapshot)
//	New                 1    {}              1: -, {}
//	Create /a/x         2    {x@2}           1: -, {}      2: ADDED x@2, {x@2}
//	Create /a/y         3    {x@2 y@3}       1 2           3: ADDED y@3, {x@2 y@3}
//	Delete /a/x         4    {y@3}           1 2 3         4: DELETED x@4 (Prev x@2), {y@3}
//	Compact(3)          4    {y@3}           3 4           (Oldest() = 3)
//
// After the Compact, List(Exact 2) is an *store.ExpiredError{2, 3};
// List(Exact 3) reads {x@2 y@3}; Watch(Revision 2) gets the events of 3 and
// 4 (events after 2 are all still kept); Watch(Revision 1) is expired; and
// List(NotOlderThan 6) waits up to Config.FutureWait for revision 6 before
// failing with *store.FutureRevisionError.
package memory
