package builtin_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestDeviceRequestsAreForOneDeviceByDefault holds SetDefaults_ExactDeviceRequest
// and SetDefaults_DeviceSubRequest, as kube-apiserver 1.37.2 answered: a
// request without an allocation mode is for an exact count, one device
// unless it says otherwise; a request for all devices has no count.
func TestDeviceRequestsAreForOneDeviceByDefault(t *testing.T) {
	requests := `[
		{"name": "gpu", "exactly": {"deviceClassName": "gpu.example.com"}},
		{"name": "two", "exactly": {"deviceClassName": "gpu.example.com", "count": 2}},
		{"name": "all", "exactly": {"deviceClassName": "gpu.example.com", "allocationMode": "All"}},
		{"name": "alt", "firstAvailable": [{"name": "a", "deviceClassName": "gpu.example.com"}]}]`
	want := []any{
		map[string]any{"name": "gpu", "exactly": map[string]any{"deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": float64(1)}},
		map[string]any{"name": "two", "exactly": map[string]any{"deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": float64(2)}},
		map[string]any{"name": "all", "exactly": map[string]any{"deviceClassName": "gpu.example.com", "allocationMode": "All"}},
		map[string]any{"name": "alt", "firstAvailable": []any{map[string]any{"name": "a", "deviceClassName": "gpu.example.com", "allocationMode": "ExactCount", "count": float64(1)}}},
	}
	cases := []struct {
		name, path, body string
		requests         []string
	}{
		{name: "a ResourceClaim's requests", path: "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims",
			body:     `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim", "metadata": {"name": "gpu"}, "spec": {"devices": {"requests": ` + requests + `}}}`,
			requests: []string{"spec", "devices", "requests"}},
		{name: "a ResourceClaimTemplate's claim's requests", path: "/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates",
			body:     `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaimTemplate", "metadata": {"name": "gpu"}, "spec": {"spec": {"devices": {"requests": ` + requests + `}}}}`,
			requests: []string{"spec", "spec", "devices", "requests"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
			require.NoError(t, err)
			code, out := serve(t, srv, "POST", c.path, "application/json", c.body)
			require.Equal(t, http.StatusCreated, code, "%v", out)
			var got any = out
			for _, k := range c.requests {
				got = got.(map[string]any)[k]
			}
			assert.Equal(t, want, got)
		})
	}
}

// TestDeviceTaintsCarryTheTimeTheyWereAdded holds SetDefaults_DeviceTaint
// and kube's DeviceTaintRule strategy: a taint without timeAdded is
// stamped with the server's time on every write; a rule whose effect
// changes while its time stays as it was is stamped again.
func TestDeviceTaintsCarryTheTimeTheyWereAdded(t *testing.T) {
	created := time.Date(2026, 12, 8, 1, 0, 0, 0, time.UTC)
	later := created.Add(time.Hour)
	const rule = "/apis/resource.k8s.io/v1/devicetaintrules/gpu-0"
	taintOf := func(out map[string]any) map[string]any {
		return out["spec"].(map[string]any)["taint"].(map[string]any)
	}
	ruleBody := func(effect string, timeAdded any, rv any) string {
		taint := map[string]any{"key": "example.com/maintenance", "effect": effect}
		if timeAdded != nil {
			taint["timeAdded"] = timeAdded
		}
		md := map[string]any{"name": "gpu-0"}
		if rv != nil {
			md["resourceVersion"] = rv
		}
		b, _ := json.Marshal(map[string]any{"apiVersion": "resource.k8s.io/v1", "kind": "DeviceTaintRule", "metadata": md,
			"spec": map[string]any{"deviceSelector": map[string]any{"device": "gpu-0"}, "taint": taint}})
		return string(b)
	}
	cases := []struct {
		name        string
		effect      string
		keepTime    bool // send the stored timeAdded back
		wantUpdated bool // the update's answer carries the later time
	}{
		{name: "an update that keeps the effect and the time keeps the time", effect: "NoSchedule", keepTime: true},
		{name: "an update that changes the effect but keeps the time is stamped again", effect: "NoExecute", keepTime: true, wantUpdated: true},
		{name: "an update without timeAdded is stamped again", effect: "NoSchedule", wantUpdated: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			now := created
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Now: func() time.Time { return now }})
			require.NoError(t, err)
			code, out := serve(t, srv, "POST", "/apis/resource.k8s.io/v1/devicetaintrules", "application/json", ruleBody("NoSchedule", nil, nil))
			require.Equal(t, http.StatusCreated, code, "%v", out)
			require.Equal(t, "2026-12-08T01:00:00Z", taintOf(out)["timeAdded"], "a created taint is stamped")

			now = later
			var sent any
			if c.keepTime {
				sent = taintOf(out)["timeAdded"]
			}
			rv := out["metadata"].(map[string]any)["resourceVersion"]
			code, out = serve(t, srv, "PUT", rule, "application/json", ruleBody(c.effect, sent, rv))
			require.Equal(t, http.StatusOK, code, "%v", out)
			want := "2026-12-08T01:00:00Z"
			if c.wantUpdated {
				want = "2026-12-08T02:00:00Z"
			}
			assert.Equal(t, want, taintOf(out)["timeAdded"])
		})
	}

	t.Run("a ResourceSlice's device taints are stamped", func(t *testing.T) {
		srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Now: func() time.Time { return created }})
		require.NoError(t, err)
		code, out := serve(t, srv, "POST", "/apis/resource.k8s.io/v1/resourceslices", "application/json", `{"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
			"metadata": {"name": "node-1-gpu"}, "spec": {"driver": "gpu.example.com", "nodeName": "node-1", "pool": {"name": "node-1", "generation": 1, "resourceSliceCount": 1},
			"devices": [{"name": "gpu-0", "taints": [{"key": "example.com/maintenance", "effect": "NoSchedule"}, {"key": "example.com/ecc", "effect": "None", "timeAdded": "2026-01-01T00:00:00Z"}]}]}}`)
		require.Equal(t, http.StatusCreated, code, "%v", out)
		taints := out["spec"].(map[string]any)["devices"].([]any)[0].(map[string]any)["taints"].([]any)
		assert.Equal(t, "2026-12-08T01:00:00Z", taints[0].(map[string]any)["timeAdded"])
		assert.Equal(t, "2026-01-01T00:00:00Z", taints[1].(map[string]any)["timeAdded"], "a time the client set is kept")
	})
}
