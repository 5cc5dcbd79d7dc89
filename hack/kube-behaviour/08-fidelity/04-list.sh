R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cm2"}}' -o /dev/null
cat <<'EOF'
## Lists: resourceVersion=0 ignores limit; options are validated before the field selector is converted

kube serves `resourceVersion=0` from its watch cache, which ignores `limit` (the whole list, no `continue`). Its list
handler validates the list options (422) before it converts the field selector's labels for the kind (400 for an
unknown field), and reads the continue token, then the resourceVersion, in storage, after both; a resourceVersion
other than 0 beside a valid continue token is refused before it is parsed.

EOF
$R GET '/api/v1/namespaces/fid/configmaps?limit=1&resourceVersion=0' ''; echo
$R GET '/api/v1/namespaces/fid/configmaps?fieldSelector=data.k1%3Dv1&resourceVersionMatch=NotOlderThan' ''; echo
$R GET '/api/v1/namespaces/fid/configmaps?fieldSelector=metadata.uid%3Dx&sendInitialEvents=true&resourceVersion=abc' ''; echo
$R GET '/api/v1/namespaces/fid/configmaps?fieldSelector=metadata.uid%3Dx&resourceVersion=abc' ''; echo
$R GET '/api/v1/namespaces/fid/configmaps?continue=garbage&resourceVersion=abc' ''; echo
TOK=$(rc "$REF/api/v1/namespaces/fid/configmaps?limit=1" | jq -r .metadata.continue)
$R GET "/api/v1/namespaces/fid/configmaps?limit=1&continue=$TOK&resourceVersion=abc" '' | sed "s/$TOK/<continue token>/"; echo
