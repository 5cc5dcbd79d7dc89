package builtin_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestMiscValidationAnswersAsKube replays the requests of
// docs/kube-behaviour/18-validation-misc.md (testdata/kube-validation-misc.json:
// ControllerRevision, APIService, Node, CSINode, IPAddress, ServiceCIDR,
// Namespace, events.k8s.io Event, CSR) and expects kube's code, reason,
// message and causes, in kube's order.
func TestMiscValidationAnswersAsKube(t *testing.T) {
	raw, err := os.ReadFile("testdata/kube-validation-misc.json")
	require.NoError(t, err)
	var cases []struct {
		kubeCase
		// Unconditional: a PUT sent as recorded, without the object's
		// resourceVersion (kapi's, which the recording's is not).
		Unconditional bool `json:"unconditional"`
	}
	require.NoError(t, json.Unmarshal(raw, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			// Recorded from kube-apiserver 1.33.13.
			r := apiserver.Release133
			srv, err := apiserver.New(apiserver.Config{Release: r, Resources: builtin.ResourcesFor(r), OpenAPIComponents: builtin.OpenAPIComponentsFor(r)})
			require.NoError(t, err)
			code, out := serve(t, srv, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"valmisc-1"}}`)
			require.Equal(t, http.StatusCreated, code, out)
			for _, s := range c.Setup {
				body, _ := json.Marshal(s.Body)
				code, out := serve(t, srv, s.Method, s.Path, "application/json", string(body))
				require.Less(t, code, 300, "setup %s %s: %v", s.Method, s.Path, out)
			}
			if obj, ok := c.Body.(map[string]any); ok && c.Method == "PUT" && !c.Unconditional {
				path := strings.TrimSuffix(strings.TrimSuffix(c.Path, "/status"), "/finalize")
				code, cur := serve(t, srv, "GET", path, "", "")
				require.Equal(t, http.StatusOK, code, cur)
				obj["metadata"].(map[string]any)["resourceVersion"] = cur["metadata"].(map[string]any)["resourceVersion"]
			}
			body, _ := json.Marshal(c.Body)
			code, out = serve(t, srv, c.Method, c.Path, "application/json", string(body))
			require.Equal(t, c.Code, code, "%v", out)
			if c.Message == "" {
				return
			}
			assert.Equal(t, c.Reason, out["reason"])
			assert.Equal(t, c.Message, out["message"])
			var causes []map[string]any
			if d, ok := out["details"].(map[string]any); ok {
				for _, cause := range asAnyList(d["causes"]) {
					causes = append(causes, cause.(map[string]any))
				}
			}
			assert.Equal(t, c.Causes, causes)
		})
	}
}

// TestANodeKeepsTheStatusItIsCreatedWith: kube's node strategy keeps a
// new node's status (a kubelet registers with it), where other kinds with
// a status subresource start from an empty one.
func TestANodeKeepsTheStatusItIsCreatedWith(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(t, err)
	code, out := serve(t, srv, "POST", "/api/v1/nodes", "application/json",
		`{"metadata":{"name":"n1"},"status":{"capacity":{"cpu":"1"},"addresses":[{"type":"InternalIP","address":"10.0.0.1"}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	status := out["status"].(map[string]any)
	assert.Equal(t, map[string]any{"cpu": "1"}, status["capacity"])
	assert.Equal(t, map[string]any{"cpu": "1"}, status["allocatable"], "allocatable defaults to capacity")
	assert.Equal(t, []any{map[string]any{"type": "InternalIP", "address": "10.0.0.1"}}, status["addresses"])
}

// TestAControllerRevisionsDataIsOneFieldToServerSideApply: kube's
// managedFields own a ControllerRevision's data (a RawExtension) as a
// whole, the schema kapi validates data with notwithstanding.
func TestAControllerRevisionsDataIsOneFieldToServerSideApply(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(t, err)
	code, out := serve(t, srv, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"ns"}}`)
	require.Equal(t, http.StatusCreated, code, out)
	code, out = serve(t, srv, "PATCH", "/apis/apps/v1/namespaces/ns/controllerrevisions/cr?fieldManager=t", "application/apply-patch+yaml",
		`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"cr"},"data":{"a":{"b":1}},"revision":2}`)
	require.Equal(t, http.StatusCreated, code, out)
	entry := out["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"f:data": map[string]any{}, "f:revision": map[string]any{}}, entry["fieldsV1"])
}
