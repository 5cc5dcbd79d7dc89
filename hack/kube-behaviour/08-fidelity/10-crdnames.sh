R=$(dirname "$0")/../rec.sh
crd() { echo "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"$1.fid.example.com\"},\"spec\":{\"group\":\"fid.example.com\",\"scope\":\"Namespaced\",\"names\":$2,\"versions\":[{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":{\"type\":\"object\"}}}]}}"; }
cat <<'EOF'
## CRD names are DNS-1035 labels; kind and listKind are lower-cased first

kube checks `spec.names` plural, singular, shortNames and categories as DNS-1035 labels, and kind and listKind
lower-cased, with "may have mixed case, but should otherwise match:" before the label message. So a lower-case
kind (`fooxxs5ja`, as Kubernetes' own e2e tests use) and a lower-case listKind are accepted. Errors come in that
order (after metadata.name, group, scope and versions).

EOF
$R POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions "$(crd fooxxs5jas '{"plural":"fooxxs5jas","kind":"fooxxs5ja","listKind":"fooxxs5jalist"}')"; echo
$R POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions "$(crd bads '{"plural":"bads","kind":"Foo_Bar","listKind":"9List","shortNames":["Bad"],"categories":["all","x_y"],"singular":"Bad"}')"; echo
