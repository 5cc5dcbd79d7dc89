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

// TestCoreStorageValidationAnswersAsKube replays the requests of
// docs/kube-behaviour/17-validation-core-storage (ResourceQuota,
// LimitRange, ServiceAccount, PodTemplate, Endpoints, PersistentVolume,
// StorageClass, CSIDriver, VolumeAttachment) and expects kube's code,
// reason, message and causes, in kube's order.
func TestCoreStorageValidationAnswersAsKube(t *testing.T) {
	replayKubeCases(t, nil, "testdata/kube-validation-core-storage.json")
}

// FuzzCoreStorageWrites sends arbitrary bodies to the requests of
// docs/kube-behaviour/17-validation-core-storage (quotas and limit ranges
// hold quantities the validation parses): never a panic or a 500, always
// a Status on failure.
func FuzzCoreStorageWrites(f *testing.F) {
	raw, err := os.ReadFile("testdata/kube-validation-core-storage.json")
	require.NoError(f, err)
	var cases []kubeCase
	require.NoError(f, json.Unmarshal(raw, &cases))
	for i, c := range cases {
		b, _ := json.Marshal(c.Body)
		f.Add(uint8(i), b)
	}
	f.Add(uint8(0), []byte(`{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1e18","cpu":"0.0000000001","memory":"99999999999999999999Ei"}}}`))
	f.Add(uint8(0), []byte(`{"metadata":{"name":"q"},"spec":{"hard":{"pods":"1e999999999","cpu":"-1e-999999999"}}}`))
	f.Add(uint8(30), []byte(`{"metadata":{"name":"l"},"spec":{"limits":[{"type":"Pod","min":{"cpu":"1n"},"max":{"cpu":"9223372036854775807"},"maxLimitRequestRatio":{"cpu":"1E18"}}]}}`))
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(f, err)
	serveNoT(srv, "POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"val"}}`)
	f.Fuzz(func(t *testing.T, index uint8, body []byte) {
		c := cases[int(index)%len(cases)]
		for _, s := range c.Setup {
			b, _ := json.Marshal(s.Body)
			serveNoT(srv, s.Method, s.Path, s.ContentType, string(b))
		}
		code, out := serveNoT(srv, c.Method, c.Path, c.ContentType, string(body))
		if code >= 500 {
			t.Fatalf("%s %s %s: %d %v", c.Method, c.Path, body, code, out)
		}
		if code >= 300 && out["kind"] != "Status" {
			t.Fatalf("%s %s: %d without a Status: %v", c.Method, c.Path, code, out)
		}
	})
}

// TestPersistentVolumeDefaultsAsKube: kube 1.33 answers a volume of a host
// path with its spec defaulted so (a dry run against the reference).
func TestPersistentVolumeDefaultsAsKube(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(t, err)
	code, out := serve(t, srv, "POST", "/api/v1/persistentvolumes", "application/json",
		`{"metadata":{"name":"hp"},"spec":{"capacity":{"storage":"1Gi"},"accessModes":["ReadWriteOnce"],"hostPath":{"path":"/tmp/x"}}}`)
	require.Equal(t, http.StatusCreated, code, out)
	assert.Equal(t, map[string]any{"capacity": map[string]any{"storage": "1Gi"}, "hostPath": map[string]any{"path": "/tmp/x", "type": ""},
		"accessModes": []any{"ReadWriteOnce"}, "persistentVolumeReclaimPolicy": "Retain", "volumeMode": "Filesystem"}, out["spec"])
}
