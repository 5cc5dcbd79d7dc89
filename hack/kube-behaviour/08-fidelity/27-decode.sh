R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"nm1"}}' -o /dev/null
cat <<'EOF2'
## A body the serializer cannot read, in its serializer's words

kube words a body it cannot decode as the serializer of its format does: YAML that does not parse in YAML's words
(the rest as the JSON reading of the body's apiVersion and kind, "couldn't get version/kind; json parse error"), a
body that is no Kubernetes protobuf message in the protobuf serializer's words. A null body, in YAML also an empty
one or one of comments, is an empty object. An apply body is read into a map (sigs.k8s.io/yaml), with that
reader's words, and when empty it is an object without kind. kapi's codecs return what their format cannot read as
such (`codec.FormatError`, the protobuf codec's Statuses), and every body decoder words it with one function.

EOF2
CT=application/yaml $R POST /api/v1/namespaces/fid/configmaps 'a: [b'; echo
CT=application/yaml $R POST /api/v1/namespaces/fid/configmaps '# nothing'; echo
CT=application/vnd.kubernetes.protobuf $R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v1","kind":"ConfigMap"}'; echo
CT=application/apply-patch+yaml $R PATCH '/api/v1/namespaces/fid/configmaps/nm1?fieldManager=m' '[1]'; echo
CT=application/apply-patch+yaml $R PATCH '/api/v1/namespaces/fid/configmaps/nm1?fieldManager=m' '~'; echo
