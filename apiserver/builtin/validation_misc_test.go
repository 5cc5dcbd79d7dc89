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

// TestMiscValidationAnswersAsKube replays the requests of
// docs/kube-behaviour/18-validation-misc.md (testdata/kube-validation-misc.json:
// ControllerRevision, APIService, Node, CSINode, IPAddress, ServiceCIDR,
// Namespace, events.k8s.io Event, CSR) and expects kube's code, reason,
// message and causes, in kube's order.
func TestMiscValidationAnswersAsKube(t *testing.T) {
	raw, err := os.ReadFile("testdata/kube-validation-misc.json")
	require.NoError(t, err)
	var cases []kubeCase
	require.NoError(t, json.Unmarshal(raw, &cases))
	require.NotEmpty(t, cases)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			rs := builtin.Resources()
			srv, err := apiserver.New(apiserver.Config{Resources: rs, OpenAPIComponents: builtin.OpenAPIComponents()})
			require.NoError(t, err)
			code, out := serve(t, srv, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"valmisc-1"}}`)
			require.Equal(t, http.StatusCreated, code, out)
			for _, s := range c.Setup {
				body, _ := json.Marshal(s.Body)
				code, out := serve(t, srv, s.Method, s.Path, "application/json", string(body))
				require.Less(t, code, 300, "setup %s %s: %v", s.Method, s.Path, out)
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
