R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
for n in la lb lc; do rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d "{\"metadata\":{\"name\":\"$n\"}}" -o /dev/null; done
cat <<'EOF'
## A list whose field selector pins the name has no pages

In a namespace (or for a cluster-scoped kind), kube's registry reads the one key a `metadata.name=` field selector
pins, without pages: no `continue` whatever the `limit`. Across namespaces it lists, and pages, as usual.

EOF
$R GET '/api/v1/namespaces/fid/configmaps?limit=1&fieldSelector=metadata.name%3Dla' ''; echo
