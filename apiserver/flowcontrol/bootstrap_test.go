package flowcontrol

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

// kubeBootstrap reads the list kube-apiserver 1.33 answered for a kind
// right after start (testdata/kube/bootstrap-*.json) as name -> object.
func kubeBootstrap(t *testing.T, plural string) map[string]map[string]any {
	t.Helper()
	b, err := os.ReadFile("testdata/kube/bootstrap-" + plural + ".json")
	require.NoError(t, err)
	var list struct {
		Items []map[string]any `json:"items"`
	}
	require.NoError(t, json.Unmarshal(b, &list))
	out := map[string]map[string]any{}
	for _, it := range list.Items {
		out[meta.Object(it).Name()] = it
	}
	return out
}

func TestBootstrapObjectsAreKubes(t *testing.T) {
	for _, tc := range []struct {
		plural string
		b      Bootstrap
	}{
		{"prioritylevelconfigurations", BootstrapPriorityLevels()},
		{"flowschemas", BootstrapFlowSchemas()},
	} {
		kube := kubeBootstrap(t, tc.plural)
		ours := append(append([]meta.Object{}, tc.b.Mandatory...), tc.b.Suggested...)
		require.Len(t, ours, len(kube), tc.plural)
		for _, obj := range ours {
			k, ok := kube[obj.Name()]
			require.True(t, ok, "kube has no %s %q", tc.plural, obj.Name())
			assert.Equal(t, asJSONMap(t, k["spec"]), asJSONMap(t, obj["spec"]), "%s %s", tc.plural, obj.Name())
			assert.Equal(t, meta.Object(k).Annotations(), obj.Annotations(), "%s %s", tc.plural, obj.Name())
			assert.Equal(t, Group+"/v1", obj.APIVersion()) // list items carry no apiVersion and kind
		}
	}
}

func TestBootstrapObjectsAreValidAndAlreadyDefaulted(t *testing.T) {
	for _, obj := range append(BootstrapPriorityLevels().Mandatory, BootstrapPriorityLevels().Suggested...) {
		defaulted := obj.DeepCopy()
		DefaultPriorityLevel(defaulted)
		assert.Equal(t, obj, defaulted, obj.Name())
		assert.Empty(t, ValidatePriorityLevel(obj), obj.Name())
	}
	for _, obj := range append(BootstrapFlowSchemas().Mandatory, BootstrapFlowSchemas().Suggested...) {
		defaulted := obj.DeepCopy()
		DefaultFlowSchema(defaulted)
		assert.Equal(t, obj, defaulted, obj.Name())
		assert.Empty(t, ValidateFlowSchema(obj), obj.Name())
	}
}

func TestBootstrapReturnsFreshCopies(t *testing.T) {
	a := BootstrapPriorityLevels().Mandatory[0]
	a["spec"].(map[string]any)["type"] = "Changed"
	assert.Equal(t, "Limited", BootstrapPriorityLevels().Mandatory[0]["spec"].(map[string]any)["type"])
}
