#!/usr/bin/env bash
# Records the discovery documents of a fresh kube-apiserver (nothing
# created yet) and what `kubectl api-resources` prints against it, for
# apiserver/builtin's discovery test and examples/e2e's api-resources test.
# 1.33 (into discovery/ and api-resources/):
#   REF_KUBECONFIG=/tmp/ref.kubeconfig REF_URL=https://127.0.0.1:16443 ./record-discovery.sh
# another release (documents only, into discovery-<release>/):
#   REF_URL=https://127.0.0.1:17303 ./record-discovery.sh discovery-1.37
set -euo pipefail
cd "$(dirname "$0")"
KDIR=$(dirname "$(readlink -f "$(command -v kubectl)")")
URL=${REF_URL:?}
TOKEN=${REF_TOKEN:-reference-admin-token}
get() { # path, accept
  curl -sfk -H "Authorization: Bearer $TOKEN" -H "Accept: ${2:-application/json}" "$URL$1" | jq -S .
}
AGG='application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'
D=${1:-discovery}
mkdir -p "$D"
get /api >"$D/api.json"
get /apis >"$D/apis.json"
get /api "$AGG" >"$D/api.aggregated-v2.json"
get /apis "$AGG" >"$D/apis.aggregated-v2.json"
get /api/v1 >"$D/api_v1.json"
for g in $(jq -r '.groups[].name' "$D/apis.json"); do
  get "/apis/$g" >"$D/apis_$g.json"
  for v in $(jq -r '.versions[].version' "$D/apis_$g.json"); do
    get "/apis/$g/$v" >"$D/apis_${g}_$v.json"
  done
done
[[ $D == discovery ]] || exit 0
mkdir -p api-resources
for v in 27 33; do
  "$KDIR/kubectl.1.$v" --kubeconfig "${REF_KUBECONFIG:?}" api-resources >"api-resources/kubectl-1.$v.txt"
  "$KDIR/kubectl.1.$v" --kubeconfig "${REF_KUBECONFIG:?}" api-resources -o wide >"api-resources/kubectl-1.$v-wide.txt"
done
