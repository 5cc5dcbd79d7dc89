#!/bin/bash
# rec.sh METHOD PATH [BODY] [extra curl args...]  -> markdown of request and kube's answer
# env CT: content type of body (default application/json); HDRS: extra request header lines to show
M=$1; P=$2; B=$3; shift 3 2>/dev/null
CT=${CT:-application/json}
tmp=$(mktemp); hdr=$(mktemp)
args=(-sk --http1.1 -A kref/1.0 -H "Authorization: Bearer ${REF_TOKEN:-reference-admin-token}" -X "$M" -D "$hdr" -o "$tmp")
[ -n "$B" ] && args+=(-H "Content-Type: $CT" --data-binary "$B")
curl "${args[@]}" "$@" "${REF_URL:-https://127.0.0.1:16443}$P"
echo '```http'
echo "$M $P"
[ -n "$B" ] && [ "$CT" != application/json ] && echo "Content-Type: $CT"
for h in "$@"; do :; done
[ -n "$SHOWH" ] && echo "$SHOWH"
[ -n "$B" ] && { echo; echo "$B"; }
echo '```'
echo '```http'
head -1 "$hdr" | tr -d '\r'
grep -i '^\(content-type\|warning\|retry-after\|content-encoding\):' "$hdr" | tr -d '\r'
echo
if [ "$(head -c1 "$tmp")" = "{" ] && [ "$(head -n1 "$tmp")" != "{" ] && jq . "$tmp" >/dev/null 2>&1; then jq -c . "$tmp"; else cat "$tmp"; [ -n "$(tail -c1 "$tmp")" ] && { echo; echo "(no trailing newline)"; }; fi | sed -E 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/<uuid>/g'
echo '```'
rm -f "$tmp" "$hdr"
