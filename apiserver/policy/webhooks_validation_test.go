package policy

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hookJSON is a valid webhook with the given fields replaced (a JSON
// object merged over it).
func hookJSON(t *testing.T, over string) map[string]any {
	t.Helper()
	w := map[string]any{"name": "a.b.c", "clientConfig": map[string]any{"url": "https://h.example/x"},
		"sideEffects": "None", "admissionReviewVersions": []any{"v1"}}
	var o map[string]any
	require.NoError(t, json.Unmarshal([]byte(over), &o))
	for k, v := range o {
		w[k] = v
	}
	return w
}

func configJSON(hooks ...map[string]any) map[string]any {
	l := make([]any, len(hooks))
	for i, h := range hooks {
		l[i] = h
	}
	return map[string]any{"metadata": map[string]any{"name": "probe"}, "webhooks": l}
}

// The update rules come from kube's ValidateValidating/Mutating-
// WebhookConfigurationUpdate: the reference cannot store the old objects
// they are about (v1 validation refuses them; only objects written by
// older servers have them), so these cases are not recorded answers.
func TestValidateWebhooksRelaxesOnUpdateWhatTheStoredConfigurationBroke(t *testing.T) {
	cases := []struct {
		name     string
		old, new []string // webhooks, as JSON merged over a valid one; old nil: a create
		want     []string
	}{
		{name: "a create refuses sideEffects Some",
			new:  []string{`{"sideEffects":"Some"}`},
			want: []string{`webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`}},
		{name: "an update of a valid configuration refuses sideEffects Some",
			old: []string{`{}`}, new: []string{`{"sideEffects":"Some"}`},
			want: []string{`webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"`}},
		{name: "an update keeps sideEffects Some when a stored webhook had it",
			old: []string{`{"sideEffects":"Some"}`}, new: []string{`{"sideEffects":"Some"}`, `{"name":"b.b.c","sideEffects":"Unknown"}`}},
		{name: "an update relaxing side effects still lists every class when one is missing",
			old: []string{`{"sideEffects":"Unknown"}`}, new: []string{`{"sideEffects":null}`},
			want: []string{`webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun, Some, Unknown`}},
		{name: "an update relaxing side effects still refuses an unknown class",
			old: []string{`{"sideEffects":"Some"}`}, new: []string{`{"sideEffects":"Maybe"}`},
			want: []string{`webhooks[0].sideEffects: Unsupported value: "Maybe": supported values: "None", "NoneOnDryRun", "Some", "Unknown"`}},
		{name: "an update keeps unknown review versions when a stored webhook had only those",
			old: []string{`{"admissionReviewVersions":["v0"]}`}, new: []string{`{"admissionReviewVersions":["v0"]}`}},
		{name: "an update relaxing review versions still requires one",
			old: []string{`{"admissionReviewVersions":["v0"]}`}, new: []string{`{"admissionReviewVersions":[]}`},
			want: []string{`webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1`}},
		{name: "an update of known review versions refuses unknown ones",
			old: []string{`{}`}, new: []string{`{"admissionReviewVersions":["v0"]}`},
			want: []string{`webhooks[0].admissionReviewVersions: Invalid value: []string{"v0"}: must include at least one of v1, v1beta1`}},
		{name: "an update keeps repeated names when the stored webhooks repeated them",
			old: []string{`{}`, `{}`}, new: []string{`{}`, `{}`, `{}`}},
		{name: "an update of unique names refuses a repeated one",
			old: []string{`{}`, `{"name":"b.b.c"}`}, new: []string{`{}`, `{}`},
			want: []string{`webhooks[1].name: Duplicate value: "a.b.c"`}},
		{name: "an update keeps invalid selector values when a stored selector had one",
			old: []string{`{"objectSelector":{"matchExpressions":[{"key":"k","operator":"In","values":["a b"]}]}}`},
			new: []string{`{"namespaceSelector":{"matchExpressions":[{"key":"k","operator":"In","values":["c d"]}]}}`}},
		{name: "an update relaxing selector values still checks keys",
			old:  []string{`{"objectSelector":{"matchExpressions":[{"key":"k","operator":"In","values":["a b"]}]}}`},
			new:  []string{`{"objectSelector":{"matchExpressions":[{"key":"k k","operator":"In","values":["a b"]}]}}`},
			want: []string{`webhooks[0].objectSelector.matchExpressions[0].key: Invalid value: "k k": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`}},
		{name: "an update of valid selectors refuses invalid values",
			old: []string{`{}`}, new: []string{`{"objectSelector":{"matchExpressions":[{"key":"k","operator":"In","values":["a b"]}]}}`},
			want: []string{`webhooks[0].objectSelector.matchExpressions[0].values[0]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{name: "an update leaving every webhook's match conditions as they were does not compile them",
			old: []string{`{"matchConditions":[{"name":"a","expression":"1"}]}`},
			new: []string{`{"timeoutSeconds":5,"matchConditions":[{"name":"a","expression":"1"}]}`}},
		{name: "an update changing a webhook's match conditions compiles them all",
			old:  []string{`{"matchConditions":[{"name":"a","expression":"1"}]}`},
			new:  []string{`{"matchConditions":[{"name":"a","expression":"1"},{"name":"b","expression":"true"}]}`},
			want: []string{`webhooks[0].matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int`}},
		{name: "an update adding a webhook compiles the match conditions",
			old:  []string{`{"matchConditions":[{"name":"a","expression":"1"}]}`},
			new:  []string{`{"matchConditions":[{"name":"a","expression":"1"}]}`, `{"name":"b.b.c"}`},
			want: []string{`webhooks[0].matchConditions[0].expression: Invalid value: "1": must evaluate to bool but got int`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			build := func(list []string) map[string]any {
				hooks := make([]map[string]any, len(list))
				for i, h := range list {
					hooks[i] = hookJSON(t, h)
					if hooks[i]["sideEffects"] == nil {
						delete(hooks[i], "sideEffects")
					}
				}
				return configJSON(hooks...)
			}
			var old map[string]any
			if c.old != nil {
				old = build(c.old)
			}
			for _, mutating := range []bool{false, true} {
				var got []string
				for _, e := range ValidateWebhooks(build(c.new), old, mutating) {
					got = append(got, e.Error())
				}
				assert.Equal(t, c.want, got, "mutating=%v", mutating)
			}
		})
	}
}

// FuzzValidateWebhooks feeds arbitrary configurations, new and stored, to
// the webhook validation (seeded with every recorded kube case): it never
// panics and names a field for every error.
func FuzzValidateWebhooks(f *testing.F) {
	raw, err := os.ReadFile("../builtin/testdata/kube-webhookconfigurations.json")
	require.NoError(f, err)
	var cases []struct {
		Body  any `json:"body"`
		Setup []struct {
			Body any `json:"body"`
		} `json:"setup"`
	}
	require.NoError(f, json.Unmarshal(raw, &cases))
	for _, c := range cases {
		b, _ := json.Marshal(c.Body)
		old := []byte("null")
		if len(c.Setup) > 0 {
			old, _ = json.Marshal(c.Setup[0].Body)
		}
		f.Add(b, old, false)
		f.Add(b, old, true)
	}
	f.Fuzz(func(t *testing.T, newJSON, oldJSON []byte, mutating bool) {
		var obj, old map[string]any
		if json.Unmarshal(newJSON, &obj) != nil || obj == nil {
			return
		}
		_ = json.Unmarshal(oldJSON, &old)
		for _, e := range ValidateWebhooks(obj, old, mutating) {
			if e.Field == "" {
				t.Fatalf("an error without a field: %v", e)
			}
		}
	})
}
