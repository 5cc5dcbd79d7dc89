R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## YAML lists of built-in kinds: items without apiVersion and kind

As in JSON, a typed list's items carry no type meta; a custom resource's list items keep theirs.

EOF
SHOWH='Accept: application/yaml' $R GET '/api/v1/namespaces/fid/configmaps?limit=1' '' -H 'Accept: application/yaml'; echo
SHOWH='Accept: application/yaml' $R GET '/apis/fid.example.com/v1/namespaces/fid/widgets?limit=1' '' -H 'Accept: application/yaml'; echo
