R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## An invalid `timeout` is a 400 in front of every request but watches

kube's request-deadline filter parses `timeout` as a Go duration for every request that is not long-running
(watches, and the proxy, exec, attach, portforward and log subresources), API or not; a watch ignores it.

EOF
$R GET '/api/v1/namespaces/fid/configmaps?timeout=invalid' ''; echo
echo 'The same for `/version?timeout=invalid`, `/api?timeout=invalid`, `/healthz?timeout=invalid`; `timeout=5s` and `timeout=-5s` are accepted.'; echo
