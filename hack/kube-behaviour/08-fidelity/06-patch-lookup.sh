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
