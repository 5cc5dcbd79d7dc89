R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/apis/apps/v1/namespaces/fid/deployments -d '{"metadata":{"name":"dd"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}' -o /dev/null
cat <<'EOF2'
## /scale: the Scale is decoded as kube decodes it

A PUT of `/scale` decodes its body as an `autoscaling/v1` Scale, in any representation, before it reads the object:
kube's decoding errors (an int32 `spec.replicas`), then the name check. A Scale without `spec.replicas` asks for 0,
and a Scale of 0 replicas is written without it (`omitempty`). A merge patch whose result is no Scale is an invalid
patch (422 on `patch`; the patched document's key order is the library's, not kapi's, and is not compared). A
strategic merge patch is taken (a Scale has no list to merge by key: kapi merges it as a merge patch).

EOF2
$R PUT /apis/apps/v1/namespaces/fid/deployments/dd/scale '{}'; echo
$R PUT /apis/apps/v1/namespaces/fid/deployments/dd/scale '{"metadata":{"name":"dd"},"spec":{"replicas":"x"}}'; echo
$R PUT /apis/apps/v1/namespaces/fid/deployments/dd/scale '{"metadata":{"name":"dd"}}' | sed -E 's/"uid":"[^"]*"/"uid":"<uuid>"/'; echo
CT=application/strategic-merge-patch+json $R PATCH /apis/apps/v1/namespaces/fid/deployments/dd/scale '{"spec":{"replicas":3}}' | sed -E 's/"uid":"[^"]*"/"uid":"<uuid>"/'; echo
cat <<'EOF2'
A patch body that is no JSON object is worded by kube's decoder (a merge patch's prefixed with "error decoding
patch", as its field validation decodes it first), `null` by the merge library:

EOF2
CT=application/merge-patch+json $R PATCH /apis/apps/v1/namespaces/fid/deployments/dd/scale 'x'; echo
CT=application/merge-patch+json $R PATCH /apis/apps/v1/namespaces/fid/deployments/dd/scale 'null'; echo
CT=application/strategic-merge-patch+json $R PATCH /apis/apps/v1/namespaces/fid/deployments/dd/scale '[1]'; echo
