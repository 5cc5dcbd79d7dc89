package builtin_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

func newBuiltinServer(t *testing.T) *apiserver.Server {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents()})
	require.NoError(t, err)
	return srv
}

// TestAnEventWrittenThroughOneAPIIsReadThroughTheOther holds the two
// Event APIs to one storage: what events.k8s.io/v1 writes, core v1 reads
// (renamed fields, the deprecated ones in place), and back.
func TestAnEventWrittenThroughOneAPIIsReadThroughTheOther(t *testing.T) {
	srv := newBuiltinServer(t)
	code, created := serve(t, srv, "POST", "/apis/events.k8s.io/v1/namespaces/default/events", "application/json",
		`{"metadata":{"name":"e1"},"eventTime":"2024-05-06T07:08:09.123456Z","reportingController":"ctl","reportingInstance":"ctl-1",
		  "action":"Sync","reason":"Synced","regarding":{"kind":"Pod","name":"p"},"note":"done","type":"Normal"}`)
	require.Equal(t, http.StatusCreated, code, created)

	core := getJSON(t, srv, "/api/v1/namespaces/default/events/e1", "application/json").(map[string]any)
	assert.Equal(t, "v1", core["apiVersion"])
	assert.Equal(t, map[string]any{"kind": "Pod", "name": "p"}, core["involvedObject"])
	assert.Equal(t, "done", core["message"])
	assert.Equal(t, "ctl", core["reportingComponent"])
	assert.Equal(t, map[string]any{}, core["source"])
	assert.Nil(t, core["firstTimestamp"])
	assert.Equal(t, created["metadata"].(map[string]any)["resourceVersion"], core["metadata"].(map[string]any)["resourceVersion"],
		"one stored object")

	code, updated := serve(t, srv, "PATCH", "/api/v1/namespaces/default/events/e1", "application/merge-patch+json",
		`{"message":"redone","count":2}`)
	require.Equal(t, http.StatusOK, code, updated)
	ev := getJSON(t, srv, "/apis/events.k8s.io/v1/namespaces/default/events/e1", "application/json").(map[string]any)
	assert.Equal(t, "redone", ev["note"])
	assert.EqualValues(t, 2, ev["deprecatedCount"])

	list := getJSON(t, srv, "/apis/events.k8s.io/v1/namespaces/default/events?fieldSelector=regarding.name%3Dp", "application/json").(map[string]any)
	assert.Len(t, list["items"], 1, "field selectors name the events.k8s.io fields")
	list = getJSON(t, srv, "/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dp,source%3Dctl", "application/json").(map[string]any)
	assert.Len(t, list["items"], 1, "core's source is the reporting controller without a source component")
}

// TestAnAutoscalerIsOneObjectThroughBothVersions holds autoscaling/v1 to
// a view of the stored autoscaling/v2 object: the CPU target as
// targetCPUUtilizationPercentage, the other metrics kept in an annotation
// that a v1 update round-trips.
func TestAnAutoscalerIsOneObjectThroughBothVersions(t *testing.T) {
	srv := newBuiltinServer(t)
	code, created := serve(t, srv, "POST", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", "application/json",
		`{"metadata":{"name":"h"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":5,
		  "metrics":[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":70}}},
		             {"type":"Pods","pods":{"metric":{"name":"rps"},"target":{"type":"AverageValue","averageValue":"10"}}}]}}`)
	require.Equal(t, http.StatusCreated, code, created)

	v1 := getJSON(t, srv, "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h", "application/json").(map[string]any)
	spec := v1["spec"].(map[string]any)
	assert.EqualValues(t, 70, spec["targetCPUUtilizationPercentage"])
	assert.EqualValues(t, 1, spec["minReplicas"])
	ann := v1["metadata"].(map[string]any)["annotations"].(map[string]any)
	assert.JSONEq(t, `[{"type":"Pods","pods":{"metricName":"rps","targetAverageValue":"10"}}]`, ann["autoscaling.alpha.kubernetes.io/metrics"].(string))

	// A v1 client updates what it sees: the CPU target; the Pods metric
	// survives through the annotation.
	spec["targetCPUUtilizationPercentage"] = int64(50)
	body, _ := json.Marshal(v1)
	code, out := serve(t, srv, "PUT", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/h", "application/json", string(body))
	require.Equal(t, http.StatusOK, code, out)
	v2 := getJSON(t, srv, "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/h", "application/json").(map[string]any)
	metrics := v2["spec"].(map[string]any)["metrics"].([]any)
	require.Len(t, metrics, 2)
	assert.Equal(t, "Pods", metrics[0].(map[string]any)["type"])
	assert.EqualValues(t, 50, metrics[1].(map[string]any)["resource"].(map[string]any)["target"].(map[string]any)["averageUtilization"])
	assert.NotContains(t, v2["metadata"].(map[string]any)["annotations"], "autoscaling.alpha.kubernetes.io/metrics",
		"the round-trip annotations are not stored")

	// A v1 autoscaler without a CPU target gets kube's 80%.
	code, out = serve(t, srv, "POST", "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers", "application/json",
		`{"metadata":{"name":"plain"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":3}}`)
	require.Equal(t, http.StatusCreated, code, out)
	v2 = getJSON(t, srv, "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/plain", "application/json").(map[string]any)
	assert.JSONEq(t, `[{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":80}}}]`,
		mustJSON(v2["spec"].(map[string]any)["metrics"]))
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAWatchThroughTheOtherVersionSeesTheConvertedObject watches
// autoscaling/v1 while autoscaling/v2 writes.
func TestAWatchThroughTheOtherVersionSeesTheConvertedObject(t *testing.T) {
	srv := newBuiltinServer(t)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers?watch=1", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	code, _ := serve(t, srv, "POST", "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers", "application/json",
		`{"metadata":{"name":"w"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"maxReplicas":4}}`)
	require.Equal(t, http.StatusCreated, code)
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	var ev struct {
		Type   string         `json:"type"`
		Object map[string]any `json:"object"`
	}
	require.NoError(t, json.Unmarshal([]byte(line), &ev))
	assert.Equal(t, "ADDED", ev.Type)
	assert.Equal(t, "autoscaling/v1", ev.Object["apiVersion"])
	assert.EqualValues(t, 80, ev.Object["spec"].(map[string]any)["targetCPUUtilizationPercentage"])
}

// TestFieldSelectorsAreKubesFieldLabels checks, kind by kind, a field
// label kube supports, its value for an object that does not set the
// field, and a label it refuses.
func TestFieldSelectorsAreKubesFieldLabels(t *testing.T) {
	srv := newBuiltinServer(t)
	for _, c := range []struct{ path, body string }{
		{"/api/v1/nodes", `{"metadata":{"name":"n1"}}`},
		{"/api/v1/nodes", `{"metadata":{"name":"n2"},"spec":{"unschedulable":true}}`},
		{"/apis/batch/v1/namespaces/default/jobs", `{"metadata":{"name":"j"},"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}`},
		{"/apis/apps/v1/namespaces/default/replicasets", `{"metadata":{"name":"rs"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`},
		{"/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`},
		{"/api/v1/namespaces/default/secrets", `{"metadata":{"name":"s"},"type":"kubernetes.io/tls","data":{"tls.crt":"Y3J0","tls.key":"a2V5"}}`},
		{"/api/v1/namespaces/default/services", `{"metadata":{"name":"svc"},"spec":{"type":"ExternalName","externalName":"x.example.com"}}`},
		{"/apis/certificates.k8s.io/v1/certificatesigningrequests", `{"metadata":{"name":"c"},"spec":{"request":"LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlITE1IUUNBUUF3RWpFUU1BNEdBMVVFQXd3SGRtRnNiV2x6WXpCWk1CTUdCeXFHU000OUFnRUdDQ3FHU000OQpBd0VIQTBJQUJIUU0yMnZtS0x3Z2wycEQ3TE84ZlRNZ0dveFZPcUJWYWRUY092ay9QY3I0Q3EydXlsdDY3QXR2CkFQM2VqMksveXN3Z050SVRIRHFIaGlDUVYvS2FNbUdnQURBS0JnZ3Foa2pPUFFRREFnTkhBREJFQWlCeDVuZngKWEVvTnovTjdwUFAxZEp0UzVsa05NMFpzSW4wSWl6QnI4TVdzQndJZ2V1N1Z4K0NQMktRMjZBUWNraXZPSjBTUAozTm1rS1pWSEtRVGJsd3llcVdNPQotLS0tLUVORCBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0K","signerName":"example.com/x","usages":["digital signature"]}}`},
	} {
		code, out := serve(t, srv, "POST", c.path, "application/json", c.body)
		require.Equal(t, http.StatusCreated, code, out)
	}
	for _, c := range []struct {
		name, path string
		want       []string
	}{
		{"nodes by spec.unschedulable (unset is false)", "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dfalse", []string{"n1"}},
		{"nodes by spec.unschedulable", "/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue", []string{"n2"}},
		{"jobs by status.successful (unset is 0)", "/apis/batch/v1/jobs?fieldSelector=status.successful%3D0", []string{"j"}},
		{"replica sets by status.replicas", "/apis/apps/v1/replicasets?fieldSelector=status.replicas%3D0", []string{"rs"}},
		{"pods by spec.hostNetwork (unset is false)", "/api/v1/pods?fieldSelector=spec.hostNetwork%3Dfalse", []string{"p"}},
		{"pods by status.phase", "/api/v1/namespaces/default/pods?fieldSelector=status.phase%3DPending", []string{"p"}},
		{"secrets by type", "/api/v1/secrets?fieldSelector=type%3Dkubernetes.io/tls", []string{"s"}},
		{"services by spec.type", "/api/v1/services?fieldSelector=spec.type%3DExternalName", []string{"svc"}},
		{"namespaces by status.phase", "/api/v1/namespaces?fieldSelector=status.phase%3DActive,metadata.name%3Ddefault", []string{"default"}},
		{"CSRs by spec.signerName", "/apis/certificates.k8s.io/v1/certificatesigningrequests?fieldSelector=spec.signerName%3Dexample.com/x", []string{"c"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			list := getJSON(t, srv, c.path, "application/json").(map[string]any)
			var names []string
			for _, it := range list["items"].([]any) {
				names = append(names, it.(map[string]any)["metadata"].(map[string]any)["name"].(string))
			}
			assert.Equal(t, c.want, names)
		})
	}
	req := httptest.NewRequest(http.MethodGet, "/apis/apps/v1/deployments?fieldSelector=spec.replicas%3D1", nil)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusBadRequest, rec.Code)
	assert.True(t, strings.Contains(rec.Body.String(), `\"spec.replicas\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\"`),
		"kube's answer for a kind without field labels: %s", rec.Body.String())
	req = httptest.NewRequest(http.MethodGet, "/api/v1/pods?fieldSelector=spec.priority%3D1", nil)
	rec = httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusBadRequest, rec.Code)
	assert.Contains(t, rec.Body.String(), "field label not supported: spec.priority")
}
