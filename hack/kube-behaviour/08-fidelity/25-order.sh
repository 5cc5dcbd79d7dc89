R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## What is checked first: the representation, the legacy watch path, deletecollection, a future watch

kube negotiates the answer's representation before anything else (a PATCH checks its Content-Type first): with
only `text/plain` accepted, a GET of a missing object, a create with a bad body or a list with bad options is a 406.
It validates list options by the `watch` parameter, so the legacy `/watch/` path without it is validated as a list.
A deletecollection validates its DeleteOptions (422) before storage reads the resourceVersion (400). A watch from
a future resourceVersion answers 200 at once and stays silent.

EOF
SHOWH='Accept: text/plain' $R GET /api/v1/namespaces/fid/configmaps/missing '' -H 'Accept: text/plain'; echo
$R GET '/api/v1/watch/namespaces/fid/configmaps?sendInitialEvents=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=1' ''; echo
$R DELETE '/api/v1/namespaces/fid/configmaps?labelSelector=tier&dryRun=Bogus&resourceVersion=abc' ''; echo
