#!/usr/bin/env bash
# Adopting the kit moves none of a user's versions: builds a scratch module
# pinned to one end of the supported range (a kubebuilder-style suite on
# controller-runtime's envtest), records `go list -m all`, switches the
# suite's envtest import to kapitest/envtest (require + replace to this
# checkout), records it again, fails if any module present in both changed
# version (or the go directive moved), and runs the switched suite.
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
if [ -n "$moved" ] || ! diff -u "$dir/before.goline" "$dir/after.goline"; then
	echo "== $end: versions the switch moved (module before after):" >&2
	echo "$moved" >&2
	exit 1
fi
echo "== $end: no version moved ($(wc -l <"$dir/before") modules before, $(wc -l <"$dir/after") after)"
grep -E '^(k8s.io/(api|apimachinery|client-go|apiextensions-apiserver)|sigs.k8s.io/controller-runtime) ' "$dir/after"
go vet ./...
go test -count=1 ./...
