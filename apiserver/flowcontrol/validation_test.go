package flowcontrol

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

// kubeWrite is one write sent to kube-apiserver 1.33 and its answer
// (testdata/kube/writes.json, recorded as docs/kube-behaviour/09-flowcontrol.md
// tells).
type kubeWrite struct {
	Title    string         `json:"title"`
	Kind     string         `json:"kind"`
	Method   string         `json:"method"`
	Path     string         `json:"path"`
	Body     map[string]any `json:"body"`
	Code     int            `json:"code"`
	Response map[string]any `json:"response"`
}

func loadKubeWrites(t *testing.T) []kubeWrite {
	t.Helper()
	b, err := os.ReadFile("testdata/kube/writes.json")
	require.NoError(t, err)
	var ws []kubeWrite
	require.NoError(t, json.Unmarshal(b, &ws))
	return ws
}

// prepare runs what the server runs before validation: defaults in the
// request's version, then conversion to v1.
func prepare(w kubeWrite) meta.Object {
	obj := meta.Object(normalizeNumbers(meta.DeepCopyValue(w.Body)).(map[string]any))
	if w.Kind == "FlowSchema" {
		DefaultFlowSchema(obj)
	} else {
		DefaultPriorityLevel(obj)
	}
	return ConvertToV1(obj)
}

func validate(w kubeWrite, obj meta.Object) meta.FieldErrors {
	switch {
	case w.Kind == "FlowSchema" && strings.HasSuffix(w.Path, "/status"):
		return ValidateFlowSchemaStatus(obj)
	case w.Kind == "FlowSchema":
		return ValidateFlowSchema(obj)
	case strings.HasSuffix(w.Path, "/status"):
		return ValidatePriorityLevelStatus(obj)
	}
	return ValidatePriorityLevel(obj)
}

// addresses are the Go pointers kube prints in a few messages.
var addresses = regexp.MustCompile(`\(0x[0-9a-f]+\)`)

func asJSONMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	b = addresses.ReplaceAll(b, []byte("(0xADDR)"))
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

func TestValidationRefusesWhatKubeRefusesWithTheSameStatus(t *testing.T) {
	for _, w := range loadKubeWrites(t) {
		if w.Code != 422 {
			continue
		}
		t.Run(w.Title, func(t *testing.T) {
			obj := prepare(w)
			errs := validate(w, obj)
			// The generic ObjectMeta checks (the name) are the server's.
			want := asJSONMap(t, w.Response)
			details := want["details"].(map[string]any)
			var causes []any
			var parts []string
			for _, c := range details["causes"].([]any) {
				cm := c.(map[string]any)
				if cm["field"] == "metadata.name" {
					continue
				}
				causes = append(causes, c)
				parts = append(parts, cm["field"].(string)+": "+cm["message"].(string))
			}
			if len(causes) < len(details["causes"].([]any)) {
				if len(causes) == 0 {
					assert.Empty(t, errs)
					return
				}
				details["causes"] = causes
			}
			got := asJSONMap(t, meta.Invalid(meta.GroupKind{Group: Group, Kind: w.Kind}, obj.Name(), errs))
			assert.Equal(t, want, got)
			_ = parts
		})
	}
}

func TestDefaultsAreKubesAndAcceptedObjectsValidate(t *testing.T) {
	for _, w := range loadKubeWrites(t) {
		if w.Code/100 != 2 {
			continue
		}
		t.Run(w.Title, func(t *testing.T) {
			obj := prepare(w)
			assert.Empty(t, validate(w, obj))
			version := strings.TrimPrefix(w.Response["apiVersion"].(string), Group+"/")
			served := ConvertFromV1(obj, version)
			assert.Equal(t, asJSONMap(t, w.Response["spec"]), asJSONMap(t, served["spec"]))
			wantAnn, _ := w.Response["metadata"].(map[string]any)["annotations"]
			gotAnn := served.Metadata()["annotations"]
			assert.Equal(t, asJSONMap(t, map[string]any{"a": wantAnn}), asJSONMap(t, map[string]any{"a": gotAnn}))
		})
	}
}

func TestStoredZeroSharesReadAsV1beta3WithTheAnnotationAndBack(t *testing.T) {
	stored := meta.Object{"apiVersion": Group + "/v1", "kind": "PriorityLevelConfiguration",
		"metadata": map[string]any{"name": "zero"},
		"spec": map[string]any{"type": "Limited", "limited": map[string]any{"nominalConcurrencyShares": int64(0),
			"lendablePercent": int64(0), "limitResponse": map[string]any{"type": "Reject"}}}}
	beta := ConvertFromV1(stored, "v1beta3")
	assert.Equal(t, Group+"/v1beta3", beta.APIVersion())
	assert.Equal(t, map[string]string{PreserveZeroConcurrencySharesKey: ""}, beta.Annotations())
	assert.Nil(t, stored.Annotations(), "the stored object is left alone")

	DefaultPriorityLevel(beta)
	back := ConvertToV1(beta)
	assert.Equal(t, stored, back, "a v1beta3 round trip keeps 0 shares and drops the annotation")

	thirty := meta.DeepCopyValue(map[string]any(stored)).(map[string]any)
	thirty["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"] = int64(30)
	assert.Nil(t, ConvertFromV1(thirty, "v1beta3").Annotations())
	fs := meta.Object{"apiVersion": Group + "/v1", "kind": "FlowSchema", "metadata": map[string]any{"name": "f"}}
	assert.Equal(t, Group+"/v1beta3", ConvertFromV1(fs, "v1beta3").APIVersion())
	assert.Equal(t, Group+"/v1", fs.APIVersion())
}

func TestDefaultingLeavesValuesOfTheWrongTypeForValidation(t *testing.T) {
	obj := meta.Object{"apiVersion": Group + "/v1", "kind": "PriorityLevelConfiguration",
		"spec": map[string]any{"type": "Limited", "limited": map[string]any{"limitResponse": map[string]any{
			"type": "Queue", "queuing": map[string]any{"queues": "many"}}}}}
	DefaultPriorityLevel(obj)
	q := obj["spec"].(map[string]any)["limited"].(map[string]any)["limitResponse"].(map[string]any)["queuing"].(map[string]any)
	assert.Equal(t, "many", q["queues"])
	assert.Equal(t, int64(8), q["handSize"])
	assert.NotEmpty(t, ValidatePriorityLevel(obj))
}
