// Package apiserver is kapi's http.Handler: the Kubernetes API for the
// resource types a Server is configured with, answered as kube-apiserver
// 1.33 answers it.
//
//	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(),
//		OpenAPIComponents: builtin.OpenAPIComponents()})
//	http.ListenAndServe("127.0.0.1:8080", srv)
//
// # Requests
//
// A request's path and method give its request info (verb, group, version,
// namespace, resource, name, subresource; package requestinfo). With a
// Config.Authenticator or Authorizer, filters stand in front of the handler
// in kube-apiserver's order: authentication (401) → impersonation → flow
// control (Config.FlowControl: API Priority and Fairness, package
// flowcontrol; 429) → authorization (403). Paths outside
// the API (discovery, /version, health, OpenAPI) are answered from the
// registry of served types. Resource requests go through one pipeline, in
// the order of docs/design.md:
//
//	decode by Content-Type (415, 413) → patch or apply merge
//	→ prune unknown fields (field validation: Warn/Strict/Ignore)
//	→ defaults (schema, Strategy.Default) → managedFields
//	→ mutating admission → Strategy.PrepareForCreate → validation
//	(ObjectMeta, Strategy.NameErrors, Strategy.Validate[Update], schema)
//	→ validating admission → store (not with dryRun=All)
//	→ Strategy.AfterWrite → encode by Accept (JSON, YAML, protobuf, Table;
//	gzip)
//
// Updates run that pipeline inside the store's guaranteed update, so it sees
// the object actually replaced and re-runs on a concurrent write: no update
// is lost and none is half-applied. Every failure is a *meta.Status with
// kube's code, reason, message and details.
//
// # Types
//
// A type is a Resource (names, scope, schema, columns, field selectors,
// status and scale) and a Strategy: everything the kind does differently
// from the generic pipeline, which never asks which kind it holds
// (strategy.go states the hooks and their order). Namespaces, CRDs and
// custom resources have theirs in files of their own; kube's built-in
// kinds are in package builtin, one file each.
//
// The registry of served types is immutable and swapped atomically: a
// CustomResourceDefinition write derives the next one, changing only that
// CRD's types, before its response, so a new type is served as soon as its
// CRD's create returns. What a stored CRD version serves is derived once
// per version (store.Object.Derived). Namespaces and CRDs are always
// served.
//
// # Encodings and memory
//
// Every stored object version caches its encodings (one per codec), shared
// by GETs, list pages and every watcher; lists and watch events are framed
// around those encodings by the codec (codec.Framer) and streamed. Once its JSON is cached a stored version is compacted to it
// (store.Object.Compact) and decoded again only when its data is needed, so
// a stored object costs about its JSON size.
//
// # Watches
//
// A watch is a cursor over the store's history (no fan-out goroutine): it
// sends the events after its start revision, translated for its selectors,
// with bookmarks when asked, until the client leaves, timeoutSeconds pass
// or the history window overtakes it (a final 410 ERROR event).
//
// # Start-up, health and metrics
//
// New runs Config.PostStartHooks before it returns (package builtin's
// create the default/kubernetes Service and the APIServices kube
// registers); a hook talks to the server through Server.Do (the whole
// pipeline, as the privileged loopback user) or stores start-up objects
// directly (Server.Preload). /livez, /readyz and /healthz list kube's named
// checks (serve_health.go; Config.HealthChecks adds or replaces one, a store's
// "etcd"); /metrics serves kube's apiserver_* families from a
// metrics.Registry others register on (server_instrument.go, package metrics).
//
// # Writes that take more than the object
//
// A Strategy that is an Allocator (a Service's cluster IPs and node ports)
// allocates after mutating admission and has the allocation committed or
// reverted with the store write (strategy_allocation.go), keeping what several
// servers on one store must share in records of the store that no API
// serves, changed by compare and swap (Write.UpdateRecord: kube's node
// port RangeAllocation); one that is also a Repairer rebuilds such records
// from the objects in a pass that Server.Repair runs (kube-apiserver's
// repair loops; package controllers runs them periodically) (strategy_repair.go). One that is a GracefulDeleter (pods) is kept for
// a grace period when deleted (write_delete.go). A deletecollection of a kind with Resource.GenericDelete (every
// built-in kind but pods, services and CRDs; custom resources) removes
// those without finalizers in one bulk store call without decoding them,
// when no admission plugin sees deletes (write_deletebulk.go), with the events
// and revisions one DELETE each would leave. Subresources that serve
// themselves (binding, eviction, log, exec, proxy…) get the object, other
// objects (Write.Get, List, Update, Create, Delete) and the request
// (SubresourceCall).
package apiserver
