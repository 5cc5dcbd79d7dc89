R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cm-c"}}' -o /dev/null
cat <<'EOF'
## PartialObjectMetadata: chosen before kube knows whether it reads a list

kube's negotiation allows `as=PartialObjectMetadata` and `as=PartialObjectMetadataList` on every endpoint ("TODO:
should delineate between lists and non-list endpoints"), so the first Accept entry wins even with a fallback after
it, and the conversion then refuses the wrong one with a 406 without details that names its Go type. An empty
PartialObjectMetadataList has `"items": null`.

EOF
A='application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json'
SHOWH="Accept: $A" $R GET /api/v1/namespaces/fid/configmaps '' -H "Accept: $A"; echo
A='application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io'
SHOWH="Accept: $A" $R GET /api/v1/namespaces/fid/configmaps/cm-c '' -H "Accept: $A"; echo
SHOWH="Accept: $A" $R GET '/api/v1/namespaces/fid/configmaps?labelSelector=nothing%3Dhere' '' -H "Accept: $A"; echo
cat <<'EOF'
For a custom resource read as PartialObjectMetadataList kube answers 500 "content is not a list" (see "Intended
differences").

EOF
