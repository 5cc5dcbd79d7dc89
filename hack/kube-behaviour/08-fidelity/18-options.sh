R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## Write options are validated all at once

kube validates CreateOptions, UpdateOptions and PatchOptions as one object and reports every problem, in its
order: `force` on a non-apply patch (any value, `false` included) or a missing `fieldManager` for apply, then the
`fieldManager`, `dryRun`, `fieldValidation`.

EOF
CT=application/merge-patch+json $R PATCH '/api/v1/namespaces/fid/configmaps/cm-c?dryRun=&force=false' '{}'; echo
$R POST '/api/v1/namespaces/fid/configmaps?dryRun=Bogus&fieldValidation=Bogus&fieldManager=a%01b' '{}'; echo
