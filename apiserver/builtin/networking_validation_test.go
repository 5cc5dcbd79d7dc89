package builtin_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestNetworkingValidationAnswersAsKube replays the requests kube-apiserver
// 1.33 answered about Ingresses, IngressClasses, NetworkPolicies,
// PriorityClasses, RuntimeClasses and EndpointSlices (testdata/kube-validation-networking.json,
// recorded by docs/kube-behaviour/16-validation-networking-scheduling-node/record.py)
// and expects kube's code, reason, message and causes, in kube's order.
func TestNetworkingValidationAnswersAsKube(t *testing.T) {
	replayKubeCases(t, nil, "testdata/kube-validation-networking.json")
}

// networkingFuzzTargets are a collection and a stored object of each kind
// whose validation networking_validation_test.go holds to kube's.
var networkingFuzzTargets = []struct{ collection, object, valid string }{
	{"/apis/networking.k8s.io/v1/namespaces/val/ingresses", "f",
		`{"metadata":{"name":"f"},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Prefix","backend":{"service":{"name":"s","port":{"number":80}}}}]}}]}}`},
	{"/apis/networking.k8s.io/v1/ingressclasses", "f", `{"metadata":{"name":"f"},"spec":{"controller":"example.com/x"}}`},
	{"/apis/networking.k8s.io/v1/namespaces/val/networkpolicies", "f", `{"metadata":{"name":"f"},"spec":{"podSelector":{}}}`},
	{"/apis/scheduling.k8s.io/v1/priorityclasses", "f", `{"metadata":{"name":"f"},"value":1,"globalDefault":true}`},
	{"/apis/node.k8s.io/v1/runtimeclasses", "f", `{"metadata":{"name":"f"},"handler":"runc"}`},
	{"/apis/discovery.k8s.io/v1/namespaces/val/endpointslices", "f",
		`{"metadata":{"name":"f"},"addressType":"IPv4","endpoints":[{"addresses":["10.0.0.1"]}],"ports":[{"port":80}]}`},
}

// FuzzNetworkingWrites sends arbitrary bodies to the creates, updates and
// status writes of Ingresses, IngressClasses, NetworkPolicies,
// PriorityClasses, RuntimeClasses and EndpointSlices (seeded with the recorded kube
// cases): never a panic or a 500, always a Status on failure.
func FuzzNetworkingWrites(f *testing.F) {
	raw, err := os.ReadFile("testdata/kube-validation-networking.json")
	require.NoError(f, err)
	var cases []kubeCase
	require.NoError(f, json.Unmarshal(raw, &cases))
	for _, c := range cases {
		b, _ := json.Marshal(c.Body)
		for i, target := range networkingFuzzTargets {
			if strings.HasPrefix(c.Path, target.collection) {
				f.Add(uint8(i), uint8(len(c.Setup)%3), b)
			}
		}
	}
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(f, err)
	send := func(method, path, ct string, body []byte) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
	send("POST", "/api/v1/namespaces", "application/json", []byte(`{"metadata":{"name":"val"}}`))
	for _, target := range networkingFuzzTargets {
		send("POST", target.collection, "application/json", []byte(target.valid))
	}
	f.Fuzz(func(t *testing.T, target, method uint8, body []byte) {
		tg := networkingFuzzTargets[int(target)%len(networkingFuzzTargets)]
		m, path, ct := "POST", tg.collection, "application/json"
		switch method % 3 {
		case 1:
			m, path, ct = "PATCH", tg.collection+"/"+tg.object, "application/merge-patch+json"
		case 2:
			m, path, ct = "PATCH", tg.collection+"/"+tg.object+"/status", "application/merge-patch+json"
		}
		rec := send(m, path, ct, body)
		if rec.Code >= 500 {
			t.Fatalf("%s %s %s: %d %s", m, path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 300 {
			var st map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st["kind"] != "Status" {
				t.Fatalf("%s %s: %d without a Status: %s", m, path, rec.Code, rec.Body)
			}
		}
		if rec.Code == http.StatusCreated { // keep the collections small
			var o map[string]any
			if json.Unmarshal(rec.Body.Bytes(), &o) == nil {
				if md, ok := o["metadata"].(map[string]any); ok {
					if name, ok := md["name"].(string); ok && name != tg.object {
						send("DELETE", tg.collection+"/"+name, "application/json", nil)
					}
				}
			}
		}
	})
}

// TestSystemPriorityClasses holds kapi to what kube-apiserver 1.33 does with
// its two system PriorityClasses: its post-start hook stores them, a
// DELETE of one is 403.
func TestSystemPriorityClasses(t *testing.T) {
	newServer := func(t *testing.T) *apiserver.Server {
		hooks, err := builtin.PostStartHooks(builtin.Options{})
		require.NoError(t, err)
		srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(),
			OpenAPIComponents: builtin.OpenAPIComponents(), PostStartHooks: hooks})
		require.NoError(t, err)
		return srv
	}
	const pcs = "/apis/scheduling.k8s.io/v1/priorityclasses"

	t.Run("the hook stores both classes as kube's does", func(t *testing.T) {
		srv := newServer(t)
		code, out := serve(t, srv, "GET", pcs+"/system-node-critical", "", "")
		require.Equal(t, http.StatusOK, code, out)
		assert.Equal(t, int64(2000001000), int64(out["value"].(float64)))
		assert.Equal(t, "PreemptLowerPriority", out["preemptionPolicy"])
		assert.Equal(t, "Used for system critical pods that must not be moved from their current node.", out["description"])
		md := out["metadata"].(map[string]any)
		assert.Equal(t, float64(1), md["generation"])
		assert.Equal(t, "kube-apiserver", md["managedFields"].([]any)[0].(map[string]any)["manager"])
		code, out = serve(t, srv, "GET", pcs+"/system-cluster-critical", "", "")
		require.Equal(t, http.StatusOK, code, out)
		assert.Equal(t, int64(2000000000), int64(out["value"].(float64)))
	})
	t.Run("a system class may not be deleted", func(t *testing.T) {
		srv := newServer(t)
		code, out := serve(t, srv, "DELETE", pcs+"/system-node-critical", "", "")
		require.Equal(t, http.StatusForbidden, code, out)
		assert.Equal(t, `priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted`, out["message"])
		code, _ = serve(t, srv, "GET", pcs+"/system-node-critical", "", "")
		assert.Equal(t, http.StatusOK, code)
	})
}
