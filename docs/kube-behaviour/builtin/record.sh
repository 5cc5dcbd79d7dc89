#!/usr/bin/env bash
# Records what kube-apiserver 1.33 stores and prints for each manifest of
# manifests/: run against a fresh reference server (shared/reference-server),
# e.g.
#   REF_KUBECONFIG=/tmp/ref.kubeconfig REF_URL=https://127.0.0.1:16443 ./record.sh
# It writes stored/<manifest>.json (the objects as read back after
# `kubectl apply -f`), tables/<manifest>.json (the Table of each object, as
# `kubectl get` asks for it) and get/<manifest>.txt (`kubectl get -f` and
# `kubectl get -f -o wide`). examples/e2e/builtin_kinds_test.go replays the
# manifests against kapi and compares. The APIService is removed again at the
# end: the aggregator would otherwise report its unreachable group in discovery.
# The ValidatingAdmissionPolicy's status is kube-controller-manager's: run it
# with --controllers=validatingadmissionpolicy-status-controller, as a cluster
# does, or edit status to {observedGeneration: 1, typeChecking: {}} afterwards.
set -euo pipefail
cd "$(dirname "$0")"
KDIR=$(dirname "$(readlink -f "$(command -v kubectl)")")
K="$KDIR/kubectl.1.33 --kubeconfig ${REF_KUBECONFIG:?}"
URL=${REF_URL:?}
TOKEN=${REF_TOKEN:-reference-admin-token}
TABLE='application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'
mkdir -p stored tables get
# apiVersion and kind -> resource, from discovery (autoscaling/v1 included).
resources=$(for gv in v1 $($K api-versions | grep /); do
  p=/api/v1; [[ $gv == */* ]] && p=/apis/$gv
  $K get --raw "$p" | jq -r --arg gv "$gv" '.resources[] | select(.name | contains("/") | not) | [.name, $gv, .kind] | @tsv'
done)
# Namespaces and the objects others name first; admission webhooks and the
# APIService last.
order=$(ls manifests | sort | awk '/^core_namespace/ {print; next} /^(admissionregistration|apiregistration)/ {late = late $0 "\n"; next}
  {rest = rest $0 "\n"} END {printf "%s%s", rest, late}')
for f in $order; do
  $K apply -f "manifests/$f" >/dev/null
done
for f in $order; do
  base=${f%.yaml}
  $K get -f "manifests/$f" -o json | jq 'if .kind == "List" then .items else [.] end' >"stored/$base.json"
  : >"tables/$base.json.tmp"
  for row in $(jq -r '.[] | [.apiVersion, .kind, .metadata.namespace // "", .metadata.name] | @tsv' "stored/$base.json" | tr '\t' '|'); do
    IFS='|' read -r av kind ns name <<<"$row"
    res=$(awk -v av="$av" -v k="$kind" '$2 == av && $3 == k {print $1; exit}' <<<"$resources")
    prefix=/api/v1; [[ $av == */* ]] && prefix=/apis/$av
    [[ -n $ns ]] && prefix=$prefix/namespaces/$ns
    curl -sk -H "Authorization: Bearer $TOKEN" -H "Accept: $TABLE" "$URL$prefix/$res/$name" >>"tables/$base.json.tmp"
  done
  jq -s . "tables/$base.json.tmp" >"tables/$base.json"; rm "tables/$base.json.tmp"
  { $K get -f "manifests/$f"; echo; $K get -f "manifests/$f" -o wide; } >"get/$base.txt" 2>&1
done
# The objects kube stores once and serves through two versions, read through
# the other one.
view() { # base, path
  $K get --raw "$2" | jq '[.]' >"stored/$1.json"
}
view autoscaling_horizontalpodautoscaler.via-v1 /apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web
view autoscaling_horizontalpodautoscaler_v1.via-v2 /apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/legacy-web
view core_event.via-events.k8s.io /apis/events.k8s.io/v1/namespaces/default/events/web-0.17a4b2c3d4e5f6a7
view events_event.via-core /api/v1/namespaces/default/events/web.17a4b2c3d4e5f6b8
$K delete -f manifests/apiregistration_apiservice.yaml >/dev/null
