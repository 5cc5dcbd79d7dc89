#!/usr/bin/env bash
# Records the discovery documents of a fresh kube-apiserver 1.33 (nothing
# created yet) and what `kubectl api-resources` prints against it, for
# apiserver/builtin's discovery test and examples/e2e's api-resources test:
#   REF_KUBECONFIG=/tmp/ref.kubeconfig REF_URL=https://127.0.0.1:16443 ./record-discovery.sh
set -euo pipefail
cd "$(dirname "$0")"
KDIR=$(dirname "$(readlink -f "$(command -v kubectl)")")
URL=${REF_URL:?}
TOKEN=${REF_TOKEN:-reference-admin-token}
get() { # path, accept
  curl -sfk -H "Authorization: Bearer $TOKEN" -H "Accept: ${2:-application/json}" "$URL$1" | jq -S .
}
AGG='application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'
mkdir -p discovery api-resources
get /api >discovery/api.json
get /apis >discovery/apis.json
get /api "$AGG" >discovery/api.aggregated-v2.json
get /apis "$AGG" >discovery/apis.aggregated-v2.json
get /api/v1 >discovery/api_v1.json
for g in $(jq -r '.groups[].name' discovery/apis.json); do
  get "/apis/$g" >"discovery/apis_$g.json"
  for v in $(jq -r '.versions[].version' "discovery/apis_$g.json"); do
    get "/apis/$g/$v" >"discovery/apis_${g}_$v.json"
  done
done
for v in 27 33; do
  "$KDIR/kubectl.1.$v" --kubeconfig "${REF_KUBECONFIG:?}" api-resources >"api-resources/kubectl-1.$v.txt"
  "$KDIR/kubectl.1.$v" --kubeconfig "${REF_KUBECONFIG:?}" api-resources -o wide >"api-resources/kubectl-1.$v-wide.txt"
done
