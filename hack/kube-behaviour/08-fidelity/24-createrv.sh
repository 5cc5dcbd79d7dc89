R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## A create that names a resourceVersion

kube's storage refuses a create whose resourceVersion parses as a number other than 0, with its internal error
(500, no reason: kapi answers the same); a dry run never reaches storage and shows the version sent; a create
through an update (PUT of a kind that allows it, a server-side apply) gets a new version.

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"name":"rv1","resourceVersion":"5"}}'; echo
$R POST '/api/v1/namespaces/fid/configmaps?dryRun=All' '{"metadata":{"name":"dr1","resourceVersion":"55"}}'; echo
