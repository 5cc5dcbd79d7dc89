// Package meta is kapi's small shared vocabulary: the JSON-shaped [Object]
// with typed accessors for its metadata, group/version/kind/resource names,
// and [Status], the one error type every layer returns and the API server
// writes on the wire.
//
// # Objects are values, stored versions are immutable
//
// An Object is a map decoded from JSON. Code that builds a new version of an
// object owns its map and may change it; once a version has been handed to a
// store it is shared by every reader (GET, every page of a LIST, every
// watcher) and must never be changed again. [Object.DeepCopy] gives a
// private copy to change.
//
// # Errors are Statuses
//
// Every failure that reaches a client is a *Status with the code, reason,
// message and details a real kube-apiserver would send, so that client-go's
// apierrors predicates (IsNotFound, IsConflict, IsInvalid, ...) classify it
// correctly. Constructors are named after the reason: [NotFound],
// [AlreadyExists], [Conflict], [Invalid], [BadRequest], [Expired], ...
// [AsStatus] turns any error into a Status, mapping unknown errors to 500.
package meta
