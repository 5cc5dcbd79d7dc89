R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"ok1"},"data":{"z":"1","b":"2"}}' -o /dev/null
cat <<'EOF'
## A body of another kind is read as the kind it names

kube has no check of its own for a body's `apiVersion` and `kind`: its decoder reads the body as the kind it names
(missing parts are the endpoint's), when the scheme of the serving API server has that kind, and then fails to
convert it to the endpoint's internal type (`core.ConfigMap`, `apps.Deployment`; an `events.k8s.io` Event is a
`core.Event`). So the other kind's own decoding errors come first; a kind the scheme lacks (another case, a version
the group never had, `meta.k8s.io`) is "not registered"; `Status` is registered in every version, the option kinds
in every version of the scheme's groups, the generic `List` in core `v1` only. CRDs (apiextensions-apiserver) and
APIServices (kube-aggregator) are served from schemes of their own, which lack kube-apiserver's kinds. The kind in
another version of its own group converts, and is then refused by the handler's check of the version. A patch whose
result names another kind is an invalid patch, the patched document quoted as kube's patch library writes it (its
members sorted); a strategic merge patch's result is converted to the type, which ignores them.

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"kind":"Secret","metadata":{"name":"x"},"data":{"a":"!!"}}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"apps/v1","kind":"DeploymentList"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v1","kind":"List"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"apps/v1","kind":"List"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"apps/v1","kind":"DeleteOptions"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v9","kind":"Status"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v2","kind":"ConfigMap"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"v1","kind":"configmap"}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"x"}}'; echo
$R POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions '{"apiVersion":"v1","kind":"ConfigMap"}'; echo
$R POST /apis/events.k8s.io/v1/namespaces/fid/events '{"apiVersion":"v1","kind":"ConfigMap"}'; echo
$R POST /apis/apps/v1/namespaces/fid/deployments '{"apiVersion":"apps/v1beta1","kind":"Deployment","metadata":{"name":"x"}}'; echo
$R PUT /api/v1/namespaces/fid/configmaps/ok1 '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"ok1"}}'; echo
CT=application/merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/ok1 '{"kind":"Bogus"}' | sed -E 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/<uuid>/g'; echo
CT=application/strategic-merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/ok1 '{"kind":"Secret","data":{"n":"1"}}'; echo
cat <<'EOF'
A subresource's body is read the same way, as its own kind (an `autoscaling/v1` Scale):

EOF
rc -X POST -H 'Content-Type: application/json' $REF/apis/apps/v1/namespaces/fid/deployments -d '{"metadata":{"name":"dk"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}' -o /dev/null
$R PUT /apis/apps/v1/namespaces/fid/deployments/dk/scale '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"dk"}}'; echo
$R PUT /apis/apps/v1/namespaces/fid/deployments/dk/scale '{"apiVersion":"autoscaling/v2","kind":"Scale","metadata":{"name":"dk"}}'; echo
cat <<'EOF'
A value of the wrong JSON type is named by Go's decoder: the innermost struct that holds the field, the field's whole
path (map keys and list indices dropped), and the field's Go type.

EOF
$R POST /api/v1/namespaces/fid/pods '{"metadata":{"name":"p"},"spec":{"containers":"x"}}'; echo
$R POST /api/v1/namespaces/fid/pods '{"metadata":{"name":"p"},"spec":{"containers":[{"name":5}]}}'; echo
$R POST /api/v1/namespaces/fid/secrets '{"metadata":{"name":"p"},"data":5}'; echo
