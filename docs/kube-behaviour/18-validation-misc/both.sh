#!/bin/bash
# usage: both.sh METHOD PATH [BODY-JSON]; "__RV__" in the body is replaced by the object's current resourceVersion (GET PATH without /status).
m=$1; p=$2; b=$3
for t in ref kapi; do
  if [ $t = ref ]; then u=https://127.0.0.1:18510; a=(-H "Authorization: Bearer reference-admin-token"); else u=http://127.0.0.1:19200; a=(); fi
  bb=$b
  if [[ "$b" == *__RV__* ]]; then rv=$(curl -sk "${a[@]}" "$u${p%/status}" | jq -r .metadata.resourceVersion); bb=${b//__RV__/$rv}; fi
  if [ -n "$bb" ]; then
    out=$(curl -sk "${a[@]}" -X $m -H 'Content-Type: application/json' -d "$bb" -w '\n%{http_code}' "$u$p")
  else
    out=$(curl -sk "${a[@]}" -X $m -w '\n%{http_code}' "$u$p")
  fi
  code=$(echo "$out" | tail -1)
  body=$(echo "$out" | sed '$d')
  echo "[$t] $code $(echo "$body" | jq -c 'if .kind=="Status" then {message, details} else {name: .metadata.name} end' 2>/dev/null || echo "$body")"
done
