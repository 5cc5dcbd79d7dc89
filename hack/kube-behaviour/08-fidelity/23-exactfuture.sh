R=$(dirname "$0")/../rec.sh
cat <<'EOF'
## An exact list of a future resourceVersion is etcd's error, at once

`resourceVersionMatch=Exact`, or the legacy exact read (`limit` with a `resourceVersion`), goes to etcd, which
refuses a future revision at once; kube passes the error on as a 500 without reason (a NotOlderThan read waits 3 s
and answers 504, as before).

EOF
$R GET '/api/v1/namespaces/fid/configmaps?resourceVersion=10000000&resourceVersionMatch=Exact' ''; echo
