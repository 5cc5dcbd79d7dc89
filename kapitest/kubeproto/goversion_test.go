package kubeproto

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/kapi-dev/kapi/codec/protobuf/builtinproto"
)

// goTypesVersion is the version of k8s.io/api this test binary is built
// with (the kit's oldest supported one under kapitest/go.mod, the newest
// under compat/test.sh newest), read from the module path of the source
// file of one of its functions ("…/k8s.io/api@v0.33.0/core/v1/…"), which
// test binaries keep where their build information lists no modules.
func goTypesVersion(t *testing.T) string {
	t.Helper()
	file, _ := runtime.FuncForPC(reflect.ValueOf((*corev1.Pod).String).Pointer()).FileLine(0)
	_, rest, ok := strings.Cut(filepath.ToSlash(file), "k8s.io/api@")
	v, _, _ := strings.Cut(rest, "/")
	if !ok || v == "" {
		t.Fatalf("no k8s.io/api version in the path %q", file)
	}
	return v
}

// requireGoTypesOfTheData skips a test that holds the embedded data (made
// from the newest k8s.io/api the kit supports) to the Go types field for
// field or byte for byte, when the Go types are of an older k8s.io/api:
// newer releases add fields, so such tests hold only at the data's own
// version, where compat/test.sh newest runs them. Decoding and encoding
// kube's bytes stays tested at both ends by the other tests.
func requireGoTypesOfTheData(t *testing.T) {
	t.Helper()
	if v := goTypesVersion(t); !slices.Contains(builtinproto.Source(), "k8s.io/api@"+v) {
		if os.Getenv("KAPITEST_COMPAT_END") == "newest" {
			t.Fatalf("the embedded data (%s) is not of the newest supported k8s.io/api %s: go generate ./kubeproto at the newest set", builtinproto.Source(), v)
		}
		t.Skipf("the Go types are k8s.io/api %s, the embedded data %s: compared at the data's version by compat/test.sh newest", v, builtinproto.Source())
	}
}
