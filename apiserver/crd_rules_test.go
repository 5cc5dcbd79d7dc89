package apiserver

import (
	"encoding/json"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// The answers below are kube-apiserver 1.33.13's to the same requests,
// recorded in docs/kube-behaviour/12-policy.md. Where kube reports
// several causes its order follows Go's map iteration (random), so
// several causes are compared as a set.

const crdsPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

func readTestYAML(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile("testdata/cel/" + name)
	require.NoError(t, err)
	js, err := yaml.YAMLToJSON(raw)
	require.NoError(t, err)
	return string(js)
}

func causeMessages(body map[string]any) []string {
	var out []string
	causes, _ := field(body, "details.causes").([]any)
	for _, c := range causes {
		m := c.(map[string]any)
		f, _ := m["field"].(string)
		out = append(out, f+": "+m["message"].(string))
	}
	sort.Strings(out)
	return out
}

func TestCRDRulesRefusedAsKubeRefusesThem(t *testing.T) {
	cases := []struct {
		name, file string
		causes     []string
	}{
		{"a messageExpression over the cost budget", "costly-message.yaml", []string{
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
			"spec.validation.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
		}},
		{"malformed rules, before any compilation", "malformed-rules.yaml", []string{
			"spec.validation.openAPIV3Schema.properties[spec].properties[list].items.x-kubernetes-validations[0].rule: Invalid value: \"self == oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.validation.openAPIV3Schema.properties[spec].properties[list]",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[10].message: Required value: message must be specified if rule contains line breaks",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].fieldPath: Invalid value: \".nope\": fieldPath must be a valid path",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[4].reason: Unsupported value: \"Nope\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\"",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[9].message: Invalid value: \"  \": message must be non-empty if specified",
		}},
		{"rules that do not compile, are not boolean, or cost too much", "bad-rules.yaml", []string{
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.a >\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a >\n | ........^",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[1].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.a\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: cel expression must evaluate to a bool",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[2].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[3].rule: Invalid value: apiextensions.ValidationRule{Rule:\"isSemver('1.0.0')\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')\n | isSemver('1.0.0')\n | ........^",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[4].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:\"self.a == 1\", Message:\"\", MessageExpression:\"1\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: messageExpression must evaluate to a string",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[5].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:\"self.a == 1\", Message:\"\", MessageExpression:\"self.a +\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: messageExpression compilation failed: ERROR: <input>:1:9: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.a +\n | ........^",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[6].rule: Forbidden: estimated rule cost exceeds budget by factor of 3.6x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
			"spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[7].rule: Invalid value: apiextensions.ValidationRule{Rule:\"self.nope == 1\", Message:\"\", MessageExpression:\"\", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:\"\", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// kube 1.33's words; from 1.34 a rule's value prints as JSON.
			ts := startReleaseServer(t, Release133)
			r := ts.do("POST", crdsPath, readTestYAML(t, tc.file))
			require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.raw))
			assert.Equal(t, tc.causes, causeMessages(r.body))
		})
	}
}

func TestCustomResourceRulesAnswerAsKube(t *testing.T) {
	ts := newTestServer(t)
	r := ts.do("POST", crdsPath, readTestYAML(t, "widgets.yaml"))
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	const path = "/apis/cel.example.com/v1/namespaces/default/widgets"
	widget := func(name, spec string) string {
		return `{"apiVersion":"cel.example.com/v1","kind":"Widget","metadata":{"name":"` + name + `"},"spec":` + spec + `}`
	}
	mergePatch := "application/merge-patch+json"
	steps := []struct {
		name                  string
		method, url, body, ct string
		code                  int
		message               string   // the Status message, when one cause
		causes                []string // the causes, when several
		warnings              []string
	}{
		{"a valid object is created", "POST", path, widget("w1", `{"name":"a","replicas":2,"minReplicas":1,"maxReplicas":3}`), "",
			201, "", nil, nil},
		{"a rule at the root sees metadata.name", "POST", path, widget("x1", `{"name":"a","replicas":2,"minReplicas":1,"maxReplicas":3}`), "",
			422, `Widget.cel.example.com "x1" is invalid: <nil>: Invalid value: "object": name must start with w`, nil, nil},
		{"a failure is reported at the rule's fieldPath", "POST", path, widget("w2", `{"name":"a","replicas":0,"minReplicas":1,"maxReplicas":3}`), "",
			422, `Widget.cel.example.com "w2" is invalid: spec.replicas: Invalid value: "object": replicas should be greater than or equal to minReplicas`, nil, nil},
		{"a messageExpression with reason FieldValueForbidden", "POST", path, widget("w3", `{"name":"a","replicas":5,"minReplicas":1,"maxReplicas":3}`), "",
			422, `Widget.cel.example.com "w3" is invalid: spec: Forbidden: replicas of a must be at most maxReplicas`, nil, nil},
		{"kube's libraries: regex, quantity, IP, URL, format", "POST", path,
			widget("w4", `{"name":"a","replicas":2,"minReplicas":1,"maxReplicas":3,"tags":["ok","Bad"],"limits":{"cpu":"2Gi","mem":"x"},"ip":"::1","url":"http://x","label":"Not_A_Label","items":[{"key":"a","value":1}]}`), "",
			422, "", []string{
				`spec.ip: Invalid value: "string": must be an IPv4 address`,
				`spec.label: Invalid value: "string": must be a DNS label`,
				`spec.limits[cpu]: Invalid value: "string": must be a quantity under 1Gi`,
				`spec.limits[mem]: Invalid value: "string": must be a quantity under 1Gi`,
				`spec.tags: Invalid value: "array": failed rule: self.all(t, t.matches('^[a-z]+$'))`,
				`spec.url: Invalid value: "string": bad url http://x`,
			}, nil},
		{"every library accepts a valid object", "POST", path,
			widget("w5", `{"name":"a","replicas":2,"minReplicas":1,"maxReplicas":3,"tags":["ok"],"limits":{"cpu":"500Mi"},"ip":"10.0.0.1","url":"https://x/y","label":"ok","counter":5,"mode":"m","items":[{"key":"a","value":1}]}`), "",
			201, "", nil, nil},
		{"a transition rule on the object", "PATCH", path + "/w5", `{"spec":{"name":"b"}}`, mergePatch,
			422, `Widget.cel.example.com "w5" is invalid: spec: Invalid value: "object": name is immutable`, nil, nil},
		{"a transition rule on a field", "PATCH", path + "/w5", `{"spec":{"mode":"n"}}`, mergePatch,
			422, `Widget.cel.example.com "w5" is invalid: spec.mode: Invalid value: "string": mode is immutable`, nil, nil},
		{"optionalOldSelf", "PATCH", path + "/w5", `{"spec":{"counter":3}}`, mergePatch,
			422, `Widget.cel.example.com "w5" is invalid: spec.counter: Invalid value: "integer": counter cannot decrease`, nil, nil},
		{"optionalOldSelf passes", "PATCH", path + "/w5", `{"spec":{"counter":7}}`, mergePatch, 200, "", nil, nil},
		{"items of a map list correlate by key", "PATCH", path + "/w5",
			`{"spec":{"items":[{"key":"b","value":0},{"key":"a","value":0}]}}`, mergePatch,
			422, `Widget.cel.example.com "w5" is invalid: spec.items[1].value: Invalid value: "integer": value cannot decrease`, nil, nil},
		{"a new item of a map list has no old value", "PATCH", path + "/w5",
			`{"spec":{"items":[{"key":"b","value":0},{"key":"a","value":1}]}}`, mergePatch, 200, "", nil, nil},
		{"an object created for ratcheting", "POST", path, widget("w6", `{"name":"abcdef","replicas":2,"minReplicas":1,"maxReplicas":3,"tags":["ok"]}`), "",
			201, "", nil, nil},
		{"the CRD is tightened", "PUT", crdsPath + "/widgets.cel.example.com", "", "", 200, "", nil, nil},
		{"unchanged invalid fields are ratcheted; a ratcheted rule warns", "PATCH", path + "/w6", `{"spec":{"replicas":3}}`, mergePatch,
			200, "", nil, []string{`299 - "spec.tags: Invalid value: \"array\": need more tags"`}},
		{"a changed invalid field is not, and blocks the rules", "PATCH", path + "/w6", `{"spec":{"name":"abcdefg"}}`, mergePatch,
			422, "", []string{
				`<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`,
				`spec.name: Too long: may not be more than 3 bytes`,
			}, nil},
		{"a changed list fails its new rule", "PATCH", path + "/w6", `{"spec":{"tags":["ok","no"]}}`, mergePatch,
			422, `Widget.cel.example.com "w6" is invalid: spec.tags: Invalid value: "array": need more tags`, nil, nil},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			body := s.body
			if s.name == "the CRD is tightened" {
				cur := ts.do("GET", s.url, "")
				rv := field(cur.body, "metadata.resourceVersion").(string)
				body = strings.Replace(readTestYAML(t, "widgets-tightened.yaml"), `"metadata":{`, `"metadata":{"resourceVersion":"`+rv+`",`, 1)
			}
			var headers []string
			if s.ct != "" {
				headers = []string{"Content-Type", s.ct}
			}
			r := ts.do(s.method, s.url, body, headers...)
			require.Equal(t, s.code, r.code, string(r.raw))
			if s.message != "" {
				assert.Equal(t, s.message, r.body["message"])
			}
			if s.causes != nil {
				assert.Equal(t, s.causes, causeMessages(r.body))
			}
			assert.Equal(t, s.warnings, r.header.Values("Warning"))
		})
	}
}

func TestHostileRulesAreStoppedAsKubeStopsThem(t *testing.T) {
	ts := newTestServer(t)
	r := ts.do("POST", crdsPath, readTestYAML(t, "hostile.yaml"))
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	const path = "/apis/cel.example.com/v1/namespaces/default/hostiles"
	items := strings.TrimSuffix(strings.Repeat(`"abcde",`, 800), ",")
	r = ts.do("POST", path, `{"apiVersion":"cel.example.com/v1","kind":"Hostile","metadata":{"name":"h1"},"spec":{"list":[`+items+`]}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.raw))
	assert.Equal(t, `Hostile.cel.example.com "h1" is invalid: spec.list: Invalid value: "array": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x == y))`, r.body["message"])

	patterns := []struct{ pattern, matches, find string }{
		{`(a+)+$`, "value must match pattern", "failed rule: self.value.find(self.pattern) != ''"},
		{`[`, "error parsing regexp: missing closing ]: `[` evaluating rule: value must match pattern",
			"Illegal regex: error parsing regexp: missing closing ]: `[` evaluating rule: self.value.find(self.pattern) != ''"},
		{`a{1000}{1000}`, "error parsing regexp: invalid nested repetition operator: `{1000}{1000}` evaluating rule: value must match pattern",
			"Illegal regex: error parsing regexp: invalid nested repetition operator: `{1000}{1000}` evaluating rule: self.value.find(self.pattern) != ''"},
	}
	for _, p := range patterns {
		t.Run("a pattern "+p.pattern+" is a clean error", func(t *testing.T) {
			body := `{"apiVersion":"cel.example.com/v1","kind":"Hostile","metadata":{"name":"h2"},"spec":{"matched":{"value":"` +
				strings.Repeat("a", 50) + `b","pattern":` + jsonString(p.pattern) + `}}}`
			r := ts.do("POST", path, body)
			require.Equal(t, http.StatusUnprocessableEntity, r.code, string(r.raw))
			assert.Equal(t, []string{
				`spec.matched: Invalid value: "object": ` + p.find,
				`spec.matched: Invalid value: "object": ` + p.matches,
			}, causeMessages(r.body))
		})
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
