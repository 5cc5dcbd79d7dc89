#!/usr/bin/env bash
# Derives the discovery documents a kube-apiserver release serves by
# default from those its k8s.io/kubernetes module carries
# (api/discovery/*.json, generated with every API enabled): alpha and beta
# versions dropped (off by default since 1.24), every GA version kept
# (every resource of a GA version is on by default in 1.37; check the
# release's feature gates before using this for another one). For
# apiserver/builtin's discovery test, until the release's live server is
# recorded with record-discovery.sh:
#   ./discovery-from-module.sh v1.37.2 discovery-1.37
set -euo pipefail
cd "$(dirname "$0")"
VERSION=${1:?module version, e.g. v1.37.2}
OUT=${2:?output directory}
DIR=$(GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$VERSION" | jq -r .Dir)/api/discovery
GA='test("^v[0-9]+$")'
mkdir -p "$OUT"
jq -S . "$DIR/api.json" >"$OUT/api.json"
jq -S . "$DIR/api__v1.json" >"$OUT/api_v1.json"
jq -S "del(.items[].versions[] | select(.version | $GA | not)) | del(.items[] | select(.versions == []))" \
  "$DIR/aggregated_v2.json" >"$OUT/apis.aggregated-v2.json"
jq -S "del(.groups[].versions[] | select(.version | $GA | not)) | del(.groups[] | select(.versions == []))" \
  "$DIR/apis.json" >"$OUT/apis.json"
for g in $(jq -r '.groups[].name' "$OUT/apis.json"); do
  jq -S "del(.versions[] | select(.version | $GA | not))" "$DIR/apis__$g.json" >"$OUT/apis_$g.json"
  for v in $(jq -r '.versions[].version' "$OUT/apis_$g.json"); do
    jq -S . "$DIR/apis__${g}__$v.json" >"$OUT/apis_${g}_$v.json"
  done
done
