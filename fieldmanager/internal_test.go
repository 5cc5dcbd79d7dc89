package fieldmanager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/meta"
)

func init() {
	// No test may reach the recover in Update or Apply: make it loud, with
	// the stack of the original panic.
	panicHook = func(r any) { panic(fmt.Sprintf("recovered panic: %v\n%s", r, debug.Stack())) }
}

func obj(t testing.TB, y string) meta.Object {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(y))
	require.NoError(t, err)
	v, err := decodeJSON(j)
	require.NoError(t, err)
	return meta.Object(v.(map[string]any))
}

func jsonOf(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(v))
	return string(bytes.TrimSpace(buf.Bytes()))
}

func builtinComponents(t testing.TB) map[string]any {
	t.Helper()
	b, err := os.ReadFile("testdata/builtin-schemas.json")
	require.NoError(t, err)
	v, err := decodeJSON(b)
	require.NoError(t, err)
	return v.(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any)
}

func deploymentManager(t testing.TB) *Manager {
	t.Helper()
	c := builtinComponents(t)
	m, err := NewWithConfig(Config{
		GVK:    meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		Schema: c["io.k8s.api.apps.v1.Deployment"].(map[string]any), Components: c,
		ResetFields: map[string][]string{"": {"status"}, "status": {"spec", "metadata.labels"}},
	})
	require.NoError(t, err)
	return m
}

var gvkWidget = meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
