// Package fieldmanager is kapi's server-side apply and field ownership:
// it maintains metadata.managedFields on every write and merges apply
// requests, exactly as kube-apiserver does, on top of
// sigs.k8s.io/structured-merge-diff (SMD), the reference implementation
// kube-apiserver itself uses.
//
// # Two calls
//
// A [Manager] serves one kind (New converts the kind's parsed schema to
// SMD's, see Schemas below; a nil schema means none). Every write goes
// through one of:
//
//   - [Manager.Update] for create, update and (non-apply) patch: given
//     the stored object (nil on create) and the object about to be stored,
//     it returns the latter with managedFields updated. The writer's
//     Update entry owns the fields it added or changed; other managers
//     lose the fields that changed or went away. It never fails.
//   - [Manager.Apply] for PATCH with application/apply-patch+yaml: given
//     the stored object (nil on create) and the applied configuration, it
//     returns the merged object with managedFields updated, or a
//     *meta.Status: 409 Conflict when the apply would change fields other
//     managers own (unless Options.Force), 400 or 500 like kube-apiserver
//     for other failures.
//
// A write through a /scale subresource is tracked on the autoscaling/v1
// Scale it shows (a Manager of schema.Scale()): [ScaleManagedFields] makes
// the Scale's managedFields from the object's, [ParentManagedFields]
// carries the result back, with kube's rules (scale.go).
//
// [Options] name the manager (the fieldManager parameter, or
// [ManagerFromUserAgent] for non-apply writes without one), the
// subresource written through, the endpoint's apiVersion, force, and the
// time to record.
//
// # What is matched
//
// kube-apiserver 1.33 (apimachinery's pkg/util/managedfields/internal and
// kube-openapi's pkg/schemaconv): the FieldsV1 wire format (f:, k:, v:,
// i:, "."); manager identity (manager, operation, subresource, and
// apiVersion for Update entries only, so one applier keeps one entry
// across versions); entry order (operation, time in seconds, manager,
// apiVersion, subresource); times only stamped when a write changed
// something (a no-op apply by a new manager even records no time); the
// metadata nobody owns; empty entries dropped; an object created with
// nothing set has no managedFields, and one without managedFields is not
// tracked by updates until it is applied to ("before-first-apply"); a
// request's managedFields taken as the new state when they decode, `[]`
// and `[{}]` clearing them, undecodable ones ignored; entries at versions
// the kind does not serve dropped; more than 10 Update entries merged into
// "ancient-changes"; conflict messages and causes; kubectl's upgrade from
// client-side apply (the last-applied-configuration annotation); the reset
// fields of subresources; a built-in object created from the Go zero
// value of its kind (derived from its OpenAPI, see zero.go), a custom
// resource from apiVersion and kind alone; kube's error messages, down to
// SMD's ("failed to create typed patch object (...): .data.a: expected
// string, got &value.valueUnstructured{Value:1}"). Every scenario test
// was replayed against a real kube-apiserver 1.33 (see reference_test.go).
//
// The difference: kube lists a 409's causes in map order; here they are
// sorted by manager and path.
//
// # Design
//
// kube builds its field manager as a chain of eight decorators. Here
// Update and Apply are each one linear function over SMD's merge.Updater
// whose steps follow that chain from the outside in: choose the tracked
// state (request's or live's), skip untracked objects, build the manager's
// identity, let SMD compute ownership, strip the metadata nobody owns,
// stamp times, cap Update entries, encode and sort. Apply adds the version
// check, the before-first-apply entry, the kubectl retry and the
// last-applied annotation.
//
// # Schemas
//
// A Manager takes its kind's schema parsed by package schema, never raw
// OpenAPI: a CRD version's openAPIV3Schema from schema.Parse (the one
// apiserver validates custom resources with), or a built-in kind's
// component from schema.ParseComponents (package builtin's). Package
// schema resolves every $ref; this package only reads the parsed model
// (types, formats, properties and their defaults, additionalProperties,
// items, nullable, x-kubernetes-list-type, -list-map-keys, -map-type,
// -patch-strategy, -patch-merge-key, -preserve-unknown-fields,
// -int-or-string, -embedded-resource, and Schema.Component, which keeps
// each component a named SMD type as schemaconv keeps $refs). A schema
// whose metadata is not a component (a CRD's) gets schema.ObjectMeta(),
// and so does every embedded resource, as apiextensions-apiserver does.
// The zero value a built-in object starts from (zero.go) is read from the
// same model.
//
// The conversion is done once per parsed schema: New keeps it with the
// schema (schema.Schema.Derived), so every Manager of one schema (every
// registration of a CRD version, every server of a built-in kind) shares
// it. Keep a Manager with its kind (apiserver keeps it with the type's
// registration, built on the type's first write), never make one per
// request.
//
// All versions of a kind share one schema and convert to each other by
// identity (a CRD with conversion strategy None); Config.Versions names
// the versions whose entries are kept. A CRD whose versions convert
// through a webhook gives each version's schema (Config.VersionSchemas)
// and the conversion (Options.Convert, per write): managers recorded at
// another version are then compared at theirs, on the objects converted,
// as kube-apiserver compares them (only writes with such managers convert;
// each costs the conversions SMD asks for).
//
// # Concurrency and cost
//
// A Manager is immutable: any number of goroutines may share it. Inputs
// are never modified. Update returns obj with new metadata (sharing the
// rest); Apply returns a fresh object. Each call converts the objects to
// SMD values and walks them a few times: tens of microseconds for a small
// object (see BenchmarkUpdate, BenchmarkApply).
//
// # Example
//
// A ConfigMap created by one client, then applied to by another:
//
//	m, _ := fieldmanager.New(meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, nil)
//
//	created := m.Update(nil, meta.Object{
//		"apiVersion": "v1", "kind": "ConfigMap",
//		"metadata": map[string]any{"name": "cfg"},
//		"data":     map[string]any{"color": "red"},
//	}, fieldmanager.Options{Manager: fieldmanager.ManagerFromUserAgent("kref/1.0")})
//	// created.metadata.managedFields:
//	// - manager: kref, operation: Update, apiVersion: v1, time: ...,
//	//   fieldsType: FieldsV1, fieldsV1: {"f:data": {".": {}, "f:color": {}}}
//
//	_, err := m.Apply(created, meta.Object{
//		"apiVersion": "v1", "kind": "ConfigMap",
//		"metadata": map[string]any{"name": "cfg"},
//		"data":     map[string]any{"color": "blue"},
//	}, fieldmanager.Options{Manager: "deployer"})
//	// err: 409 "Apply failed with 1 conflict: conflict with \"kref\" using v1: .data.color"
//
//	applied, _ := m.Apply(created, /* same */, fieldmanager.Options{Manager: "deployer", Force: true})
//	// applied.data.color is "blue"; "deployer" (Apply) now owns
//	// .data.color (and, without a schema, .data), "kref" only .data.
package fieldmanager
