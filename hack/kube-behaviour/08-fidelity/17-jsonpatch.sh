R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"jp","finalizers":["example.com/hold"]},"data":{"k1":"a"}}' -o /dev/null
rc -X DELETE $REF/api/v1/namespaces/fid/configmaps/jp -o /dev/null
cat <<'EOF'
## JSON patch: kube's library (json-patch v4) decodes any list of operations

kube decodes a JSON patch as a list of operations whatever they say (an unknown `op`, a missing `path`), and only
applying them fails, with its generic 422; an element that is no object is a 400. Its library (v4) lets a `replace`
of a member an object lacks add it (v5 refuses); `remove` of a missing member still fails. `jp` below is being
deleted, held by its finalizer: re-adding the same finalizer is no new finalizer.

EOF
for b in '[{"op":"frob","path":"/data/k1","value":"x"}]' '[1]' '[{"op":"add","path":"/metadata/finalizers","value":["example.com/hold"]}]' '[{"op":"replace","path":"/data/k2","value":"v1"}]' '[{"op":"remove","path":"/data/zz"}]'; do CT=application/json-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/jp "$b"; echo; done
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cp"},"data":{"k1":"a"}}' -o /dev/null
echo 'v4 reads a member an object lacks as null: a `copy` from it copies null (an empty string once in a map of strings), a `test` of it for null passes (for another value it fails, as does a `move` from it).'; echo
CT=application/json-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/cp '[{"from":"/data/k2","op":"copy","path":"/data/k3"}]'; echo
