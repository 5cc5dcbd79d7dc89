package fieldmanager

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
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
	v, err := codec.DecodeValue(j)
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

// builtinComponents returns the raw component schemas of
// testdata/builtin-schemas.json (kube-apiserver 1.33's).
func builtinComponents(t testing.TB) map[string]any {
	t.Helper()
	b, err := os.ReadFile("testdata/builtin-schemas.json")
	require.NoError(t, err)
	v, err := codec.DecodeValue(b)
	require.NoError(t, err)
	return v.(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any)
}

// builtinComponent returns one component of testdata/builtin-schemas.json,
// parsed (the file is parsed once per test binary).
func builtinComponent(t testing.TB, name string) *schema.Schema {
	t.Helper()
	parsed, err := parsedBuiltins(builtinComponents(t))
	require.NoError(t, err)
	s := parsed[name]
	require.NotNil(t, s, name)
	return s
}

var (
	parsedBuiltinsOnce sync.Once
	parsedBuiltinsVal  map[string]*schema.Schema
	parsedBuiltinsErr  error
)

func parsedBuiltins(raw map[string]any) (map[string]*schema.Schema, error) {
	parsedBuiltinsOnce.Do(func() { parsedBuiltinsVal, parsedBuiltinsErr = schema.ParseComponents(raw) })
	return parsedBuiltinsVal, parsedBuiltinsErr
}

func deploymentManager(t testing.TB) *Manager {
	t.Helper()
	m, err := NewWithConfig(Config{
		GVK:         meta.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"},
		Schema:      builtinComponent(t, "io.k8s.api.apps.v1.Deployment"),
		ResetFields: map[string][]string{"": {"status"}, "status": {"spec", "metadata.labels"}},
	})
	require.NoError(t, err)
	return m
}

var gvkWidget = meta.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}

// FuzzIdentityMatchesEncodingJSON holds the identity key's fast paths to
// encoding/json: String writes json.Marshal's bytes, and whatever
// parseIdentity reads without encoding/json, json.Unmarshal reads alike.
func FuzzIdentityMatchesEncodingJSON(f *testing.F) {
	f.Add("kubectl", "Update", "v1", "", `{"manager":"kubectl","operation":"Update","apiVersion":"v1"}`)
	f.Add("ctl<&>", "Apply", "apps/v1", "status", `{"manager":"a\"b","operation":"Apply"}`)
	f.Add("é", "", "", "scale", `{"operation":"Update","manager":"x"}`)
	f.Add("", "", "", "", `{}`)
	f.Fuzz(func(t *testing.T, manager, operation, apiVersion, subresource, key string) {
		id := identity{Manager: manager, Operation: operation, APIVersion: apiVersion, Subresource: subresource}
		want := id
		if want.Operation == OperationApply {
			want.APIVersion = ""
		}
		b, err := json.Marshal(want)
		require.NoError(t, err)
		require.Equal(t, string(b), id.String())
		got, ok := parseIdentity(id.String())
		require.True(t, ok)
		var viaJSON identity
		require.NoError(t, json.Unmarshal(b, &viaJSON))
		require.Equal(t, viaJSON, got)

		if fast, ok := parsePlainIdentity(key); ok {
			var slow identity
			require.NoError(t, json.Unmarshal([]byte(key), &slow), "read %q without encoding/json", key)
			require.Equal(t, slow, fast)
		}
	})
}

func TestSerializePathElementWritesFieldNamesAsFieldpathDoes(t *testing.T) {
	for _, name := range []string{"data", "", "f:x", `a"b`, "é", "."} {
		pe := fieldpath.PathElement{FieldName: &name}
		want, err := fieldpath.SerializePathElement(pe)
		require.NoError(t, err)
		got, err := serializePathElement(pe)
		require.NoError(t, err)
		require.Equal(t, want, got, "field name %q", name)
	}
}
