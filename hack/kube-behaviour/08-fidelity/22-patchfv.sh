R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"la2"}}' -o /dev/null
cat <<'EOF'
## Field validation of patches: a strategic merge patch's duplicates, an apply body decoded strictly after applying

kube decodes a strategic merge patch strictly and reports its duplicate keys before the unknown fields of the
result. It applies a server-side apply body, and then decodes it strictly: each go-yaml error is a warning
(`fieldValidation` unset or `Warn`), or the request is a 400 (`Strict`); `Ignore` skips the check.

EOF
CT=application/strategic-merge-patch+json $R PATCH '/api/v1/namespaces/fid/configmaps/la2?fieldValidation=Warn' '{"data":{"k9":"dup1","k9":"dup2"},"spec":{"x":1}}'; echo
CT=application/apply-patch+yaml $R PATCH '/api/v1/namespaces/fid/configmaps/la2?fieldManager=m2' $'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: la2\n  name: la2\ndata:\n  x: "1"\n  x: "2"'; echo
CT=application/apply-patch+yaml $R PATCH '/api/v1/namespaces/fid/configmaps/la2?fieldManager=m2&fieldValidation=Strict' $'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: la2\nkind: ConfigMap'; echo
