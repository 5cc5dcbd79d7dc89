R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/apis/apiextensions.k8s.io/v1/customresourcedefinitions -d '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"gizmos","kind":"Gizmo"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}' -o /dev/null
sleep 2
cat <<'EOF'
## A custom resource's metadata is decoded as ObjectMeta; its apiVersion is taken as it is

kube decodes a custom resource without a Go type, but reads its metadata into `metav1.ObjectMeta` (a JSON round
trip of the metadata alone, members in sorted order) before anything else: a member of the wrong JSON type is Go's
decoding error, 400, in the words of the body's kind and version. The handler then refuses an apiVersion other than
the endpoint's, a missing one included (it is not defaulted), before the kind is checked (422).

EOF
$R POST /apis/fid.example.com/v1/namespaces/fid/gizmos '{"apiVersion":"fid.example.com/v1","kind":"Gizmo","metadata":{"name":"q","labels":"x"}}'; echo
$R POST /apis/fid.example.com/v1/namespaces/fid/gizmos '{"apiVersion":"fid.example.com/v1","kind":"Gizmo","metadata":"x"}'; echo
$R POST /apis/fid.example.com/v1/namespaces/fid/gizmos '{"kind":"Gizmo","metadata":{"name":"x"}}'; echo
