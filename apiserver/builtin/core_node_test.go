package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeSpecReadsBackAsKubeConvertsIt holds a Node's spec to kube's
// conversion and update rules (docs/kube-behaviour/19-divergences.md):
// podCIDR and podCIDRs are one value (the list, whose first the single
// one is, and which an older client's podCIDR replaces), the removed
// dynamic kubelet configuration is dropped, and externalID never changes.
func TestNodeSpecReadsBackAsKubeConvertsIt(t *testing.T) {
	cases := []struct {
		name, create, patch string
		code                int
		spec                map[string]any
		message             string
	}{
		{name: "a podCIDR alone is the list's first", create: `{"podCIDR":"10.0.0.0/24"}`, code: http.StatusCreated,
			spec: map[string]any{"podCIDR": "10.0.0.0/24", "podCIDRs": []any{"10.0.0.0/24"}}},
		{name: "a podCIDRs list gives podCIDR its first", create: `{"podCIDRs":["10.0.0.0/24","fd00::/64"]}`, code: http.StatusCreated,
			spec: map[string]any{"podCIDR": "10.0.0.0/24", "podCIDRs": []any{"10.0.0.0/24", "fd00::/64"}}},
		{name: "a podCIDR that is not the list's first replaces the list", create: `{"podCIDR":"10.1.0.0/24","podCIDRs":["10.0.0.0/24"]}`,
			code: http.StatusCreated, spec: map[string]any{"podCIDR": "10.1.0.0/24", "podCIDRs": []any{"10.1.0.0/24"}}},
		{name: "a configSource is dropped on create", create: `{"configSource":{"configMap":{"namespace":"kube-system","name":"c","kubeletConfigKey":"k"}}}`,
			code: http.StatusCreated, spec: map[string]any{}},
		{name: "a patch of podCIDRs alone leaves the podCIDR the list", create: `{"podCIDR":"10.0.0.0/24"}`,
			patch: `{"spec":{"podCIDRs":["10.1.0.0/24"]}}`, code: http.StatusOK,
			spec: map[string]any{"podCIDR": "10.0.0.0/24", "podCIDRs": []any{"10.0.0.0/24"}}},
		{name: "a change of both is refused", create: `{"podCIDRs":["10.0.0.0/24"]}`,
			patch: `{"spec":{"podCIDR":"10.1.0.0/24","podCIDRs":["10.1.0.0/24"]}}`, code: http.StatusUnprocessableEntity,
			message: `Node "n" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid`},
		{name: "a configSource is dropped on update", create: `{}`,
			patch: `{"spec":{"configSource":{"configMap":{"namespace":"kube-system","name":"c","kubeletConfigKey":"k"}}}}`,
			code:  http.StatusOK, spec: map[string]any{}},
		{name: "an externalID never changes", create: `{"externalID":"a"}`, patch: `{"spec":{"externalID":"b"}}`,
			code: http.StatusUnprocessableEntity, message: `Node "n" is invalid: spec.externalID: Forbidden: may not be updated`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newBuiltinServer(t)
			code, out := serve(t, srv, "POST", "/api/v1/nodes", "application/json", `{"metadata":{"name":"n"},"spec":`+c.create+`}`)
			if c.patch != "" {
				require.Equal(t, http.StatusCreated, code, out)
				code, out = serve(t, srv, "PATCH", "/api/v1/nodes/n", "application/merge-patch+json", c.patch)
			}
			require.Equal(t, c.code, code, out)
			if c.message != "" {
				assert.Equal(t, c.message, out["message"])
				return
			}
			spec := out["spec"].(map[string]any)
			delete(spec, "taints") // the not-ready taint a new node gets
			assert.Equal(t, c.spec, spec)
		})
	}
}

// TestConditionsWithoutTypeAreKept holds the condition lists of kinds
// whose kube validation checks no condition type to kube's answer: a
// condition with only a message is stored with an empty type and status
// (kube's typed decoding), a Pod's is refused as kube's
// validatePodConditions refuses it.
func TestConditionsWithoutTypeAreKept(t *testing.T) {
	srv := newBuiltinServer(t)
	code, out := serve(t, srv, "POST", "/api/v1/nodes", "application/json",
		`{"metadata":{"name":"n"},"status":{"conditions":[{"message":"x"}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	assert.Equal(t, []any{map[string]any{"type": "", "status": "", "message": "x", "lastHeartbeatTime": nil, "lastTransitionTime": nil}},
		out["status"].(map[string]any)["conditions"])

	code, out = serve(t, srv, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json",
		`{"metadata":{"name":"cs.example.com"},"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"cs","kind":"C"},
		  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	code, out = serve(t, srv, "PATCH", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/cs.example.com/status",
		"application/json-patch+json", `[{"op":"add","path":"/status/conditions","value":[{"message":"patched"}]}]`)
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, []any{map[string]any{"type": "", "status": "", "message": "patched", "lastTransitionTime": nil}},
		out["status"].(map[string]any)["conditions"])

	code, out = serve(t, srv, "POST", "/api/v1/namespaces/default/pods", "application/json",
		`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	code, out = serve(t, srv, "PATCH", "/api/v1/namespaces/default/pods/p/status", "application/merge-patch+json",
		`{"status":{"conditions":[{"message":"x"}]}}`)
	require.Equal(t, http.StatusUnprocessableEntity, code, out)
	assert.Contains(t, out["message"], `status.conditions[0].Type: Invalid value: "": name part must be non-empty`)
}
