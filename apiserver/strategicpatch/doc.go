// Package strategicpatch applies Kubernetes strategic merge patches
// (Content-Type "application/strategic-merge-patch+json") to JSON-shaped
// objects, with kube-apiserver's semantics, results and error messages.
//
// # Contract
//
//	func Apply(original, patch map[string]any, schema Schema) (map[string]any, error)
//
// original and patch are decoded JSON: map[string]any, []any, string, bool,
// int64 for integers, float64 for other numbers, nil. Apply modifies
// neither, and the result shares no memory with them, so a stored,
// immutable original can be patched while readers use it, and the caller
// may change the result. Apply never panics, whatever the patch; it is
// safe for concurrent use. It costs one copy of original plus, for each
// list it merges, work linear in the list sizes (merge keys and primitive
// items are looked up through hash indexes; Kubernetes' own code is
// quadratic there) and a sort of the merged items.
//
// The schema gives each field's x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key; a nil Schema (for the whole object or
// below some field) means unknown: objects merge, lists are replaced. An
// adapter over package schema is a few lines:
//
//	type patchSchema struct{ s *schema.Schema }
//
//	func wrap(s *schema.Schema) strategicpatch.Schema {
//		if s == nil {
//			return nil // a nil interface, not a typed nil
//		}
//		return patchSchema{s}
//	}
//	func (p patchSchema) Property(n string) strategicpatch.Schema { return wrap(p.s.Property(n)) }
//	func (p patchSchema) ItemSchema() strategicpatch.Schema      { return wrap(p.s.ItemSchema()) }
//	func (p patchSchema) PatchStrategy() string                  { return p.s.PatchStrategy() }
//	func (p patchSchema) PatchMergeKey() string                  { return p.s.PatchMergeKey() }
//
// # Semantics
//
// The rules are those of k8s.io/apimachinery's strategicpatch as
// kube-apiserver runs it (StrategicMergeMapPatch); the Kubernetes documents
// are "Update API Objects in Place Using kubectl patch" and the design
// document "strategic-merge-patch.md" of kubernetes/community.
//
//   - Objects merge field by field. A null patch value deletes the field.
//     A patch value replaces a scalar, a field of another type, or a
//     field the original lacks; such a value is taken without its null
//     fields and without the objects holding "$patch" (nested anywhere).
//   - An object field with strategy "replace" is replaced by the patch
//     value as it is.
//   - A list without strategy "merge" is replaced by the patch list as it
//     is. With "merge", a list of objects merges by its merge key: each
//     patch item merges into the first original item with the same key
//     value, or is added; a patch item without the key is an error. A list
//     of primitives with "merge" is a set union (values compare like Go's
//     ==, so int64 1 and float64 1 differ; all items must have one type).
//   - Order of a merged list: the items the patch names keep the patch's
//     order, the items only the server has keep the live list's order, and
//     the two sequences are merged: a server-only item goes before a patch
//     item when the live list has both and has it first; otherwise the patch
//     item goes first (so an added item at the head of the patch list comes
//     first). "$setElementOrder" replaces the patch's order (below).
//   - "$patch": "replace" in an object replaces the whole object by the
//     patch object as it is (less the directive); as an item of a list of
//     objects, it makes the other items the whole list. "$patch": "delete"
//     in an object turns it into {} (the design document says it deletes
//     the object; kube-apiserver leaves an empty object, or no field where
//     the original has no object, and so does Apply); as an item of a list
//     of objects, it deletes every item with its merge-key value.
//     "$patch": "merge" is an error everywhere it is processed ("merging
//     lists cannot yet be specified in the patch" in a list, "unknown patch
//     type" in an object), as are other values.
//   - "$retainKeys": [fields] clears every field of the original object the
//     list does not name; every non-null field of the patch object must be
//     listed. kube-apiserver honours it wherever it appears, whatever the
//     field's strategy ("retainKeys" only tells clients to send it).
//   - "$deleteFromPrimitiveList/<list>": [values] removes every item equal
//     to one of the values, whatever the list's strategy. (Given objects,
//     the list merges instead, as in Kubernetes; given null, the list
//     itself is deleted.)
//   - "$setElementOrder/<list>": [items] merges the patch's list (checking
//     that its items come in the same order, else "The order in patch
//     list: … doesn't match $setElementOrder list: …"), then orders the
//     result: the items it names in its order, the others slotted in as
//     above. For lists of objects, its items are objects holding just the
//     merge key.
//   - Within an object, "$patch" is applied first and alone; then
//     "$retainKeys", then the "$setElementOrder" directives, then the
//     "$deleteFromPrimitiveList" directives, then the other fields.
//   - Where a value gets through as it is, Kubernetes leaves in it null
//     values and "$retainKeys", "$setElementOrder/…" and
//     "$deleteFromPrimitiveList/…" keys (for example in an added list
//     item); so does Apply. kube-apiserver then decodes the result into a
//     Go type, which drops nulls and reports unknown fields (a warning, or
//     an error with fieldValidation=Strict): the caller's schema pass must
//     treat the result the same way.
//
// # Errors
//
// Errors are plain errors with kube-apiserver's exact text. The sentinels
// (ErrBadPatchFormatForPrimitiveList, ErrBadPatchFormatForRetainKeys,
// ErrBadPatchFormatForSetElementOrderList, ErrNoListOfLists) are returned
// as they are; [StatusCode] maps an error to kube-apiserver's HTTP status:
// 400 for the three "invalid patch format" errors, 422 for lists of lists,
// 500 (a Status without reason, the message as it is) for the others, such
// as "map: map[image:nginx] does not contain declared merge key: name",
// "unknown patch type: bogus in map: map[$patch:bogus]", "expected a
// map[string]interface {}, but received a string" or "list element types
// are not identical: [[a b] [1]]". When a patch has several faults, Apply
// reports the first in the order described above, fields in sorted order.
//
// # Differences from Kubernetes
//
// Where Kubernetes' behaviour is undefined, this package picks one:
//
//   - Kubernetes panics (an HTTP 500 from the API server) on some patches:
//     a merged list whose first item is null, objects or lists compared as
//     merge-key values or primitive items, "$retainKeys" holding objects.
//     Apply compares such values deeply and returns a result or an error.
//   - Kubernetes applies the fields of a patch object in Go's random map
//     order. The result differs only when a patch both adds a value to a
//     primitive list and deletes it with "$deleteFromPrimitiveList" (Apply
//     deletes first, so the value stays) and, for a patch with several
//     faults, in which error is reported.
//   - When the original's primitive merge list already holds duplicates,
//     Kubernetes' order of the union can depend on the capacity of its
//     slices; Apply orders as if the original list were not modified.
//   - Kubernetes, given a Go struct as schema, rejects a patch that merges
//     into a field the struct lacks ("unable to find api field"); a nil
//     Schema here means "unknown": objects merge, lists are replaced.
//
// Everything else, including Kubernetes' quirks, is reproduced: for example
// the order of a list when "$setElementOrder" meets deleted and added items
// (Kubernetes deletes and appends in place, and the freed slots of the live
// list then position items that only the server has).
//
// # Example
//
// The live object
//
//	{"spec": {"containers": [{"name": "web", "image": "nginx"}], "tolerations": [{"key": "a"}]}}
//
// patched with
//
//	{"spec": {"containers": [{"name": "log", "image": "busybox"}], "tolerations": [{"key": "b"}]}}
//
// where containers has strategy "merge" with merge key "name" and
// tolerations no strategy, gives
//
//	{"spec": {"containers": [{"name": "log", "image": "busybox"}, {"name": "web", "image": "nginx"}], "tolerations": [{"key": "b"}]}}
package strategicpatch
