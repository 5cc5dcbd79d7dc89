R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## An error whose Status no accepted representation can carry is indented JSON

When the `Accept` header names no representation a `Status` can be written in (only `as=Table`, or only
`as=PartialObjectMetadata`), kube writes the error as raw JSON, indented, without the trailing newline.

EOF
SHOWH='Accept: application/json;as=Table;v=v1;g=meta.k8s.io' $R GET /api/v1/namespaces/fid/configmaps/missing '' -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io'; echo
echo 'The same with `Accept: application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io`.'; echo
