package builtin_test

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestNetworkingValidationAnswersAsKube replays the requests kube-apiserver
// 1.33 answered about Ingresses, IngressClasses, NetworkPolicies,
// PriorityClasses and RuntimeClasses (testdata/kube-validation-networking.json,
// recorded by docs/kube-behaviour/16-validation-networking-scheduling-node/record.py)
// and expects kube's code, reason, message and causes, in kube's order.
func TestNetworkingValidationAnswersAsKube(t *testing.T) {
	raw, err := os.ReadFile("testdata/kube-validation-networking.json")
	require.NoError(t, err)
	var cases []kubeCase
	require.NoError(t, json.Unmarshal(raw, &cases))
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
			require.NoError(t, err)
			code, out := serve(t, srv, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"val"}}`)
			require.Equal(t, http.StatusCreated, code, out)
			for _, s := range c.Setup {
				body, _ := json.Marshal(s.Body)
				code, out := serve(t, srv, s.Method, s.Path, s.ContentType, string(body))
				require.Less(t, code, 300, "setup %s %s: %v", s.Method, s.Path, out)
			}
			body, _ := json.Marshal(c.Body)
			code, out = serve(t, srv, c.Method, c.Path, c.ContentType, string(body))
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
