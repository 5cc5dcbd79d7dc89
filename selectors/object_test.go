package selectors

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLabelSelectorFromObjectReadsAMetav1LabelSelector(t *testing.T) {
	tests := []struct {
		name, json string
		want       string // the selector's String; "!" for NothingLabels
		labels     map[string]string
		matches    bool
	}{
		{"a missing selector selects nothing", `null`, "!", map[string]string{"a": "b"}, false},
		{"an empty selector selects everything", `{}`, "", map[string]string{"a": "b"}, true},
		{"empty matchLabels and matchExpressions select everything", `{"matchLabels":{},"matchExpressions":[]}`, "", nil, true},
		{"matchLabels pairs must all hold", `{"matchLabels":{"b":"2","a":"1"}}`, "a=1,b=2", map[string]string{"a": "1", "b": "2"}, true},
		{"a missing pair fails the selector", `{"matchLabels":{"a":"1","b":"2"}}`, "a=1,b=2", map[string]string{"a": "1"}, false},
		{"In wants one of its values", `{"matchExpressions":[{"key":"t","operator":"In","values":["web","api","web"]}]}`, "t in (api,web)", map[string]string{"t": "api"}, true},
		{"NotIn refuses its values", `{"matchExpressions":[{"key":"t","operator":"NotIn","values":["web"]}]}`, "t notin (web)", map[string]string{"t": "web"}, false},
		{"Exists wants the key", `{"matchExpressions":[{"key":"t","operator":"Exists"}]}`, "t", map[string]string{"t": ""}, true},
		{"DoesNotExist refuses the key", `{"matchExpressions":[{"key":"t","operator":"DoesNotExist"}]}`, "!t", map[string]string{"t": ""}, false},
		{"pairs and expressions are sorted by key", `{"matchLabels":{"z":"1"},"matchExpressions":[{"key":"a","operator":"Exists"}]}`, "a,z=1", map[string]string{"a": "", "z": "1"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			require.NoError(t, json.Unmarshal([]byte(tt.json), &v))
			sel, err := LabelSelectorFromObject(v)
			require.NoError(t, err)
			if tt.want == "!" {
				assert.True(t, sel.Equal(NothingLabels()))
			} else {
				assert.Equal(t, tt.want, sel.String())
			}
			assert.Equal(t, tt.matches, sel.Matches(tt.labels))
		})
	}
}

func TestLabelSelectorFromObjectRefusesWhatKubeRefuses(t *testing.T) {
	tests := []struct{ name, json, err string }{
		{"an unknown operator", `{"matchExpressions":[{"key":"a","operator":"Gt","values":["1"]}]}`, `"Gt" is not a valid label selector operator`},
		{"In without values", `{"matchExpressions":[{"key":"a","operator":"In"}]}`, "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty"},
		{"Exists with values", `{"matchExpressions":[{"key":"a","operator":"Exists","values":["x"]}]}`, `values: Invalid value: []string{"x"}: values set must be empty for exists and does not exist`},
		{"an invalid key", `{"matchLabels":{"a/b/c":"1"}}`, `key: Invalid value: "a/b/c": a qualified name must consist of`},
		{"an invalid value", `{"matchLabels":{"a":"-x"}}`, `values[0][a]: Invalid value: "-x": a valid label must be`},
		{"a value that is not a string", `{"matchLabels":{"a":1}}`, "matchLabels[a]: not a string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v any
			require.NoError(t, json.Unmarshal([]byte(tt.json), &v))
			_, err := LabelSelectorFromObject(v)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}

// FuzzLabelSelectorFromObject holds the object form to the text form: a
// selector the object form reads prints as text that parses back to an
// equal selector, so both select the same labels.
func FuzzLabelSelectorFromObject(f *testing.F) {
	f.Add("a", "b", "t", "In", "x,y")
	f.Add("example.com/a", "", "t", "NotIn", "")
	f.Add("a", "b", "a", "Exists", "")
	f.Add("a", "b", "c", "DoesNotExist", "v")
	f.Fuzz(func(t *testing.T, labelKey, labelValue, key, op, values string) {
		expr := map[string]any{"key": key, "operator": op}
		if values != "" {
			var list []any
			for _, v := range strings.Split(values, ",") {
				list = append(list, v)
			}
			expr["values"] = list
		}
		obj := map[string]any{"matchLabels": map[string]any{labelKey: labelValue}, "matchExpressions": []any{expr}}
		sel, err := LabelSelectorFromObject(obj)
		if err != nil {
			return
		}
		again, err := ParseLabelSelector(sel.String())
		if err != nil {
			t.Fatalf("%v: String() %q does not parse: %v", obj, sel.String(), err)
		}
		if !again.Equal(sel) {
			t.Fatalf("%v: %q parses to %q", obj, sel.String(), again.String())
		}
	})
}
