R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cm1"}}' -o /dev/null
cat <<'EOF'
## Warnings go with every answer, errors included

kube records field-validation warnings while it decodes the request and writes them on the response, whatever it
is: a create of a name that exists (`cm1`), with unknown fields, is a 409 that warns of them; an update of a missing
object is a 404 that does.

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","bogusMeta":"y"},"data":{"k":"v","k":"w"},"unknownTop":"x"}'; echo
$R PUT /api/v1/namespaces/fid/configmaps/missing '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"missing","bogusMeta":"y"}}'; echo
