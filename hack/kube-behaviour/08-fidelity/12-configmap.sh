R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"frozen"},"immutable":true,"data":{"a":"1"}}' -o /dev/null
K254=$(printf 'k%.0s' $(seq 254))
cat <<'EOF'
## ConfigMap: keys, size and immutability

kube's `ValidateConfigMap` checks every key of `data` and `binaryData` (at most 253 characters, `[-._a-zA-Z0-9]+`,
not `.`, `..` or starting with `..`), that no key is in both, and at most 1 MiB of values (reported on the field
`[]`); its update validation first refuses any change of `immutable`, `data` or `binaryData` of an immutable
ConfigMap (metadata may change). Cause order among keys follows Go's map order in kube; kapi sorts them.

EOF
$R POST /api/v1/namespaces/fid/configmaps "{\"metadata\":{\"name\":\"v1\"},\"data\":{\"$K254\":\"v\",\"bad key\":\"x\",\"..a\":\"y\",\"k1\":\"v1\"},\"binaryData\":{\"k1\":\"djE=\",\".\":\"eA==\"}}"; echo
$R PUT /api/v1/namespaces/fid/configmaps/frozen '{"metadata":{"name":"frozen"},"data":{"a":"2"}}'; echo
