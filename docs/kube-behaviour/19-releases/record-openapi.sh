#!/usr/bin/env bash
# Records what a fresh kube-apiserver (nothing created yet) answers on
# /version and its OpenAPI documents, for apiserver/builtin's release tests
# and apiserver/builtin/gen (the schemas kapi embeds):
#   REF_URL=https://127.0.0.1:17303 ./record-openapi.sh 1.37
# writes <release>/version.json (gitCommit, buildDate and goVersion, which
# are the build's, removed), <release>/openapi/index.json (the /openapi/v3
# root, its hashes removed: they follow from the documents) and
# <release>/openapi/<path>.json.gz, each document of the root and /openapi/v2
# (v2.json.gz), compact with sorted keys and gzipped (kube's documents are
# 12 MB as served). Discovery is recorded by ../builtin/record-discovery.sh.
set -euo pipefail
cd "$(dirname "$0")"
REL=${1:?release, e.g. 1.37}
URL=${REF_URL:?}
TOKEN=${REF_TOKEN:-reference-admin-token}
get() { curl -sfk -H "Authorization: Bearer $TOKEN" -H "Accept: ${2:-application/json}" "$URL$1"; }
mkdir -p "$REL/openapi"
get /version | jq -S 'del(.gitCommit, .buildDate, .goVersion)' >"$REL/version.json"
get /openapi/v3 | jq -S '.paths |= with_entries(.value.serverRelativeURL |= sub("\\?hash=.*"; ""))' >"$REL/openapi/index.json"
for p in $(jq -r '.paths | keys[]' "$REL/openapi/index.json"); do
  get "/openapi/v3/$p" | jq -cS . | gzip -9n >"$REL/openapi/${p//\//_}.json.gz"
done
get /openapi/v2 | jq -cS . | gzip -9n >"$REL/openapi/v2.json.gz"
