R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"u1"}}' -o /dev/null
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"held","finalizers":["example.com/hold"]}}' -o /dev/null
rc -X DELETE $REF/api/v1/namespaces/fid/configmaps/held -o /dev/null
cat <<'EOF'
## ObjectMeta validation runs in kube's passes, so one problem can be several causes

On create, kube runs the kind's validation (for built-in kinds core's `ValidateObjectMeta`: the kind's name rule,
labels, annotations, finalizer names as qualified names on `metadata.finalizers`, then each finalizer without `/`
that is not `kubernetes`, `orphan` or `foregroundDeletion` on `metadata.finalizers[i]`), and only if it passes the
registry's generic check (names usable as path segments): `with/slash` gets the DNS-subdomain message, not "may not
contain '/'". A `generateName` is checked as a prefix (a trailing `-` allowed) before the generated name.

On update it runs the registry's common checks (path-segment name rule, then `ValidateObjectMetaAccessorUpdate`:
no new finalizers while being deleted, labels, annotations), the kind's `ValidateObjectMetaUpdate` (the same update
checks plus the finalizer-name rule) and the kind's own update validation, which for a ConfigMap validates the new
object as on create again. The causes list every pass; the message names each distinct problem once.

EOF
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"name":"u2","labels":{"a":"bad value!"},"finalizers":["hold","Bad Fin!"],"annotations":{"bad key!":"x"}}}'; echo
$R PUT /api/v1/namespaces/fid/configmaps/u1 '{"metadata":{"name":"u1","labels":{"a":"bad value!"},"finalizers":["hold","Bad Fin!"],"annotations":{"bad key!":"x"}}}'; echo
CT=application/merge-patch+json $R PATCH /api/v1/namespaces/fid/configmaps/held '{"metadata":{"finalizers":["example.com/other"]}}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"name":"with/slash"}}'; echo
$R POST /api/v1/namespaces/fid/configmaps '{"metadata":{"generateName":"Gen_"}}' | sed -E 's/Gen_[bcdfghjklmnpqrstvwxz2456789]{5}/Gen_<5 random>/g'; echo
