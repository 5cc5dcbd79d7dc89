package builtin_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// batchFuzzTargets are the kinds of batch_cronjob_schedule.go and quantity.go.
var batchFuzzTargets = []string{
	"/apis/batch/v1/namespaces/val/cronjobs", "/apis/autoscaling/v2/namespaces/val/horizontalpodautoscalers",
	"/apis/autoscaling/v1/namespaces/val/horizontalpodautoscalers", "/apis/policy/v1/namespaces/val/poddisruptionbudgets",
}

// FuzzBatchAutoscalingPolicyWrites sends arbitrary bodies to the creates,
// updates and status updates of CronJobs, autoscalers (both versions) and
// budgets, seeded with every recorded kube case of those kinds: never a
// panic or a 500, always a Status on failure.
func FuzzBatchAutoscalingPolicyWrites(f *testing.F) {
	raw, err := os.ReadFile("testdata/kube-validation-batch.json")
	if err != nil {
		f.Fatal(err)
	}
	var cases []kubeCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		f.Fatal(err)
	}
	for _, c := range cases {
		for i, p := range batchFuzzTargets {
			if strings.HasPrefix(c.Path, p) {
				b, _ := json.Marshal(c.Body)
				f.Add(uint8(i), uint8(0), b)
			}
		}
	}
	now := time.Now()
	srv := newPodServer(f, &now)
	do := func(method, path, ct, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		return rec
	}
	do("POST", "/api/v1/namespaces", "application/json", `{"metadata":{"name":"val"}}`)
	seeds := []string{
		`{"metadata":{"name":"x"},"spec":{"schedule":"@daily","jobTemplate":{"spec":{"template":{"spec":{"restartPolicy":"Never","containers":[{"name":"c","image":"i"}]}}}}}}`,
		`{"metadata":{"name":"x"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":2}}`,
		`{"metadata":{"name":"x"},"spec":{"scaleTargetRef":{"kind":"Deployment","name":"d"},"maxReplicas":2}}`,
		`{"metadata":{"name":"x"},"spec":{"minAvailable":1}}`,
	}
	f.Fuzz(func(t *testing.T, target, method uint8, body []byte) {
		i := int(target) % len(batchFuzzTargets)
		path := batchFuzzTargets[i]
		do("POST", path, "application/json", seeds[i])
		m, ct := "POST", "application/json"
		switch method % 3 {
		case 1:
			m, ct, path = "PATCH", "application/merge-patch+json", path+"/x"
		case 2:
			m, ct, path = "PATCH", "application/merge-patch+json", path+"/x/status"
		}
		rec := do(m, path, ct, string(body))
		if rec.Code >= 500 {
			t.Fatalf("%s %s %s: %d %s", m, path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 300 {
			var st map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st["kind"] != "Status" {
				t.Fatalf("%s %s: %d without a Status: %s", m, path, rec.Code, rec.Body)
			}
		}
	})
}
