package apiserver_test

import (
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// hookServer is an admission webhook server on loopback TLS, as a test of
// a controller project runs one: each path answers as one of the hooks
// kube's answers were recorded with (docs/kube-behaviour/12-policy.md).
type hookServer struct {
	*httptest.Server
	caBundle string
	calls    atomic.Int64
	lastReq  atomic.Value // map[string]any

	mu       sync.Mutex
	recorded map[string][]map[string]any // requests by path, of /record and /record-mutate
}

// reviews are the requests /record (or /record-mutate) received, in
// order, and forgets them.
func (hs *hookServer) reviews(path string) []map[string]any {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	out := hs.recorded[path]
	delete(hs.recorded, path)
	return out
}

func newHookServer(t *testing.T) *hookServer {
	hs := &hookServer{recorded: map[string][]map[string]any{}}
	answer := func(w http.ResponseWriter, r *http.Request, resp func(req map[string]any) map[string]any) {
		hs.calls.Add(1)
		var review map[string]any
		_ = json.NewDecoder(r.Body).Decode(&review)
		req, _ := review["request"].(map[string]any)
		hs.lastReq.Store(req)
		if strings.HasPrefix(r.URL.Path, "/record") {
			hs.mu.Lock()
			hs.recorded[r.URL.Path] = append(hs.recorded[r.URL.Path], req)
			hs.mu.Unlock()
		}
		out := resp(req)
		out["uid"] = req["uid"]
		_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "response": out})
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/mutate", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any {
			patch := `[{"op":"add","path":"/metadata/labels","value":{"mutated":"yes"}}]`
			return map[string]any{"allowed": true, "patchType": "JSONPatch", "patch": base64.StdEncoding.EncodeToString([]byte(patch)),
				"warnings": []string{"mutated by hook"}}
		})
	})
	mux.HandleFunc("/record", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any {
			return map[string]any{"allowed": true, "auditAnnotations": map[string]string{"seen": "validate"}}
		})
	})
	mux.HandleFunc("/record-mutate", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any {
			patch := `[{"op":"add","path":"/metadata/annotations","value":{"patched":"yes"}}]`
			return map[string]any{"allowed": true, "patchType": "JSONPatch", "patch": base64.StdEncoding.EncodeToString([]byte(patch)),
				"auditAnnotations": map[string]string{"seen": "mutate-patch"}}
		})
	})
	mux.HandleFunc("/deny", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any {
			return map[string]any{"allowed": false, "status": map[string]any{"code": 403, "message": "denied by hook", "reason": "Forbidden"}}
		})
	})
	mux.HandleFunc("/deny-plain", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any { return map[string]any{"allowed": false} })
	})
	mux.HandleFunc("/allow", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any {
			return map[string]any{"allowed": true, "warnings": []string{"allowed with a warning"}}
		})
	})
	// /hang answers nothing until the test ends: whatever happens to the
	// connection meanwhile, a caller sees no answer before its deadline.
	stop := make(chan struct{})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-stop:
		case <-time.After(time.Minute):
		}
	})
	mux.HandleFunc("/garbage", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("this is not json")) })
	mux.HandleFunc("/status500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	mux.HandleFunc("/badpatch", func(w http.ResponseWriter, r *http.Request) {
		answer(w, r, func(map[string]any) map[string]any {
			return map[string]any{"allowed": true, "patchType": "JSONPatch",
				"patch": base64.StdEncoding.EncodeToString([]byte(`[{"op":"replace","path":"/nope/x","value":1}]`))}
		})
	})
	hs.Server = httptest.NewTLSServer(mux)
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(stop) }) // before Close, which waits for the handlers
	hs.caBundle = base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hs.Certificate().Raw}))
	return hs
}

// configuration is a webhook configuration of one webhook per label value
// of `hook` on ConfigMap creates, each calling the path of its name.
func (hs *hookServer) configuration(kind, name string, hooks ...string) string {
	var list []string
	for _, h := range hooks {
		path, extra := h, ""
		if h == "hang" {
			extra = `"timeoutSeconds":1,`
		}
		if h == "ignored" {
			path, extra = "garbage", `"failurePolicy":"Ignore",`
		}
		if h == "mdeny" {
			path = "deny"
		}
		if h == "mbadpatch" {
			path = "badpatch"
		}
		list = append(list, fmt.Sprintf(`{"name":"%s.hook.example.com",%s"clientConfig":{"url":"%s/%s","caBundle":"%s"},
"rules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE"],"resources":["configmaps"]}],
"objectSelector":{"matchLabels":{"hook":"%s"}},"sideEffects":"None","admissionReviewVersions":["v1"]}`, h, extra, hs.URL, path, hs.caBundle, h))
	}
	return fmt.Sprintf(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"%s","metadata":{"name":"%s"},"webhooks":[%s]}`,
		kind, name, strings.Join(list, ","))
}

func newWebhookServer(t *testing.T) *policyServer {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Webhooks: &apiserver.WebhookOptions{}})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &policyServer{t: t, url: hs.URL}
}

func labelled(name, hook string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","labels":{"hook":"%s"}}}`, name, hook)
}

func TestAdmissionWebhooksAnswerAsKube(t *testing.T) {
	hooks := newHookServer(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations",
		hooks.configuration("MutatingWebhookConfiguration", "mutator", "mutate", "mdeny", "mbadpatch")).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
		hooks.configuration("ValidatingWebhookConfiguration", "validator", "deny", "deny-plain", "allow", "hang", "garbage",
			"status500", "ignored", "badpatch")).code)
	const cms = "/api/v1/namespaces/default/configmaps"
	called := func(name, call string) string {
		return fmt.Sprintf("failed calling webhook %q: %s", name, call)
	}
	internal := func(msg string) map[string]any {
		return map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
			"message": "Internal error occurred: " + msg, "reason": "InternalError", "code": float64(500),
			"details": map[string]any{"causes": []any{map[string]any{"message": msg}}}}
	}
	garbage := `failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`
	cases := []struct {
		hook     string
		code     int
		body     map[string]any
		warnings []string
	}{
		{"deny", 403, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
			"message": `admission webhook "deny.hook.example.com" denied the request: denied by hook`, "reason": "Forbidden", "code": float64(403)}, nil},
		{"mdeny", 403, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
			"message": `admission webhook "mdeny.hook.example.com" denied the request: denied by hook`, "reason": "Forbidden", "code": float64(403)}, nil},
		{"deny-plain", 400, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
			"message": `admission webhook "deny-plain.hook.example.com" denied the request without explanation`, "code": float64(400)}, nil},
		{"allow", 201, nil, []string{`299 - "allowed with a warning"`}},
		{"hang", 500, internal(called("hang.hook.example.com", `failed to call webhook: Post "`+hooks.URL+`/hang?timeout=1s": context deadline exceeded`)), nil},
		{"garbage", 500, internal(called("garbage.hook.example.com", garbage)), nil},
		{"status500", 500, internal(called("status500.hook.example.com", `failed to call webhook: an error on the server ("boom") has prevented the request from succeeding`)), nil},
		{"ignored", 201, nil, nil},
		{"badpatch", 500, internal(called("badpatch.hook.example.com", "received invalid webhook response: validating webhook may not return response.patch")), nil},
		{"mbadpatch", 500, internal("replace operation does not apply: doc is missing path: /nope/x: missing value"), nil},
	}
	for _, tc := range cases {
		t.Run("a webhook that answers "+tc.hook, func(t *testing.T) {
			a := ps.do("POST", cms, labelled("w-"+tc.hook, tc.hook))
			require.Equal(t, tc.code, a.code, a.body)
			if tc.body != nil {
				assert.Equal(t, tc.body, a.body)
			}
			assert.Equal(t, tc.warnings, a.warnings)
		})
	}
	t.Run("a mutating webhook's patch is applied and its warning sent", func(t *testing.T) {
		a := ps.do("POST", cms, labelled("w-mutate", "mutate"))
		require.Equal(t, http.StatusCreated, a.code, a.body)
		assert.Equal(t, map[string]any{"mutated": "yes"}, a.body["metadata"].(map[string]any)["labels"])
		assert.Equal(t, []string{`299 - "mutated by hook"`}, a.warnings)
		stored := ps.do("GET", cms+"/w-mutate", "")
		assert.Equal(t, map[string]any{"mutated": "yes"}, stored.body["metadata"].(map[string]any)["labels"])
	})
	t.Run("a webhook sees kube's AdmissionReview request", func(t *testing.T) {
		require.Equal(t, http.StatusCreated, ps.do("POST", cms+"?dryRun=All&fieldManager=tester", labelled("w-review", "allow")).code)
		req := hooks.lastReq.Load().(map[string]any)
		assert.Equal(t, "CREATE", req["operation"])
		assert.Equal(t, map[string]any{"group": "", "version": "v1", "kind": "ConfigMap"}, req["kind"])
		assert.Equal(t, map[string]any{"group": "", "version": "v1", "resource": "configmaps"}, req["requestResource"])
		assert.Equal(t, "w-review", req["name"])
		assert.Equal(t, "default", req["namespace"])
		assert.Equal(t, true, req["dryRun"])
		assert.Nil(t, req["oldObject"])
		assert.Equal(t, map[string]any{"kind": "CreateOptions", "apiVersion": "meta.k8s.io/v1", "dryRun": []any{"All"}, "fieldManager": "tester"}, req["options"])
		assert.Equal(t, "w-review", req["object"].(map[string]any)["metadata"].(map[string]any)["name"])
	})
	t.Run("configurations are exempt from webhooks", func(t *testing.T) {
		a := ps.do("DELETE", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/validator", "")
		require.Equal(t, http.StatusOK, a.code, a.body)
		assert.Equal(t, http.StatusCreated, ps.do("POST", cms, labelled("w-deny-after", "deny")).code, "the deleted configuration is out of force at once")
	})
}

func TestAHangingWebhookTimesOutAndTheServerStaysResponsive(t *testing.T) {
	hooks := newHookServer(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
		hooks.configuration("ValidatingWebhookConfiguration", "validator", "hang")).code)
	done := make(chan answer, 4)
	for i := range 4 {
		go func() {
			done <- ps.do("POST", "/api/v1/namespaces/default/configmaps", labelled(fmt.Sprintf("h%d", i), "hang"))
		}()
	}
	start := time.Now()
	for range 10 { // reads and other writes are served meanwhile, each well within the webhook's second
		began := time.Now()
		require.Equal(t, http.StatusOK, ps.do("GET", "/api/v1/namespaces/default/configmaps", "").code)
		require.Equal(t, http.StatusCreated, ps.do("POST", "/api/v1/namespaces/default/configmaps", labelled(fmt.Sprintf("free%d", time.Now().UnixNano()), "none")).code)
		assert.Less(t, time.Since(began), 500*time.Millisecond, "requests around the hanging webhook wait for nothing")
	}
	for range 4 {
		a := <-done
		require.Equal(t, http.StatusInternalServerError, a.code)
		assert.Contains(t, a.body["message"], "hang?timeout=1s\": context deadline exceeded")
	}
	assert.Less(t, time.Since(start), 3*time.Second)
}

// recordingHooks registers a mutating webhook (/record-mutate, which adds
// the annotation patched=yes) and a validating one (/record) for every
// write of ConfigMaps and gizmos.probe.example.com labelled hook=record, as
// kube's answers were recorded with.
func recordingHooks(t *testing.T, ps *policyServer, hooks *hookServer) {
	t.Helper()
	for _, c := range []struct{ kind, path string }{{"MutatingWebhookConfiguration", "record-mutate"}, {"ValidatingWebhookConfiguration", "record"}} {
		a := ps.do("POST", "/apis/admissionregistration.k8s.io/v1/"+strings.ToLower(c.kind)+"s", fmt.Sprintf(
			`{"apiVersion":"admissionregistration.k8s.io/v1","kind":%q,"metadata":{"name":%q},"webhooks":[{"name":"%s.probe.example.com",
"clientConfig":{"url":"%s/%s","caBundle":%q},"objectSelector":{"matchLabels":{"hook":"record"}},
"rules":[{"apiGroups":["","probe.example.com"],"apiVersions":["*"],"operations":["*"],"resources":["configmaps","gizmos"]}],
"sideEffects":"None","admissionReviewVersions":["v1"]}]}`, c.kind, c.path, c.path, hooks.URL, c.path, hooks.caBundle))
		require.Equal(t, http.StatusCreated, a.code, a.body)
	}
}

// TestWebhooksSeeANewObjectAsKubesDo holds what mutating and validating
// webhooks receive of a create to kube's recording
// (docs/kube-behaviour/12-policy.md, "What a webhook sees of a create"):
// mutating webhooks see the object before the server sets its uid,
// creationTimestamp, generated name, generation and drops its status;
// validating webhooks see all of it.
func TestWebhooksSeeANewObjectAsKubesDo(t *testing.T) {
	hooks := newHookServer(t)
	ps := newWebhookServer(t)
	recordingHooks(t, ps, hooks)
	a := ps.do("POST", crdsPath, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"gizmos.probe.example.com"},
"spec":{"group":"probe.example.com","scope":"Namespaced","names":{"plural":"gizmos","kind":"Gizmo"},
"versions":[{"name":"v1","served":true,"storage":true,"subresources":{"status":{}},"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
	require.Equal(t, http.StatusCreated, a.code, a.body)
	metadataOf := func(req map[string]any) map[string]any {
		return req["object"].(map[string]any)["metadata"].(map[string]any)
	}
	metaKeys := func(req map[string]any) []string {
		var keys []string
		for k := range metadataOf(req) {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return keys
	}

	t.Run("a ConfigMap with a generateName and server-owned metadata sent", func(t *testing.T) {
		a := ps.do("POST", "/api/v1/namespaces/default/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"rec-",
"labels":{"hook":"record"},"uid":"sent-uid","creationTimestamp":"2020-01-01T00:00:00Z","generation":7,"deletionTimestamp":"2020-01-01T00:00:00Z","selfLink":"/x"},"data":{"k":"v"}}`)
		require.Equal(t, http.StatusCreated, a.code, a.body)
		created := a.body["metadata"].(map[string]any)
		mutating, validating := hooks.reviews("/record-mutate"), hooks.reviews("/record")
		require.Len(t, mutating, 1)
		require.Len(t, validating, 1)

		assert.NotContains(t, mutating[0], "name", "the request of a mutating webhook has no name yet")
		assert.Equal(t, []string{"creationTimestamp", "generateName", "generation", "labels", "managedFields", "namespace"}, metaKeys(mutating[0]))
		assert.Nil(t, metadataOf(mutating[0])["creationTimestamp"], "a typed object's zero time, null")
		assert.Equal(t, float64(7), metadataOf(mutating[0])["generation"], "a ConfigMap keeps the generation sent")
		assert.Equal(t, "Go-http-client", metadataOf(mutating[0])["managedFields"].([]any)[0].(map[string]any)["manager"], "managedFields are tracked before mutating admission")

		assert.Equal(t, created["name"], validating[0]["name"], "a validating webhook's request names the generated name")
		assert.Equal(t, []string{"annotations", "creationTimestamp", "generateName", "generation", "labels", "managedFields", "name", "namespace", "uid"},
			metaKeys(validating[0]))
		assert.Equal(t, created["uid"], metadataOf(validating[0])["uid"])
		assert.NotEqual(t, "sent-uid", created["uid"])
		assert.Equal(t, created["creationTimestamp"], metadataOf(validating[0])["creationTimestamp"])
	})
	t.Run("a custom resource with status and generation sent", func(t *testing.T) {
		a := ps.do("POST", "/apis/probe.example.com/v1/namespaces/default/gizmos", `{"apiVersion":"probe.example.com/v1","kind":"Gizmo",
"metadata":{"name":"g1","labels":{"hook":"record"},"generation":7},"spec":{"a":1},"status":{"s":1}}`)
		require.Equal(t, http.StatusCreated, a.code, a.body)
		mutating, validating := hooks.reviews("/record-mutate"), hooks.reviews("/record")
		require.Len(t, mutating, 1)
		require.Len(t, validating, 1)
		assert.Equal(t, "g1", mutating[0]["name"])
		assert.Equal(t, []string{"generation", "labels", "managedFields", "name", "namespace"}, metaKeys(mutating[0]),
			"an unstructured object has no creationTimestamp key")
		assert.Equal(t, float64(7), metadataOf(mutating[0])["generation"])
		assert.Equal(t, map[string]any{"s": float64(1)}, mutating[0]["object"].(map[string]any)["status"], "the status is dropped after mutating admission")
		assert.Equal(t, float64(1), metadataOf(validating[0])["generation"])
		assert.NotContains(t, validating[0]["object"], "status")
		assert.Equal(t, []string{"annotations", "creationTimestamp", "generation", "labels", "managedFields", "name", "namespace", "uid"}, metaKeys(validating[0]))
	})
	t.Run("a server-side apply that creates", func(t *testing.T) {
		req, err := http.NewRequest("PATCH", ps.url+"/api/v1/namespaces/default/configmaps/ap?fieldManager=me",
			strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap","labels":{"hook":"record"}}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/apply-patch+yaml")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusCreated, resp.StatusCode)
		mutating, validating := hooks.reviews("/record-mutate"), hooks.reviews("/record")
		require.Len(t, mutating, 1)
		require.Len(t, validating, 1)
		assert.Equal(t, []string{"creationTimestamp", "labels", "managedFields", "name", "namespace"}, metaKeys(mutating[0]))
		assert.Equal(t, []string{"annotations", "creationTimestamp", "labels", "managedFields", "name", "namespace", "uid"}, metaKeys(validating[0]))
	})
	t.Run("a server-side apply that creates with a creationTimestamp sent", func(t *testing.T) {
		// kube's update handler clears nothing before mutating admission
		// (docs/kube-behaviour/12-policy.md); POST clears it.
		req, err := http.NewRequest("PATCH", ps.url+"/api/v1/namespaces/default/configmaps/ap2?fieldManager=me",
			strings.NewReader(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap2","labels":{"hook":"record"},"creationTimestamp":"2020-01-01T00:00:00Z"}}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/apply-patch+yaml")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var created map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&created))
		resp.Body.Close()
		require.Equal(t, http.StatusCreated, resp.StatusCode)
		mutating, validating := hooks.reviews("/record-mutate"), hooks.reviews("/record")
		require.Len(t, mutating, 1)
		require.Len(t, validating, 1)
		assert.Equal(t, "2020-01-01T00:00:00Z", metadataOf(mutating[0])["creationTimestamp"])
		stored := created["metadata"].(map[string]any)["creationTimestamp"]
		assert.NotEqual(t, "2020-01-01T00:00:00Z", stored, "the server's own time is stored")
		assert.Equal(t, stored, metadataOf(validating[0])["creationTimestamp"])
	})
}

// TestAuditAnnotationsAreKubes holds the audit annotations admission
// reports for a request, which kapi hands to whoever asks through the
// request's context (apiserver.WithAuditAnnotations), to those kube wrote
// into its audit event for the same request (docs/kube-behaviour/
// 12-policy.md, "Audit annotations").
func TestAuditAnnotationsAreKubes(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), ValidatingAdmissionPolicy: true, Webhooks: &apiserver.WebhookOptions{}})
	require.NoError(t, err)
	var mu sync.Mutex
	var last map[string]string
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, audit := apiserver.WithAuditAnnotations(r.Context())
		srv.ServeHTTP(w, r.WithContext(ctx))
		mu.Lock()
		last = audit.Map()
		mu.Unlock()
	}))
	t.Cleanup(hs.Close)
	annotations := func() map[string]string {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
	ps := &policyServer{t: t, url: hs.URL}
	hooks := newHookServer(t)
	recordingHooks(t, ps, hooks)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"audit-cm"},"spec":{"failurePolicy":"Fail",
"matchConstraints":{"resourceRules":[{"apiGroups":[""],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["configmaps"]}],"objectSelector":{"matchLabels":{"hook":"record"}}},
"validations":[{"expression":"!has(object.data) || !('bad' in object.data)","message":"no bad key"}],
"auditAnnotations":[{"key":"keys","valueExpression":"'keys: ' + string(has(object.data) ? size(object.data) : 0)"},{"key":"empty","valueExpression":"null"}]}}`).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"audit-cm"},"spec":{"policyName":"audit-cm","validationActions":["Audit","Warn"]}}`).code)

	a := ps.do("POST", "/api/v1/namespaces/default/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"rec-","labels":{"hook":"record"}},"data":{"bad":"x"}}`)
	require.Equal(t, http.StatusCreated, a.code, a.body)
	assert.Equal(t, []string{`299 - "Validation failed for ValidatingAdmissionPolicy 'audit-cm' with binding 'audit-cm': no bad key"`}, a.warnings)
	assert.Equal(t, map[string]string{
		"audit-cm/keys": "keys: 1",
		"mutation.webhook.admission.k8s.io/round_0_index_0":     `{"configuration":"record-mutate","webhook":"record-mutate.probe.example.com","mutated":true}`,
		"record-mutate.probe.example.com/seen":                  "mutate-patch",
		"record.probe.example.com/seen":                         "validate",
		"validation.policy.admission.k8s.io/validation_failure": `[{"message":"no bad key","policy":"audit-cm","binding":"audit-cm","expressionIndex":0,"validationActions":["Audit","Warn"]}]`,
	}, annotations())

	a = ps.do("POST", "/api/v1/namespaces/default/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"plain"}}`)
	require.Equal(t, http.StatusCreated, a.code, a.body)
	assert.Nil(t, annotations(), "a request no admission reports on has none")
}

// kube's webhook client joins the URL's path as client-go's REST client
// does (path.Join): a webhook at "https://host//validate/x/" (envtest
// writes "https://host:port/" + a kubebuilder service path "/validate-…")
// is called at /validate/x (kube-apiserver 1.33.13, recorded through
// envtest in docs/kube-behaviour/13-envtest-webhooks.md).
func TestAdmissionWebhookURLPathIsCleanedAsKubes(t *testing.T) {
	paths := make(chan string, 1)
	hook := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths <- r.URL.Path
		var review map[string]any
		_ = json.NewDecoder(r.Body).Decode(&review)
		req, _ := review["request"].(map[string]any)
		_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
			"response": map[string]any{"uid": req["uid"], "allowed": true}})
	}))
	t.Cleanup(hook.Close)
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hook.Certificate().Raw}))
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations",
		fmt.Sprintf(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingWebhookConfiguration","metadata":{"name":"v"},
"webhooks":[{"name":"v.example.com","clientConfig":{"url":"%s//validate/x/","caBundle":"%s"},"sideEffects":"None","admissionReviewVersions":["v1"],
"rules":[{"operations":["CREATE"],"apiGroups":[""],"apiVersions":["v1"],"resources":["configmaps"]}]}]}`, hook.URL, ca)).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/api/v1/namespaces/default/configmaps", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`).code)
	assert.Equal(t, "/validate/x", <-paths)
}
