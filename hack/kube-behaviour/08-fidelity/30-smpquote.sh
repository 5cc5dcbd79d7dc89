R=$(dirname "$0")/../rec.sh
. "$(dirname "$0")/../lib.sh"
rc -X POST -H 'Content-Type: application/json' $REF/api/v1/namespaces/fid/configmaps -d '{"metadata":{"name":"sm","labels":{"app":"web"},"finalizers":["a.io/x"]},"data":{"k1":"v1","k2":"v2"}}' -o /dev/null
cat <<'EOF'
## A strategic merge patch refused by strict field validation is quoted as the merge left it

kube's strategic merge changes the patch map in place while it merges it: where the merge reaches an object it
deletes a `$patch: replace` directive, the `$retainKeys` directive, each `$setElementOrder/<list>` with its list,
and the nulls of the values it adds. Strict field validation then quotes the patch map, printed as a Go map, in
that state.

EOF
CT=application/strategic-merge-patch+json $R PATCH '/api/v1/namespaces/fid/configmaps/sm?fieldValidation=Strict' '{"data":{"$patch":"replace","k1":"r1"},"metadata":{"labels":{"app":null,"tier":"be"}},"unknownTop":"x"}'; echo
CT=application/strategic-merge-patch+json $R PATCH '/api/v1/namespaces/fid/configmaps/sm?fieldValidation=Strict' '{"metadata":{"$setElementOrder/finalizers":["a.io/x"]},"unknownTop":"x"}'; echo
CT=application/strategic-merge-patch+json $R PATCH '/api/v1/namespaces/fid/configmaps/sm?fieldValidation=Strict' '{"metadata":{"annotations":{"n":null,"m":"1"}},"bogus":1}'; echo
