R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
CRD='{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}'
rc -X POST -H 'Content-Type: application/json' $REF/apis/apiextensions.k8s.io/v1/customresourcedefinitions -d "$CRD" -o /dev/null; sleep 3
cat <<'EOF'
## A key given twice: built-in kinds merge objects, custom resources keep the last

kube decodes a built-in kind's body into its Go type, so a key given twice fills the same struct field or map
twice: objects merge (a second `metadata` adds its labels to the first's name; a second `data` adds its keys),
arrays and scalars are replaced. A custom resource is decoded into unstructured maps: the last value wins. With
`fieldValidation=Ignore` there is no warning.

EOF
$R POST '/api/v1/namespaces/fid/configmaps?fieldValidation=Ignore' '{"metadata":{"name":"m1"},"metadata":{"labels":{"a":"b"},"finalizers":["a.io/x"]},"metadata":{"finalizers":["b.io/y"]},"data":{"x":"1"},"data":{"y":"2"}}'; echo
$R POST '/apis/fid.example.com/v1/namespaces/fid/widgets?fieldValidation=Ignore' '{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"x":"1"},"spec":{"y":"2"}}'; echo
