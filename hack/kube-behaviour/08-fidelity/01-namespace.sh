R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## Namespace: the strategy prepares a write after field tracking

kube-apiserver tracks managed fields in the request handler, before the registry calls the kind's strategy
(`PrepareForCreate`, `PrepareForUpdate`). The namespace strategy appends the `kubernetes` finalizer on create and
keeps the stored `spec.finalizers` and `status` on update, so nobody owns what it sets; the
`kubernetes.io/metadata.name` label is set by defaulting, during decoding, so the writer owns it, and an update that
drops it gets it back.

EOF
$R POST /api/v1/namespaces '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns-plain"}}'; echo
$R POST /api/v1/namespaces '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns-fin"},"spec":{"finalizers":["foo.io/x"]}}'; echo
echo 'An update without the label and without spec:'; echo
$R PUT /api/v1/namespaces/ns-fin '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns-fin","labels":{"a":"b"}}}'; echo
echo 'An update that changes `spec.finalizers` owns them (the tracked request had them) but does not change them:'; echo
$R PUT /api/v1/namespaces/ns-plain '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ns-plain"},"spec":{"finalizers":["foo.io/y"]}}'; echo
