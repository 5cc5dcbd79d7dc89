R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cm-b"}}' -o /dev/null
cat <<'EOF'
## generateName: a conflict asks to retry; the prefix is cut to 58 characters

Any AlreadyExists of a create that carries a `generateName`, whether the name was generated or given beside it, is
worded as a generated-name conflict with `retryAfterSeconds: 1` and a `Retry-After: 1` header (dry run too). A
generated name keeps the first 58 characters of the prefix and appends 5 random ones.

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"name":"cm-b","generateName":"gen-"}}'; echo
$R POST /api/v1/namespaces/fid/configmaps "{\"metadata\":{\"generateName\":\"$(printf 'g%.0s' $(seq 71))\"}}" | sed -E 's/"name":"(g{58})[bcdfghjklmnpqrstvwxz2456789]{5}"/"name":"\1<5 random>"/'; echo
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cm-held","finalizers":["example.com/hold"]}}' -o /dev/null
rc -X DELETE $REF/api/v1/namespaces/fid/configmaps/cm-held -o /dev/null
cat <<'EOF2'
A name taken by an object being deleted (held by a finalizer) says so in front of either message, dry run too:

EOF2
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"name":"cm-held"}}'; echo
$R POST '/api/v1/namespaces/fid/configmaps?dryRun=All' '{"metadata":{"name":"cm-held","generateName":"gen-"}}'; echo
rc -X PATCH -H 'Content-Type: application/merge-patch+json' $REF/api/v1/namespaces/fid/configmaps/cm-held -d '{"metadata":{"finalizers":null}}' -o /dev/null
