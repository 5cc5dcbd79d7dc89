R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## A patch body is decoded after the object is read

kube decodes a patch when it applies it to the object it has read, so a patch of a missing object is a 404
whatever its body; only the patch type (415) and the options (400, 422) are checked before.

EOF
CT=application/json-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/missing '[{"op":"add",'; echo
CT=application/merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/missing '[1,2]'; echo
echo 'The same for `application/strategic-merge-patch+json` with `{"data":`; on an object that exists, each is a 400.'; echo
echo 'An apply through `/status`, which does not create, is a 404 too:'; echo
CT=application/apply-patch+yaml $R PATCH '/apis/apps/v1/namespaces/fid/deployments/missing/status?fieldManager=m' 'a: [b'; echo
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"nm1"}}' -o /dev/null
cat <<'EOF2'
A patched object without a name (an apply that would create one without it, a `$retainKeys` that drops metadata, a
merge patch that nulls the name) fails kube's name check as an update without one, with the URL's name; an apply
without a name to an object that exists takes the live one's:

EOF2
CT=application/apply-patch+yaml $R PATCH '/api/v1/namespaces/fid/configmaps/nm2?fieldManager=m' '{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}'; echo
CT=application/strategic-merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/nm1 '{"$retainKeys":["data"],"data":{"a":"b"}}'; echo
