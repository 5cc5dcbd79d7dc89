#!/usr/bin/env bash
# Adopting the kit moves none of a user's versions: builds a scratch module
# pinned to one end of the supported range (a kubebuilder-style suite on
# controller-runtime's envtest), records `go list -m all`, switches the
# suite's envtest import to kapitest/envtest (require + replace to this
# checkout), records it again, fails if the switch moved the version of any
# module present in both (or the go directive), and runs the switched suite.
#
# A move is the switch's doing when the new version is required by a module
# of the kit, by the user's module itself, or by a module the switch added
# or changed. A module may also show a higher version only because the
# switch made the build need a package of a module the user already had at
# the same version: Go's module graph pruning then loads that module's own
# requirements, which `go list -m all` did not count before (at the newest
# set: golang.org/x/exp, needed through cel-go and antlr, requires
# golang.org/x/tools/go/expect v0.1.1-deprecated where k8s.io/kube-openapi
# asks v0.1.0-deprecated). Such a version is the user's own requirement; no
# requirement of the kit can lower it, their go.mod does not change for it,
# and the module gives no package to the build. It is listed, not failed.
#
#   kapitest/compat/adopt.sh oldest   # controller-runtime v0.21.0, k8s.io/* v0.33.0, Go 1.24
#   kapitest/compat/adopt.sh newest   # controller-runtime v0.25.3, k8s.io/* v0.37.2
set -euo pipefail

end=${1:?usage: adopt.sh oldest|newest}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $end in
oldest) cr=v0.21.0 k8s=v0.33.0 apiext=v0.33.0 goline=1.24.0 ;;
newest) cr=v0.25.3 k8s=v0.37.2 apiext=v0.37.0 goline=1.26.0 ;;
*) echo "adopt.sh: oldest or newest, not $end" >&2; exit 2 ;;
esac

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cat >go.mod <<MOD
module example.com/operator

go $goline

require (
	k8s.io/api $k8s
	k8s.io/apiextensions-apiserver $apiext
	k8s.io/apimachinery $k8s
	k8s.io/client-go $k8s
	sigs.k8s.io/controller-runtime $cr
)
MOD
mkdir -p internal/controller
cat >internal/controller/suite_test.go <<'GO'
package controller

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

func TestAConfigMapRoundTrips(t *testing.T) {
	testEnv := &envtest.Environment{}
	cfg, err := testEnv.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = testEnv.Stop() }()
	cl, err := client.New(cfg, client.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	want := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"k": "v"}}
	if err := cl.Create(ctx, want); err != nil {
		t.Fatal(err)
	}
	var got corev1.ConfigMap
	if err := cl.Get(ctx, client.ObjectKeyFromObject(want), &got); err != nil {
		t.Fatal(err)
	}
	if got.Data["k"] != "v" {
		t.Fatalf("got %v", got.Data)
	}
}
GO
go mod tidy
go vet ./...
go list -m all >"$dir/before"
grep '^go ' go.mod >"$dir/before.goline"

# The switch: the import line, and the require + replace of the kit.
sed -i 's#"sigs.k8s.io/controller-runtime/pkg/envtest"#"github.com/kapi-dev/kapi/kapitest/envtest"#' internal/controller/suite_test.go
go mod edit -require=github.com/kapi-dev/kapi/kapitest@v0.0.0 -require=github.com/kapi-dev/kapi@v0.0.0 \
	-replace=github.com/kapi-dev/kapi/kapitest="$root/kapitest" -replace=github.com/kapi-dev/kapi="$root"
go mod tidy
go list -m all >"$dir/after"
grep '^go ' go.mod >"$dir/after.goline"

echo "== $end: modules added by the switch (module path version)"
join -v2 <(awk '{print $1, $2}' "$dir/before" | sort) <(awk '{print $1, $2}' "$dir/after" | sort) | grep -v '^github.com/kapi-dev/' || true
moved=$(join <(awk '{print $1, $2}' "$dir/before" | sort) <(awk '{print $1, $2}' "$dir/after" | sort) | awk '$2 != $3')
# Each moved module's new version, by who requires it: the switch's doing
# unless every module requiring it was there before at the same version
# and no package of the build comes from it.
go mod graph >"$dir/graph"
go list -deps -test -f '{{with .Module}}{{.Path}}{{end}}' ./... | sort -u >"$dir/built"
awk '{print $1 "@" $2}' "$dir/before" | sort -u >"$dir/before.at"
forced= unpruned=
while read -r mod old new; do
	[ -n "$mod" ] || continue
	by=$(awk -v want="$mod@$new" '$2 == want {print $1}' "$dir/graph" | sort -u)
	if [ -n "$by" ] && [ -z "$(comm -23 <(echo "$by") "$dir/before.at")" ] && ! grep -qxF "$mod" "$dir/built"; then
		unpruned+="$mod $old $new (required by $(echo "$by" | paste -sd' '), unchanged)"$'\n'
	else
		forced+="$mod $old $new (required by $(echo "${by:-nothing}" | paste -sd' '))"$'\n'
	fi
done <<<"$moved"
if [ -n "$unpruned" ]; then
	echo "== $end: versions shown higher only because the build now needs a package of a module the user had (module before after):"
	printf '%s' "$unpruned"
fi
if [ -n "$forced" ] || ! diff -u "$dir/before.goline" "$dir/after.goline"; then
	echo "== $end: versions the switch moved (module before after):" >&2
	printf '%s' "$forced" >&2
	exit 1
fi
echo "== $end: no version moved by the switch ($(wc -l <"$dir/before") modules before, $(wc -l <"$dir/after") after)"
grep -E '^(k8s.io/(api|apimachinery|client-go|apiextensions-apiserver)|sigs.k8s.io/controller-runtime) ' "$dir/after"
go vet ./...
go test -count=1 ./...
