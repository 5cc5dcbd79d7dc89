# Shared by the recording scripts: the reference server to ask (see
# shared/reference-server) and rc, curl with its token.
REF=${REF_URL:-https://127.0.0.1:16443}
REF_TOKEN=${REF_TOKEN:-reference-admin-token}
rc() { curl -sk -A difftest -H "Authorization: Bearer $REF_TOKEN" "$@"; }
