R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## A null in a built-in kind's map of strings is ""

Decoding JSON into a Go `map[string]string` gives a null value the zero value: `data: {"a": null}` stores `a: ""`
(labels too). A merge patch's null still removes the key, before the result is decoded.

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"name":"nv","labels":{"x":null}},"data":{"a":null,"b":"x"}}'; echo
