R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"cm-d"}}' -o /dev/null
cat <<'EOF'
## An update's uid is checked first; a resourceVersion that is no number is a 500

kube's storage checks the uid a PUT body carries as a precondition before anything else, so a wrong uid on a
missing object is a 409 (its storage's error, as a Conflict), not a 404; it reads the body's resourceVersion as a
number after the object's lookup and admission, and one it cannot read fails the update with its internal error,
500 without reason (kapi matches it: the answer is kube's documented way to refuse an unparsable version in an
update, as on get and watch). The storage error names revision 0, whatever the object's:

EOF
$R PUT /api/v1/namespaces/fid/configmaps/missing '{"metadata":{"name":"missing","resourceVersion":"","uid":"00000000-0000-0000-0000-000000000000"}}' | sed 's/<uuid>/00000000-0000-0000-0000-000000000000/'; echo
$R PUT /api/v1/namespaces/fid/configmaps/cm-d '{"metadata":{"name":"cm-d","resourceVersion":"1","uid":"00000000-0000-0000-0000-000000000000"}}' | sed 's/<uuid>, UID in object/00000000-0000-0000-0000-000000000000, UID in object/'; echo
$R PUT /api/v1/namespaces/fid/configmaps/cm-d '{"metadata":{"name":"cm-d","resourceVersion":"abc"},"data":{"k2":"v3"}}'; echo
