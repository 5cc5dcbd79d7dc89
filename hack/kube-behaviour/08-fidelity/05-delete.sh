R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
for n in d1 d2 d3 d4 d5 d6; do rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d "{\"metadata\":{\"name\":\"$n\",\"labels\":{\"g\":\"x\"}}}" -o /dev/null; done
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"held","labels":{"g":"y"},"finalizers":["example.com/hold"]}}' -o /dev/null
cat <<'EOF'
## DeleteOptions: body or query, validated; propagation finalizers; deletecollection answers what it listed

kube reads DeleteOptions from the body when there is one, and then does not read the query at all (a `null` body
with `?dryRun=All` deletes for real); otherwise from the query, where `uid` and `resourceVersion` are
preconditions. It validates them (422): `orphanDependents` and `propagationPolicy` together, an unknown
`propagationPolicy`, a `dryRun` other than `All`.

EOF
$R DELETE '/api/v1/namespaces/fid/configmaps/d1?propagationPolicy=Bogus' ''; echo
$R DELETE '/api/v1/namespaces/fid/configmaps/d1' '{"orphanDependents":true,"propagationPolicy":"Background"}'; echo
$R DELETE '/api/v1/namespaces/fid/configmaps/d1?resourceVersion=0' ''; echo
$R DELETE '/api/v1/namespaces/fid/configmaps/d1?uid=abc' ''; echo
$R DELETE '/api/v1/namespaces/fid/configmaps/d1?dryRun=All' 'null'; echo
cat <<'EOF'
The registry applies the propagation policy as finalizers before it decides anything else: `Orphan` (or
`orphanDependents: true`) adds `orphan`, `Foreground` adds `foregroundDeletion`, `Background` removes both. An
object left with finalizers is marked (deletionTimestamp, deletionGracePeriodSeconds 0, whatever
`gracePeriodSeconds` says, and generation + 1 when it has one) and returned with 200. The garbage collector would
then remove the finalizer; without kube-controller-manager the object stays. kapi has no garbage collector yet and
answers as that kube-apiserver does.

EOF
$R DELETE '/api/v1/namespaces/fid/configmaps/d2?propagationPolicy=Foreground&gracePeriodSeconds=30' ''; echo
$R DELETE '/api/v1/namespaces/fid/configmaps/d3' '{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan"}'; echo
echo "Deleting it again with \`Background\` takes the \`orphan\` finalizer away; left without finalizers, the object is deleted:"; echo
$R DELETE '/api/v1/namespaces/fid/configmaps/d3?propagationPolicy=Background' ''; echo
cat <<'EOF'
### deletecollection

The answer is the list as it was read before the deletions: `held`, which its finalizer keeps, shows no
deletionTimestamp and its listed resourceVersion. With `limit`, only the first page is deleted and the answer is
that page, with its `continue`.

EOF
$R DELETE '/api/v1/namespaces/fid/configmaps?labelSelector=g%3Dy' ''; echo
$R DELETE '/api/v1/namespaces/fid/configmaps?labelSelector=g%3Dx&limit=2' ''; echo
cat <<'EOF'
### A body kube cannot decode is a 500

kube answers 500 (no reason) to a DeleteOptions body it cannot decode; kapi answers 400 BadRequest with the same
message (see "Intended differences").

EOF
for b in '{"preconditions":' '[]' '{"kind":"Pod","apiVersion":"v1"}' '{"gracePeriodSeconds":"x"}'; do $R DELETE '/api/v1/namespaces/fid/configmaps/d6' "$b"; echo; done
