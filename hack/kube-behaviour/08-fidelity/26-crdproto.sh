R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## CRDs: protobuf, and the names kube defaults

kube serves the CustomResourceDefinition kind in protobuf both ways (client-go's typed apiextensions clientset
sends and asks for it by default), with the schema types' own JSON forms (`JSON` is embedded JSON, a
`JSONSchemaPropsOrBool` a schema or a bool, a `JSONSchemaPropsOrArray` a schema or a list, a
`JSONSchemaPropsOrStringArray` a schema or a list of strings). Its defaulting, on every write, sets
`spec.names.singular` (the kind lower-cased), `spec.names.listKind` (kind + `List`) and `spec.conversion` (None);
they are the creator's fields. kapi's encoding is held byte for byte to Kubernetes' serializer
(`examples/protobuf/kubeproto`), and the e2e test `examples/e2e/crd_protobuf_test.go` drives a CRD's life through the
clientset in protobuf and through kubectl.

EOF
$R POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"things.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"things","kind":"Thing"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}'; echo
