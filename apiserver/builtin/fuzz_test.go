package builtin_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// fuzzTargets are the endpoints whose validation, allocation and
// subresource decoding the fuzz targets feed.
var fuzzTargets = []string{
	"/api/v1/namespaces/val/pods", "/api/v1/namespaces/val/services", "/apis/apps/v1/namespaces/val/deployments",
	"/api/v1/namespaces/val/configmaps", "/api/v1/namespaces/val/secrets", "/apis/coordination.k8s.io/v1/namespaces/val/leases",
	"/api/v1/namespaces/val/events",
	"/api/v1/namespaces/val/pods/p/binding", "/api/v1/namespaces/val/pods/p/eviction",
	"/api/v1/namespaces/val/pods/p/ephemeralcontainers",
	"/apis/apps/v1/namespaces/val/replicasets", "/apis/apps/v1/namespaces/val/statefulsets",
	"/apis/apps/v1/namespaces/val/daemonsets", "/apis/batch/v1/namespaces/val/jobs",
	"/api/v1/namespaces/val/persistentvolumeclaims", "/api/v1/namespaces/val/replicationcontrollers",
	"/apis/rbac.authorization.k8s.io/v1/namespaces/val/roles", "/apis/rbac.authorization.k8s.io/v1/namespaces/val/rolebindings",
	"/apis/rbac.authorization.k8s.io/v1/clusterroles", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
	"/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
	"/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
}

// FuzzBuiltinWrites sends arbitrary bodies to the built-in kinds' creates,
// updates and subresources (seeded with every recorded kube case): never
// a panic or a 500, always a Status on failure.
func FuzzBuiltinWrites(f *testing.F) {
	raw, err := os.ReadFile("testdata/kube-validation.json")
	if err != nil {
		f.Fatal(err)
	}
	var cases []kubeCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		f.Fatal(err)
	}
	for i, c := range cases {
		b, _ := json.Marshal(c.Body)
		f.Add(uint8(i), uint8(0), b)
	}
	f.Add(uint8(7), uint8(0), []byte(`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p"},"target":{"name":"n"}}`))
	f.Add(uint8(8), uint8(0), []byte(`{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p"},"deleteOptions":{"gracePeriodSeconds":-3,"preconditions":{"uid":"x"}}}`))
	f.Add(uint8(9), uint8(1), []byte(`{"spec":{"ephemeralContainers":[{"name":"d","image":"i"}]}}`))
	f.Add(uint8(20), uint8(0), []byte(`{"metadata":{"name":"p"},"webhooks":[{"name":"a.b","clientConfig":{"url":"http://u@h/x?q#f","service":{"port":0,"path":"x//Y"}},"rules":[{"operations":["*","GET"],"resources":["*/*","pods/*","pods/x"]}],"matchConditions":[{"name":"a","expression":"1"}]}]}`))
	f.Add(uint8(21), uint8(1), []byte(`{"webhooks":[{"name":"a.b.c","clientConfig":{"service":{"name":"s","namespace":"n"}},"sideEffects":"None","admissionReviewVersions":["v1","v1"],"timeoutSeconds":99}]}`))
	now := time.Now()
	srv := newPodServer(f, &now)
	setup := func(method, path, body string) {
		req := httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		srv.ServeHTTP(httptest.NewRecorder(), req)
	}
	setup("POST", "/api/v1/namespaces", `{"metadata":{"name":"val"}}`)
	f.Fuzz(func(t *testing.T, target, method uint8, body []byte) {
		setup("POST", "/api/v1/namespaces/val/pods", `{"metadata":{"name":"p","labels":{"app":"e"}},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"nginx"}]}}`)
		path := fuzzTargets[int(target)%len(fuzzTargets)]
		m, ct := "POST", "application/json"
		if method%2 == 1 && !strings.HasSuffix(path, "binding") && !strings.HasSuffix(path, "eviction") {
			m, ct = "PATCH", "application/merge-patch+json"
			if !strings.Contains(path, "/pods/p/") {
				path += "/p"
			}
		}
		req := httptest.NewRequest(m, path, strings.NewReader(string(body)))
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 500 && !strings.HasSuffix(path, "binding") && !strings.HasSuffix(path, "eviction") {
			t.Fatalf("%s %s %s: %d %s", m, path, body, rec.Code, rec.Body)
		}
		if rec.Code >= 300 {
			var st map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st["kind"] != "Status" {
				t.Fatalf("%s %s: %d without a Status: %s", m, path, rec.Code, rec.Body)
			}
		}
		_ = http.StatusOK
	})
}
