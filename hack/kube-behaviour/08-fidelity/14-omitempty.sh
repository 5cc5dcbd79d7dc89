R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"p1","labels":{"app":"web"}},"data":{"k3":"v"}}' -o /dev/null
cat <<'EOF'
## What a Go type's JSON omits is not stored

kube holds a built-in kind in its Go type, whose optional maps and slices (and ObjectMeta's strings) are
`omitempty`: an empty `labels`, `annotations`, `finalizers`, `generateName`, `data` or `binaryData` is not stored,
not returned, and not in `managedFields`. A custom resource's metadata is decoded into the typed ObjectMeta too, so
its empty metadata goes; the rest of a custom resource keeps its empty values. A merge patch that removes the last
label leaves no `labels`; a merge patch of `{"metadata":{"labels":{}}}` onto an object without labels changes
nothing (same resourceVersion).

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"e1","labels":{},"annotations":{},"finalizers":[],"generateName":""},"data":{},"binaryData":{}}'; echo
CT=application/merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/p1 '{"data":{"k3":"m1"},"metadata":{"labels":{"app":null}}}'; echo
CT=application/strategic-merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/p1 '{"data":{"$patch":"delete"}}'; echo
$R POST /apis/fid.example.com/v1/namespaces/fid/widgets '{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"w1","labels":{},"annotations":{},"finalizers":[]},"spec":{"m":{},"l":[]}}'; echo
