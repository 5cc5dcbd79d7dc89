// Package store defines how kapi keeps API objects: the [Store] interface
// every backend implements, immutable stored versions ([Object]) that cache
// their encodings, revisions, snapshots for consistent lists, and watch
// history.
//
// # Revisions
//
// One global int64 counts writes: an empty store is at revision 1 (so 0 can
// mean "any") and every create, update or delete adds one. An object's
// metadata.resourceVersion is the decimal revision of its last write; a
// list's is the revision of the snapshot it was read from.
//
// # Optional capabilities
//
// A backend may also be an [Indexer] (secondary indexes for List) and a
// [BulkDeleter] (many deletes in one call, each at its own revision, as a
// deletecollection needs); storetest covers both when a backend has them.
//
// # Errors
//
// Backends return the sentinels [ErrNotFound] and [ErrExists] and the typed
// [*PreconditionError], [*ExpiredError] and [*FutureRevisionError]; the API
// server turns them into Kubernetes Statuses. store/storetest is the
// conformance suite every backend passes; store/memory is the default
// backend.
package store
