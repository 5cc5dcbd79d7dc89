R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## A value the Go type refuses is a 400 before anything else

kube decodes a built-in kind's body into its Go type first, so a value of the wrong JSON type (metadata that is no
object included) is a 400 before the update looks the object up (`t1` does not exist). Go's decoder names the
struct holding the field (the kind, or ObjectMeta) and the Go type.

EOF
for b in '{"metadata":"str"}' '{"metadata":{"name":"t1","labels":"x"}}' '{"metadata":{"name":"t1"},"data":{"a":1}}'; do $R PUT /api/v1/namespaces/fid/configmaps/t1 "$b"; echo; done
