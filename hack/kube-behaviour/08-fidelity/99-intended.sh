R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"del1"}}' -o /dev/null
cat <<'EOF'
## Intended differences

kapi keeps these on purpose. `hack/difftest` (kapi's copy of `shared/difftest`) recognises each and reports it
apart (`intended.go`); `shared/difftest` counts them as divergences.

### `watchlist`: streaming lists are served

kapi serves `sendInitialEvents=true` on a watch (the streaming list client-go's WatchList feature uses: the current
objects as ADDED events, then a BOOKMARK annotated `k8s.io/initial-events-end`). kube-apiserver 1.33 has it behind
the WatchList feature gate, off by default, and refuses it; kube's other objections to the same request are kapi's
too (a missing `resourceVersionMatch=NotOlderThan` is still a 422, without the gate's cause).

EOF
$R GET '/api/v1/namespaces/fid/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1' ''; echo
cat <<'EOF'
### `undecodable-deleteoptions`: a DeleteOptions body kube cannot decode is a 400

kube answers 500 (its internal error, no reason) to a DeleteOptions body it cannot decode: bad JSON, a field of the
wrong type, another kind (see "DeleteOptions" above). The request is the client's mistake and nothing failed in the
server, so kapi answers 400 BadRequest with kube's message.

EOF
$R DELETE /api/v1/namespaces/fid/configmaps/del1 '{"gracePeriodSeconds":"x"}'; echo
cat <<'EOF'
### Not met by difftest, also kept

* A custom resource read with `Accept: ...;as=PartialObjectMetadataList` (one object): kube answers 500 "content is
  not a list"; kapi answers 406, as kube does for built-in kinds, naming `*unstructured.Unstructured`.
* A JSON patch `test` operation without `value` on a missing member makes kube's JSON patch library panic (the
  connection is reset); kapi answers the generic 422 of a patch that does not apply.

### Known differences (not intended; left to the owners of the code)

* An update of a Namespace that changes `spec.finalizers`: kube tracks the request's fields before its strategy
  restores the stored finalizers, so the writer owns `f:spec.f:finalizers` (or loses it when the request has none);
  kapi's strategies prepare an update before field tracking, so ownership does not change.
* Unknown finalizer names on a custom resource: kube warns ("prefer a domain-qualified finalizer name"); kapi
  neither warns nor refuses.
* A CRD's `managedFields`: kube adds a `kube-apiserver` entry for the status it sets (names accepted,
  established); kapi does not.
* Writes through `/scale` (`hack/difftest -run-only scale`): kube's ScaleHandler records the writer in the parent's
  `managedFields` without `time` (so the entry sorts first) and rewrites the entries even when the write changes
  nothing (a new resourceVersion); kapi records a `/scale` write as any subresource write (with `time`, and none
  when nothing changed). Applies to `/scale` (kube converts the Scale's managed fields) are 415 in kapi.
* The JSON of built-in kinds: kube writes an object's members in its Go type's field order (`kind`, `apiVersion`,
  `metadata` with `name` first, then the rest); kapi writes `apiVersion` and `kind` first and the rest sorted, as
  kube writes custom resources (the same members and values; difftest compares decoded JSON). It shows in messages
  that quote a document: the patched document of an invalid JSON or merge patch (422 on `patch`) has kube's patch
  library's order (its members sorted, where the patch reached sorted too, the rest as encoded), so what the patch
  did not touch (`metadata`, `managedFields` entries) is in kapi's order (message-only).
* A body of a kind kube's scheme has in a version kapi does not serve (`apps/v1beta2` DaemonSet,
  `extensions/v1beta1` Deployment sent to another kind): kube converts it or names the conversion it lacks; kapi
  finds no such kind ("not registered"), or, for the endpoint's own kind in another version of its group, answers
  as kube does after converting ("the API version in the data ... does not match").
* A value of the wrong JSON type where kube's Go type is a named scalar (`types.UID`) or decodes itself (a
  `Quantity`'s own error): kapi names the JSON type the schema gives (`string`) and Go's generic wording.
* Events: kube's registry sets no garbage-collection finalizers on Events (their default policy is Unsupported);
  kapi adds `orphan`/`foregroundDeletion` for them as for every kind.
* Outside metadata, empty strings and zeros of built-in kinds are kept where kube's Go types (`omitempty` strings)
  would drop them: kapi's schemas do not tell a Go `string` from a `*string`.
EOF
