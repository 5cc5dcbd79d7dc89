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
cat <<'EOF2'

The schemas under `items`, `additionalProperties`, `additionalItems` and `dependencies` are Go types of their own
(`JSONSchemaPropsOr*`) that decode a schema leniently: a key that is no `JSONSchemaProps` field is dropped there
without a warning, even with `fieldValidation=Strict` (the kind's published schema leaves them untyped; kapi keeps them
from pruning, then drops the unknown keys in the CRD's defaulting).

EOF2
$R POST '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict&dryRun=All' '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"nested.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"nested","kind":"Nested"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string","bogus":1}},"labels":{"type":"object","additionalProperties":{"type":"string","bogus":true}}}}}}]}}'; echo
