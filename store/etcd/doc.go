// Package etcd is a store.Store over etcd v3, for kapi servers whose data
// must survive a restart or be served by several processes: the store
// Kubernetes itself is built on, in the layout and encodings
// kube-apiserver uses, so kapi and kube-apiserver can serve one etcd.
//
// # Writes
//
// Every API write is one etcd transaction on one key: a create succeeds
// only if the key is absent (create revision 0), an update or delete only
// if the key's mod revision is still that of the version its
// preconditions, tryUpdate or validate saw; a failed comparison returns
// the newer version in the same round trip, and the write is tried again
// on it. Values carry no metadata.resourceVersion: an object's version is
// its etcd mod revision, and the store's revisions are etcd's. A fresh
// etcd is at revision 1, as an empty store.Store.
//
// # The watch cache
//
// Each Store keeps a memory.Store replica (memory.NewReplica) fed by one
// etcd watch on the prefix, as kube-apiserver's cacher: Get, List and
// Watch are served from it, with its encodings cached per version. A read
// of the newest state (Get, List at revision 0) first reads etcd's current
// revision (one linearizable request at a time, shared by the reads that
// arrived before it started; see revisionFetcher for how it is held so
// that readers in a closed loop share one) and waits for the cache to
// reach it, asking etcd for a progress notification when the revision is
// a write the cache does not hold: kube's ConsistentListFromCache. So
// several processes over one etcd each see the others' writes, in
// revision order, and a process's own writes are in its cache before they
// return: a write is applied to the cache as soon as the cache holds the
// revision before it (a one-key transaction's revision holds nothing
// else), by whoever brought it there (the writer of that revision or the
// feed), without waiting for the event to come back through the watch,
// which then skips it. An Exact list older than
// the cache's history is read from etcd; a watch older than it is an
// *ExpiredError. A new cache replays the last Config.Replay revisions of
// etcd's history, so a watch from one of them (an informer's, after the
// server restarted) resumes instead of relisting; a watch from before the
// revision it was listed at expires. It opens its etcd watch before it
// lists, so that etcd's replay of the history overlaps the list, reads the
// list in pages, and keeps the values its Codec recognizes (Sniffer) as
// etcd holds them, decoding each when it is first read
// (store.NewEncodedObject): a start-up costs about the transfer of the
// values. When the cache's watch breaks it resumes after the last
// revision applied; when etcd compacted past it, the cache is rebuilt
// from a fresh list and its watchers expire (410 to clients, which
// relist).
//
// A read at "any" revision (List NotOlderThan 1, what the API server asks
// for resourceVersion=0, and for the namespace a create goes into) is
// served from the cache without asking etcd, as kube's watch cache and
// informers serve them, also while etcd is unreachable.
//
// # Failures
//
// A write whose etcd requests do not complete within Config.WriteTimeout
// (34s) fails with kube's 504 Status "Timeout: request did not complete
// within requested timeout - context deadline exceeded"; a read that
// cannot learn etcd's revision within Config.ReadTimeout (60s) with
// "Timeout: request did not complete within the allotted timeout"
// (docs/kube-behaviour/09-etcd.md). A write is one transaction, so a
// failed one leaves nothing behind. Healthy is kube's "etcd" health check.
//
// # Layout and encodings
//
// kapi's keys "/<resource>.<group>/<namespace>/<name>" are stored under
// kube's keys (see layout): "<prefix>/<resource>/<namespace>/<name>" for
// built-in resources, with kube's own paths for a few
// ("<prefix>/services/specs/..."), and "<prefix>/<group>/<resource>/..."
// for custom resources; a record of no served kind keeps its key
// ("/ranges/servicenodeports" at "<prefix>/ranges/servicenodeports", the
// node ports kapi and kube-apiserver share). Values go through a Codec:
// JSON by default, Kube for kube's protobuf envelope of built-in kinds
// and of that record's RangeAllocation.
//
// # Compaction
//
// Every CompactionInterval the store takes part in kube-apiserver's
// compaction protocol (compact_rev_key): one of the servers sharing the
// etcd compacts to the revision seen one interval before.
package etcd
