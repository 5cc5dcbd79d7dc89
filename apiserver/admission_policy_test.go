package apiserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// The answers below are kube-apiserver 1.33.13's to the same requests
// (docs/kube-behaviour/12-policy.md).

type policyServer struct {
	t   *testing.T
	url string
}

func newPolicyServer(t *testing.T) *policyServer {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), ValidatingAdmissionPolicy: true})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &policyServer{t: t, url: hs.URL}
}

type answer struct {
	code     int
	body     map[string]any
	warnings []string
}

func (ps *policyServer) do(method, path, body string) answer {
	ps.t.Helper()
	req, err := http.NewRequest(method, ps.url+path, strings.NewReader(body))
	require.NoError(ps.t, err)
	req.Header.Set("Content-Type", "application/json")
	if method == http.MethodPatch {
		req.Header.Set("Content-Type", "application/merge-patch+json")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(ps.t, err)
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{code: resp.StatusCode, warnings: resp.Header.Values("Warning")}
	_ = json.Unmarshal(raw, &a.body)
	return a
}

// pathOf is where an object of the test's kinds is created.
func pathOf(obj map[string]any) string {
	kind, _ := obj["kind"].(string)
	ns, _ := obj["metadata"].(map[string]any)["namespace"].(string)
	if ns == "" {
		ns = "default"
	}
	switch kind {
	case "ValidatingAdmissionPolicy":
		return "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies"
	case "ValidatingAdmissionPolicyBinding":
		return "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings"
	case "CustomResourceDefinition":
		return "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	case "ConfigMap":
		return "/api/v1/namespaces/" + ns + "/configmaps"
	case "Secret":
		return "/api/v1/namespaces/" + ns + "/secrets"
	case "Limit":
		return "/apis/cel.example.com/v1/limits"
	case "Thing":
		return "/apis/cel.example.com/v1/namespaces/" + ns + "/things"
	}
	panic("no path for " + kind)
}

// apply creates or replaces every object of a YAML file, as kubectl
// apply does for these tests.
func (ps *policyServer) apply(file string) []answer {
	ps.t.Helper()
	raw, err := os.ReadFile("testdata/policy/" + file)
	require.NoError(ps.t, err)
	var out []answer
	for _, doc := range strings.Split(string(raw), "\n---\n") {
		js, err := yaml.YAMLToJSON([]byte(doc))
		require.NoError(ps.t, err)
		var obj map[string]any
		require.NoError(ps.t, json.Unmarshal(js, &obj))
		path := pathOf(obj)
		a := ps.do("POST", path, string(js))
		if a.code == http.StatusConflict {
			name := obj["metadata"].(map[string]any)["name"].(string)
			cur := ps.do("GET", path+"/"+name, "")
			obj["metadata"].(map[string]any)["resourceVersion"] = cur.body["metadata"].(map[string]any)["resourceVersion"]
			js, _ = json.Marshal(obj)
			a = ps.do("PUT", path+"/"+name, string(js))
		}
		out = append(out, a)
	}
	return out
}

func configMap(name, ns string, data map[string]string) string {
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": ns}, "data": data})
	return string(b)
}

func TestValidatingAdmissionPolicyWithParamsDeniesAndWarnsAsKube(t *testing.T) {
	ps := newPolicyServer(t)
	for _, a := range ps.apply("cm-limits.yaml") {
		require.Equal(t, http.StatusCreated, a.code, a.body)
	}
	const cms = "/api/v1/namespaces/default/configmaps"
	denied := func(name, msg string) string {
		return "configmaps \"" + name + "\" is forbidden: ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding' denied request: " + msg
	}
	// parameterNotFoundAction Deny: no params yet.
	a := ps.do("POST", cms, configMap("a", "default", map[string]string{"x": "1"}))
	require.Equal(t, http.StatusUnprocessableEntity, a.code)
	assert.Equal(t, denied("a", "failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction"), a.body["message"])

	require.Equal(t, http.StatusCreated, ps.do("POST", "/api/v1/namespaces/kube-public/configmaps",
		configMap("params-limits", "kube-public", map[string]string{"maxKeys": "2"})).code, "the binding only selects namespace default")

	cases := []struct {
		name   string
		data   map[string]string
		code   int
		reason string
		msg    string
	}{
		{"a", map[string]string{"x": "1"}, 201, "", ""},
		{"b", map[string]string{"x": "1", "y": "2", "z": "3"}, 403, "Forbidden", "too many keys: 3 > 2"},
		{"c", map[string]string{"forbidden": "1"}, 422, "Invalid", "the key forbidden is forbidden"},
		{"abcdefghijklmnopqrstuvwxyz", nil, 422, "Invalid", "failed expression: object.metadata.name.size() < 20"},
		{"e", map[string]string{"x": "1", "y": "2", "forbidden": "3"}, 403, "Forbidden", "too many keys: 3 > 2"},
		{"params-x", map[string]string{"x": "1", "y": "2", "z": "3"}, 201, "", ""}, // excluded by a matchCondition
	}
	for _, tc := range cases {
		t.Run("configmap "+tc.name, func(t *testing.T) {
			a := ps.do("POST", cms, configMap(tc.name, "default", tc.data))
			require.Equal(t, tc.code, a.code, a.body)
			if tc.code != 201 {
				assert.Equal(t, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
					"message": denied(tc.name, tc.msg), "reason": tc.reason, "code": float64(tc.code),
					"details": map[string]any{"name": tc.name, "kind": "configmaps", "causes": []any{map[string]any{
						"message": "ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding' denied request: " + tc.msg}}}}, a.body)
			}
		})
	}

	t.Run("Warn and Audit bindings warn instead", func(t *testing.T) {
		ps.apply("cm-limits-warn.yaml")
		a := ps.do("POST", cms+"?dryRun=All", configMap("f", "default", map[string]string{"x": "1", "y": "2", "forbidden": "3"}))
		require.Equal(t, http.StatusCreated, a.code, a.body)
		assert.Equal(t, []string{
			`299 - "Validation failed for ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding': too many keys: 3 > 2"`,
			`299 - "Validation failed for ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding': the key forbidden is forbidden"`,
		}, a.warnings)
	})
	t.Run("the policy's status is type-checked", func(t *testing.T) {
		a := ps.do("GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/cm-limits", "")
		assert.Equal(t, map[string]any{"observedGeneration": float64(1), "typeChecking": map[string]any{}}, a.body["status"])
	})
}

func TestValidatingAdmissionPolicySpecsAreValidatedAsKube(t *testing.T) {
	ps := newPolicyServer(t)
	a := ps.apply("bad-policy.yaml")[0]
	require.Equal(t, http.StatusUnprocessableEntity, a.code)
	var causes []string
	for _, c := range a.body["details"].(map[string]any)["causes"].([]any) {
		cm := c.(map[string]any)
		causes = append(causes, cm["field"].(string)+": "+cm["message"].(string))
	}
	syntax := "Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}"
	assert.Equal(t, []string{
		"spec.matchConditions[0].expression: Invalid value: \"object.x +\": compilation failed: ERROR: <input>:1:11: " + syntax + "\n | object.x +\n | ..........^",
		"spec.matchConditions[1].expression: Invalid value: \"'x'\": must evaluate to bool but got string",
		"spec.variables[0].expression: Invalid value: \"object.y +\": compilation failed: ERROR: <input>:1:11: " + syntax + "\n | object.y +\n | ..........^",
		"spec.variables[1].expression: Invalid value: \"variables.nope\": compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | variables.nope\n | .........^",
		"spec.validations[0].expression: Invalid value: \"object.a >\": compilation failed: ERROR: <input>:1:11: " + syntax + "\n | object.a >\n | ..........^",
		"spec.validations[1].expression: Invalid value: \"'x'\": must evaluate to bool but got string",
		"spec.validations[2].messageExpression: Invalid value: \"1\": must evaluate to string but got int",
		"spec.validations[3].reason: Unsupported value: \"Nope\": supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\"",
		"spec.validations[4].expression: Invalid value: \"params.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^",
		"spec.validations[5].expression: Invalid value: \"isSemver('1.0.0')\": compilation failed: ERROR: <input>:1:9: undeclared reference to 'isSemver' (in container '')\n | isSemver('1.0.0')\n | ........^",
		"spec.auditAnnotations[0].key: Invalid value: \"bad/bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
		"spec.auditAnnotations[0].valueExpression: Invalid value: \"1\": must evaluate to one of [string null_type] but got int",
	}, causes)
}

func TestValidatingAdmissionPolicyErrorsFollowFailurePolicy(t *testing.T) {
	ps := newPolicyServer(t)
	ps.apply("errors.yaml")
	secret := `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"keep"},"data":{"a":"Yg=="}}`
	a := ps.do("POST", "/api/v1/namespaces/default/secrets", secret)
	require.Equal(t, http.StatusUnprocessableEntity, a.code)
	assert.Equal(t, `secrets "keep" is forbidden: ValidatingAdmissionPolicy 'errs' with binding 'errs' denied request: expression 'request.operation == 'DELETE' || object.data.missing == 'x'' resulted in error: no such key: missing`, a.body["message"])

	ps.apply("errors-ignored.yaml")
	require.Equal(t, http.StatusCreated, ps.do("POST", "/api/v1/namespaces/default/secrets", secret).code, "failurePolicy Ignore admits")
	a = ps.do("DELETE", "/api/v1/namespaces/default/secrets/keep", "")
	require.Equal(t, http.StatusUnprocessableEntity, a.code, "a delete is validated with oldObject")
	assert.Equal(t, `secrets "keep" is forbidden: ValidatingAdmissionPolicy 'errs' with binding 'errs' denied request: cannot delete keep`, a.body["message"])

	st := ps.do("GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/errs", "").body["status"]
	assert.Equal(t, map[string]any{"observedGeneration": float64(2), "typeChecking": map[string]any{"expressionWarnings": []any{map[string]any{
		"fieldRef": "spec.validations[0].expression",
		"warning": "/v1, Kind=Secret: ERROR: <input>:1:54: found no matching overload for '_==_' applied to '(bytes, string)'\n" +
			" | request.operation == 'DELETE' || object.data.missing == 'x'\n | .....................................................^\n"}}}}, st)
}

func TestValidatingAdmissionPolicyStatusTypeChecksAsKube(t *testing.T) {
	ps := newPolicyServer(t)
	a := ps.apply("typed.yaml")[0]
	require.Equal(t, http.StatusCreated, a.code, a.body)
	st := ps.do("GET", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/typed", "").body["status"]
	assert.Equal(t, map[string]any{"observedGeneration": float64(1), "typeChecking": map[string]any{"expressionWarnings": []any{
		map[string]any{"fieldRef": "spec.validations[1].expression",
			"warning": "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica < 10\n | ...........^\n"},
		map[string]any{"fieldRef": "spec.validations[2].expression",
			"warning": "apps/v1, Kind=Deployment: ERROR: <input>:1:32: found no matching overload for 'startsWith' applied to 'int.(string)'\n | object.spec.replicas.startsWith('a')\n | ...............................^\n"},
	}}}, st)
}

func TestValidatingAdmissionPolicyOnCustomResourcesMatchesEquivalentVersions(t *testing.T) {
	ps := newPolicyServer(t)
	for _, a := range ps.apply("things-crds.yaml") {
		require.Equal(t, http.StatusCreated, a.code, a.body)
	}
	ps.apply("things.yaml")
	thing := `{"apiVersion":"cel.example.com/v1","kind":"Thing","metadata":{"name":"t1"},"size":5}`
	const things = "/apis/cel.example.com/v1/namespaces/default/things"
	require.Equal(t, http.StatusCreated, ps.do("POST", things+"?dryRun=All", thing).code, "parameterNotFoundAction Allow: no params, no validation")
	for _, a := range ps.apply("limits.yaml") {
		require.Equal(t, http.StatusCreated, a.code, a.body)
	}
	a := ps.do("POST", things, thing)
	require.Equal(t, http.StatusUnprocessableEntity, a.code)
	assert.Equal(t, `things.cel.example.com "t1" is forbidden: ValidatingAdmissionPolicy 'things' with binding 'things' denied request: seen as v2/cel.example.com/v2 from v1: size over small`, a.body["message"])
	assert.True(t, slices.Contains([]string{"things"}, a.body["details"].(map[string]any)["kind"].(string)))
}

// A CRD's schema unions (items, additionalProperties) decode without strict
// checks in kube, so kubectl's fieldValidation=Strict reports only the
// unknown fields outside them (kube-apiserver 1.33's answer).
func TestCRDStrictDecodingSkipsSchemaUnions(t *testing.T) {
	ps := newPolicyServer(t)
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"stricts.s.example.com"},
	"spec":{"group":"s.example.com","names":{"plural":"stricts","kind":"Strict"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,
	"schema":{"openAPIV3Schema":{"type":"object","bogus1":1,"properties":{"a":{"type":"array","items":{"type":"string","bogus2":1}},
	"m":{"type":"object","additionalProperties":{"type":"string","bogus3":1}}}}}}]}}`
	a := ps.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions?fieldValidation=Strict&dryRun=All", crd)
	require.Equal(t, http.StatusBadRequest, a.code)
	assert.Equal(t, `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].schema.openAPIV3Schema.bogus1"`, a.body["message"])
}

// A validation that runs past kube's per-call cost limit on the object it
// is given fails as kube's does (the binding's failurePolicy Fail denies),
// and the server goes on answering.
func TestValidatingAdmissionPolicyOverItsCostLimitIsStopped(t *testing.T) {
	ps := newPolicyServer(t)
	const expr = `!has(object.data) || object.data.all(k, object.data.all(j, k.size() + j.size() > 0))`
	policy, _ := json.Marshal(map[string]any{"apiVersion": "admissionregistration.k8s.io/v1", "kind": "ValidatingAdmissionPolicy",
		"metadata": map[string]any{"name": "costly"}, "spec": map[string]any{"failurePolicy": "Fail",
			"matchConstraints": map[string]any{"resourceRules": []any{map[string]any{"apiGroups": []any{""}, "apiVersions": []any{"v1"},
				"operations": []any{"CREATE"}, "resources": []any{"configmaps"}}}},
			"validations": []any{map[string]any{"expression": expr}}}})
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies", string(policy)).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"costly"},
"spec":{"policyName":"costly","validationActions":["Deny"],"matchResources":{"objectSelector":{"matchLabels":{"costly":"yes"}}}}}`).code)
	data := map[string]any{}
	for i := range 1500 {
		data[fmt.Sprintf("k%04d", i)] = "v"
	}
	cm, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "big", "labels": map[string]any{"costly": "yes"}}, "data": data})
	a := ps.do("POST", "/api/v1/namespaces/default/configmaps?dryRun=All", string(cm))
	msg := "ValidatingAdmissionPolicy 'costly' with binding 'costly' denied request: expression '" + expr +
		"' resulted in error: operation cancelled: actual cost limit exceeded"
	assert.Equal(t, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": `configmaps "big" is forbidden: ` + msg, "reason": "Invalid", "code": float64(422),
		"details": map[string]any{"name": "big", "kind": "configmaps", "causes": []any{map[string]any{"message": msg}}}}, a.body)
	assert.Equal(t, http.StatusOK, ps.do("GET", "/api/v1/namespaces", "").code)
}

// A deletecollection is admitted object by object, in the order listed,
// when a policy or a webhook watches deletes: the store's bulk delete does
// not skip them. Held to kube's answers (docs/kube-behaviour/12-policy.md,
// "Deletecollection under a policy and a webhook"): the first denied object
// stops the deletes, the denial names the object "Unknown" (kube's
// collection request names none) and webhooks get no request name.
func TestPoliciesAndWebhooksSeeEveryObjectOfADeleteCollection(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), ValidatingAdmissionPolicy: true, Webhooks: &apiserver.WebhookOptions{}})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	ps := &policyServer{t: t, url: hs.URL}
	hooks := newHookServer(t)
	recordingHooks(t, ps, hooks)
	require.Equal(t, http.StatusOK, ps.do("DELETE", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/record-mutate", "").code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"keep-protected"},"spec":{"failurePolicy":"Fail",
"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["DELETE"],"resources":["configmaps"]}]},
"validations":[{"expression":"!has(oldObject.metadata.labels) || !('protected' in oldObject.metadata.labels)",
"messageExpression":"'configmap ' + oldObject.metadata.name + ' is protected'"}]}}`).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"keep-protected"},"spec":{"policyName":"keep-protected","validationActions":["Deny"]}}`).code)
	const cms = "/api/v1/namespaces/dc/configmaps"
	require.Equal(t, http.StatusCreated, ps.do("POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"dc"}}`).code)
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		labels := `{"hook":"record"}`
		if n == "c" {
			labels = `{"hook":"record","protected":"yes"}`
		}
		require.Equal(t, http.StatusCreated, ps.do("POST", cms, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"`+n+`","labels":`+labels+`}}`).code)
	}
	names := func(reqs []map[string]any) (requestNames, oldNames []any) {
		for _, r := range reqs {
			assert.Equal(t, "DELETE", r["operation"])
			requestNames = append(requestNames, r["name"])
			oldNames = append(oldNames, r["oldObject"].(map[string]any)["metadata"].(map[string]any)["name"])
		}
		return requestNames, oldNames
	}

	hooks.reviews("/record") // the creates'
	a := ps.do("DELETE", cms, "")
	msg := "ValidatingAdmissionPolicy 'keep-protected' with binding 'keep-protected' denied request: configmap c is protected"
	assert.Equal(t, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": `configmaps "Unknown" is forbidden: ` + msg, "reason": "Invalid", "code": float64(422),
		"details": map[string]any{"name": "Unknown", "kind": "configmaps", "causes": []any{map[string]any{"message": msg}}}}, a.body)
	requestNames, oldNames := names(hooks.reviews("/record"))
	assert.Equal(t, []any{nil, nil}, requestNames, "a deletecollection's admission requests name no object")
	assert.Equal(t, []any{"a", "b"}, oldNames, "the webhook saw each object deleted before the denied one")
	left := ps.do("GET", cms, "")
	var kept []any
	for _, it := range left.body["items"].([]any) {
		kept = append(kept, it.(map[string]any)["metadata"].(map[string]any)["name"])
	}
	assert.Equal(t, []any{"c", "d", "e"}, kept, "the deletes stop at the denied object")

	require.Equal(t, http.StatusOK, ps.do("PATCH", cms+"/c", `{"metadata":{"labels":{"protected":null}}}`).code)
	hooks.reviews("/record") // the patch's
	a = ps.do("DELETE", cms, "")
	require.Equal(t, http.StatusOK, a.code, a.body)
	assert.Equal(t, "ConfigMapList", a.body["kind"])
	_, oldNames = names(hooks.reviews("/record"))
	assert.Equal(t, []any{"c", "d", "e"}, oldNames)
	assert.Empty(t, ps.do("GET", cms, "").body["items"])
}
