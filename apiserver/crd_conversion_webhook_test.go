package apiserver_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/store/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convHook is a CRD conversion webhook on loopback TLS: /convert renames
// spec.color (v1) to spec.colour (v2) and back, and fails objects
// labelled convert=fail with "cannot convert this one"; /conv/<mode>
// answers wrongly in one of the ways kube's answers were recorded for
// (docs/kube-behaviour/12-policy.md).
type convHook struct {
	*httptest.Server
	caBundle string
	calls    atomic.Int64 // reviews received
	objects  atomic.Int64 // objects received
}

func newConvHook(t *testing.T) *convHook {
	h := &convHook{}
	mux := http.NewServeMux()
	handle := func(w http.ResponseWriter, r *http.Request, mode string) {
		h.calls.Add(1)
		var review map[string]any
		_ = json.NewDecoder(r.Body).Decode(&review)
		_, _ = io.Copy(io.Discard, r.Body) // so the server notices a client that leaves
		req, _ := review["request"].(map[string]any)
		to, _ := req["desiredAPIVersion"].(string)
		objs, _ := req["objects"].([]any)
		h.objects.Add(int64(len(objs)))
		result := map[string]any{"status": "Success"}
		var out []any
		for _, o := range objs {
			m := o.(map[string]any)
			md, _ := m["metadata"].(map[string]any)
			if l, _ := md["labels"].(map[string]any); l["convert"] == "fail" {
				result, out = map[string]any{"status": "Failure", "message": "cannot convert this one"}, nil
				break
			}
			if spec, ok := m["spec"].(map[string]any); ok {
				from, into := "colour", "color"
				if strings.HasSuffix(to, "/v2") {
					from, into = "color", "colour"
				}
				if c, ok := spec[from]; ok {
					spec[into] = c
					delete(spec, from)
				}
			}
			m["apiVersion"] = to
			switch mode {
			case "badav":
				m["apiVersion"] = "conv.example.com/v9"
			case "badkind":
				m["kind"] = "Other"
			case "rename":
				md["name"] = "renamed"
			case "badlabels":
				md["labels"] = map[string]any{"bad key!": "x"}
			case "extra":
				if spec, ok := m["spec"].(map[string]any); ok {
					spec["extra"] = "x"
				}
				m["junk"] = 1
			case "nometa":
				delete(m, "metadata")
			case "badannot":
				md["annotations"] = map[string]any{"a": 5}
			case "tag":
				if strings.HasSuffix(to, "/v2") {
					l, _ := md["labels"].(map[string]any)
					if l == nil {
						l = map[string]any{}
						md["labels"] = l
					}
					l["version"] = "v2"
				}
			case "meta":
				md["labels"] = map[string]any{"added": "yes"}
				md["generation"] = 99
				md["finalizers"] = []any{"x/y"}
			}
			out = append(out, m)
		}
		resp := map[string]any{"uid": req["uid"], "result": result}
		if out != nil {
			resp["convertedObjects"] = out
		}
		answer := map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "ConversionReview", "response": resp}
		switch mode {
		case "v1beta1":
			answer["apiVersion"] = "apiextensions.k8s.io/v1beta1"
		case "missingkind":
			delete(answer, "kind")
		case "admissionreview":
			answer["apiVersion"], answer["kind"] = "admission.k8s.io/v1", "AdmissionReview"
		case "noresponse":
			delete(answer, "response")
		case "wronguid":
			resp["uid"] = "nope"
		case "failnomsg":
			resp["result"] = map[string]any{"status": "Failure"}
		case "count":
			resp["convertedObjects"] = []any{}
		case "garbage":
			_, _ = w.Write([]byte("this is not json"))
			return
		case "status500":
			http.Error(w, "boom", 500)
			return
		case "hang":
			select {
			case <-r.Context().Done():
			case <-time.After(time.Minute):
			}
			return
		}
		_ = json.NewEncoder(w).Encode(answer)
	}
	mux.HandleFunc("/convert", func(w http.ResponseWriter, r *http.Request) { handle(w, r, "") })
	mux.HandleFunc("/conv/", func(w http.ResponseWriter, r *http.Request) { handle(w, r, strings.TrimPrefix(r.URL.Path, "/conv/")) })
	h.Server = httptest.NewTLSServer(mux)
	t.Cleanup(h.Close)
	h.caBundle = base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: h.Certificate().Raw}))
	return h
}

// crd is paints.conv.example.com (v1 stored, v2 served) converted at path.
func (h *convHook) crd(path string) string {
	return fmt.Sprintf(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"paints.conv.example.com"},
"spec":{"group":"conv.example.com","scope":"Namespaced","names":{"plural":"paints","kind":"Paint"},
"conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"%s%s","caBundle":"%s"}}},
"versions":[
 {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"color":{"type":"string"}}}}}},
  "additionalPrinterColumns":[{"name":"Color","type":"string","jsonPath":".spec.color"}]},
 {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"colour":{"type":"string"}}}}}},
  "additionalPrinterColumns":[{"name":"Colour","type":"string","jsonPath":".spec.colour"}]}]}}`, h.URL, path, h.caBundle)
}

const (
	crdsURL  = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	paintsV1 = "/apis/conv.example.com/v1/namespaces/default/paints"
	paintsV2 = "/apis/conv.example.com/v2/namespaces/default/paints"
)

func paint(version, name, colour string, labels string) string {
	field := "colour"
	if version == "v1" {
		field = "color"
	}
	return fmt.Sprintf(`{"apiVersion":"conv.example.com/%s","kind":"Paint","metadata":{"name":"%s","labels":{%s}},"spec":{"%s":"%s"}}`,
		version, name, labels, field, colour)
}

// conversionFailure is kube's answer to a failed conversion: 500, no reason.
func conversionFailure(msg string) map[string]any {
	return map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": msg, "code": float64(500)}
}

func TestConversionWebhookServesEveryVersion(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)

	// A create at v2 is stored at v1, converted by the webhook; each
	// version reads its own fields.
	a := ps.do("POST", paintsV2, paint("v2", "p1", "red", ""))
	require.Equal(t, http.StatusCreated, a.code, a.body)
	assert.Equal(t, "conv.example.com/v2", a.body["apiVersion"])
	assert.Equal(t, map[string]any{"colour": "red"}, a.body["spec"])
	a = ps.do("GET", paintsV1+"/p1", "")
	assert.Equal(t, map[string]any{"color": "red"}, a.body["spec"])
	assert.Equal(t, "conv.example.com/v1", a.body["apiVersion"])
	a = ps.do("GET", paintsV2+"/p1", "")
	assert.Equal(t, map[string]any{"colour": "red"}, a.body["spec"])

	// An update and a patch at v2.
	a.body["spec"] = map[string]any{"colour": "green"}
	body, _ := json.Marshal(a.body)
	a = ps.do("PUT", paintsV2+"/p1", string(body))
	require.Equal(t, http.StatusOK, a.code, a.body)
	assert.Equal(t, map[string]any{"colour": "green"}, a.body["spec"])
	a = ps.do("PATCH", paintsV2+"/p1", `{"spec":{"colour":"blue"}}`)
	require.Equal(t, http.StatusOK, a.code, a.body)
	assert.Equal(t, map[string]any{"colour": "blue"}, a.body["spec"])
	assert.Equal(t, map[string]any{"color": "blue"}, ps.do("GET", paintsV1+"/p1", "").body["spec"])

	// A list converts the objects it has not converted before in one review.
	for _, n := range []string{"p2", "p3", "p4"} {
		require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", n, "white", "")).code)
	}
	calls, objects := hook.calls.Load(), hook.objects.Load()
	a = ps.do("GET", paintsV2, "")
	require.Equal(t, http.StatusOK, a.code, a.body)
	items := a.body["items"].([]any)
	require.Len(t, items, 4)
	for _, it := range items {
		assert.Equal(t, "conv.example.com/v2", it.(map[string]any)["apiVersion"])
		assert.Contains(t, it.(map[string]any)["spec"], "colour")
	}
	assert.Equal(t, calls+1, hook.calls.Load(), "one review for the list")
	assert.Equal(t, objects+3, hook.objects.Load(), "p1 was converted when read before")
	a = ps.do("GET", paintsV2, "")
	assert.Equal(t, calls+1, hook.calls.Load(), "converted objects are kept with the stored ones")

	// A dry run at v2 is not converted for storage; a create at the storage
	// version calls nobody.
	calls = hook.calls.Load()
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV2+"?dryRun=All", paint("v2", "dry", "red", "")).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "p5", "red", "")).code)
	assert.Equal(t, calls, hook.calls.Load())

	// A delete at v2 answers with the object at v2.
	a = ps.do("DELETE", paintsV2+"/p5", "")
	require.Equal(t, http.StatusOK, a.code, a.body)
	assert.Equal(t, "Success", a.body["status"])
}

func TestConversionWebhookFailuresAnswerAsKube(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)

	// Writing at v2 converts to v1: the failure names v2.
	a := ps.do("POST", paintsV2, paint("v2", "pf", "blue", `"convert":"fail"`))
	assert.Equal(t, http.StatusInternalServerError, a.code)
	assert.Equal(t, conversionFailure("conversion webhook for conv.example.com/v2, Kind=Paint failed: cannot convert this one"), a.body)
	// Stored at v1 (no conversion), it cannot be read, listed, updated or
	// deleted at v2: those failures name v1.
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "pf", "blue", `"convert":"fail"`)).code)
	fromV1 := conversionFailure("conversion webhook for conv.example.com/v1, Kind=Paint failed: cannot convert this one")
	for _, req := range []struct{ method, path, body string }{
		{"GET", paintsV2 + "/pf", ""},
		{"GET", paintsV2, ""},
		{"GET", paintsV2 + "?limit=500", ""},
		{"PATCH", paintsV2 + "/pf", `{"spec":{"colour":"red"}}`},
		{"DELETE", paintsV2 + "/pf", ""},
	} {
		a := ps.do(req.method, req.path, req.body)
		assert.Equal(t, http.StatusInternalServerError, a.code, req)
		assert.Equal(t, fromV1, a.body, req)
	}
	// The object is still there, and readable at v1.
	assert.Equal(t, http.StatusOK, ps.do("GET", paintsV1+"/pf", "").code)

	// Webhooks that answer wrongly, as kube words each.
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "p1", "red", "")).code)
	prefix := "conversion webhook for conv.example.com/v1, Kind=Paint "
	for mode, want := range map[string]string{
		"garbage":         `failed: couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`,
		"status500":       `failed: an error on the server ("boom") has prevented the request from succeeding`,
		"admissionreview": `failed: no kind "AdmissionReview" is registered for version "admission.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110"`,
		"v1beta1":         `failed: converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion`,
		"missingkind":     `failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=`,
		"noresponse":      `failed: no response provided`,
		"failnomsg":       `failed: response.result.status was 'Failure', not 'Success'`,
		"count":           `returned 0 objects, expected 1`,
		"badav":           `returned invalid object at index 0: invalid groupVersion (expected conv.example.com/v2, received conv.example.com/v9)`,
		"badkind":         `returned invalid object at index 0: invalid kind (expected Paint, received Other)`,
		"rename":          `returned invalid object: must have the same name: p1 != renamed`,
		"nometa":          `returned invalid object: must have the same name: p1 != `,
		"badannot":        `returned invalid metadata: metadata.annotations[a] must be a string, but is int64 in converted object`,
		"badlabels":       `returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
	} {
		t.Run(mode, func(t *testing.T) {
			a := ps.do("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/paints.conv.example.com", "")
			crd := a.body
			crd["spec"].(map[string]any)["conversion"].(map[string]any)["webhook"].(map[string]any)["clientConfig"].(map[string]any)["url"] = hook.URL + "/conv/" + mode
			body, _ := json.Marshal(crd)
			require.Equal(t, http.StatusOK, ps.do("PUT", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/paints.conv.example.com", string(body)).code)
			a = ps.do("GET", paintsV2+"/p1", "")
			assert.Equal(t, conversionFailure(prefix+want), a.body)
		})
	}
}

// A conversion webhook may change labels and annotations only: kube keeps
// the rest of the stored metadata.
func TestConversionWebhookKeepsMetadata(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/conv/meta")).code)
	created := ps.do("POST", paintsV1, paint("v1", "p1", "red", `"a":"b"`))
	require.Equal(t, http.StatusCreated, created.code)
	a := ps.do("GET", paintsV2+"/p1", "")
	require.Equal(t, http.StatusOK, a.code, a.body)
	md := a.body["metadata"].(map[string]any)
	assert.Equal(t, map[string]any{"added": "yes"}, md["labels"])
	assert.Equal(t, float64(1), md["generation"])
	assert.Nil(t, md["finalizers"])
	assert.Equal(t, created.body["metadata"].(map[string]any)["uid"], md["uid"])
}

// A watch at v2 sees every event converted; an object that does not
// convert ends it without an ERROR event, as kube's watch cache ends its
// watchers (docs/kube-behaviour/12-policy.md, "Watches"); a watch at the
// storage version goes on.
func TestConversionWebhookWatch(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "p1", "red", "")).code)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ps.url+paintsV2+"?watch=1", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	next := func() map[string]any {
		require.True(t, events.Scan())
		var ev map[string]any
		require.NoError(t, json.Unmarshal(events.Bytes(), &ev))
		return ev
	}
	ev := next()
	assert.Equal(t, "ADDED", ev["type"])
	assert.Equal(t, map[string]any{"colour": "red"}, ev["object"].(map[string]any)["spec"])
	require.Equal(t, http.StatusOK, ps.do("PATCH", paintsV1+"/p1", `{"spec":{"color":"green"}}`).code)
	ev = next()
	assert.Equal(t, "MODIFIED", ev["type"])
	assert.Equal(t, "conv.example.com/v2", ev["object"].(map[string]any)["apiVersion"])
	assert.Equal(t, map[string]any{"colour": "green"}, ev["object"].(map[string]any)["spec"])

	v1req, _ := http.NewRequestWithContext(ctx, "GET", ps.url+paintsV1+"?watch=1&resourceVersion="+ev["object"].(map[string]any)["metadata"].(map[string]any)["resourceVersion"].(string), nil)
	v1resp, err := http.DefaultClient.Do(v1req)
	require.NoError(t, err)
	defer v1resp.Body.Close()
	v1events := bufio.NewScanner(v1resp.Body)

	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "pf", "red", `"convert":"fail"`)).code)
	assert.False(t, events.Scan(), "the watch at v2 ends, without an ERROR event: %s", events.Bytes())
	require.NoError(t, events.Err())
	require.True(t, v1events.Scan(), "the watch at v1 goes on")
	assert.Contains(t, v1events.Text(), `"name":"pf"`)
}

// A conversion webhook that hangs holds only the requests that need it:
// the same object is served at its storage version meanwhile.
func TestConversionWebhookHangingLeavesServerResponsive(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/conv/hang")).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "p1", "red", "")).code)
	done := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, "GET", ps.url+paintsV2+"/p1", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}()
	require.Eventually(t, func() bool { return hook.calls.Load() > 0 }, time.Minute, 10*time.Millisecond, "the webhook is called")
	for range 20 {
		require.Equal(t, http.StatusOK, ps.do("GET", paintsV1+"/p1", "").code)
		require.Equal(t, http.StatusOK, ps.do("GET", "/api/v1/namespaces", "").code)
	}
	select {
	case <-done:
		t.Fatal("the request that waits for the webhook ended")
	default: // still waiting: the others did not wait for it
	}
	cancel() // the client goes away: the call ends with it
	<-done
}

func TestCRDConversionValidatedAsKube(t *testing.T) {
	ps := newWebhookServer(t)
	crd := func(conversion string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"brushes.conv.example.com"},
"spec":{"group":"conv.example.com","scope":"Namespaced","names":{"plural":"brushes","kind":"Brush"},"conversion":` + conversion + `,
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	}
	// kube-apiserver 1.33's answers (docs/kube-behaviour/12-policy.md).
	const invalid = `CustomResourceDefinition.apiextensions.k8s.io "brushes.conv.example.com" is invalid: `
	for _, tc := range []struct{ conversion, message string }{
		{`{"strategy":"Webhook"}`, `[spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook, spec.conversion.conversionReviewVersions: Required value]`},
		{`{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v3"],"clientConfig":{"url":"http://x/y"}}}`,
			`[spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path], spec.conversion.conversionReviewVersions: Invalid value: ["v3"]: must include at least one of v1, v1beta1]`},
		{`{"strategy":"None","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"https://x/y"}}}`,
			`[spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook, spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook]`},
		{`{"strategy":"Bad"}`, `spec.conversion.strategy: Unsupported value: "Bad": supported values: "None", "Webhook"`},
		{`{}`, `spec.conversion.strategy: Required value`},
		{`{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1","v1"],"clientConfig":{"url":"https://x/y?a=b#f","service":{"namespace":"ns","name":"s"}}}}`,
			`[spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required, spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version]`},
		{`{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1beta1","v1"],"clientConfig":{"service":{"namespace":"","name":"","path":"a","port":0}}}}`,
			`[spec.conversion.webhookClientConfig.service.name: Required value: service name is required, spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required, spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive, spec.conversion.webhookClientConfig.service.path: Invalid value: "a": must start with a '/', spec.conversion.webhookClientConfig.service.path: Invalid value: "a": segment[0] may not be empty]`},
		{`{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"https://u:p@x/y","caBundle":"eA=="}}}`,
			`spec.conversion.webhookClientConfig.url: Invalid value: "u:p": user information is not permitted in the URL`},
		{`{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"url":"https://x/y?a=b"}}}`,
			`spec.conversion.webhookClientConfig.url: Invalid value: "a=b": query parameters are not permitted in the URL`},
	} {
		a := ps.do("POST", crdsURL+"?dryRun=All", crd(tc.conversion))
		assert.Equal(t, http.StatusUnprocessableEntity, a.code, tc.conversion)
		assert.Equal(t, invalid+tc.message, a.body["message"], tc.conversion)
	}
	// A service's port defaults to 443.
	a := ps.do("POST", crdsURL+"?dryRun=All", crd(`{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],"clientConfig":{"service":{"namespace":"ns","name":"s"}}}}`))
	require.Equal(t, http.StatusCreated, a.code, a.body)
	assert.Equal(t, map[string]any{"name": "s", "namespace": "ns", "port": float64(443)},
		a.body["spec"].(map[string]any)["conversion"].(map[string]any)["webhook"].(map[string]any)["clientConfig"].(map[string]any)["service"])
}

// A policy that matches the storage version (v1) sees a write at v2
// converted by the CRD's webhook (matchPolicy Equivalent), and an object
// that does not convert fails the binding, as kube answered.
func TestConversionWebhookForEquivalentPolicies(t *testing.T) {
	hook := newConvHook(t)
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Webhooks: &apiserver.WebhookOptions{}, ValidatingAdmissionPolicy: true})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	ps := &policyServer{t: t, url: hs.URL}
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicy","metadata":{"name":"no-black"},"spec":{"failurePolicy":"Fail",
"matchConstraints":{"resourceRules":[{"apiGroups":["conv.example.com"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],"resources":["paints"]}]},
"validations":[{"expression":"object.spec.color != \"black\"","messageExpression":"\"paint \" + object.metadata.name + \" at \" + object.apiVersion + \" is black\""}]}}`).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings",
		`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"ValidatingAdmissionPolicyBinding","metadata":{"name":"no-black"},"spec":{"policyName":"no-black","validationActions":["Deny"]}}`).code)

	denied := func(name, msg string) map[string]any {
		msg = "ValidatingAdmissionPolicy 'no-black' with binding 'no-black' denied request: " + msg
		return map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
			"message": `paints.conv.example.com "` + name + `" is forbidden: ` + msg, "reason": "Invalid", "code": float64(422),
			"details": map[string]any{"name": name, "group": "conv.example.com", "kind": "paints", "causes": []any{map[string]any{"message": msg}}}}
	}
	a := ps.do("POST", paintsV2, paint("v2", "pb", "black", ""))
	assert.Equal(t, denied("pb", "paint pb at conv.example.com/v1 is black"), a.body)
	a = ps.do("POST", paintsV2, paint("v2", "pf", "black", `"convert":"fail"`))
	assert.Equal(t, denied("pf", "failed to configure binding: failed to convert object version: conversion webhook for conv.example.com/v2, Kind=Paint failed: cannot convert this one"), a.body)
	assert.Equal(t, http.StatusCreated, ps.do("POST", paintsV2, paint("v2", "pw", "white", "")).code)
}

// Server-side apply compares the managers recorded at another version at
// theirs, converting through the webhook, as kube does: a conflict names
// the other version's field, and a change at one version takes the field
// from the managers of the other.
func TestConversionWebhookFieldManagersAcrossVersions(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)
	send := func(method, path, contentType, body string) (int, map[string]any) {
		req, err := http.NewRequest(method, ps.url+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", contentType)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var out map[string]any
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
		return resp.StatusCode, out
	}
	apply := func(path, manager, body string) (int, map[string]any) {
		return send("PATCH", path+"?fieldManager="+manager, "application/apply-patch+yaml", body)
	}
	managers := func(obj map[string]any) []string {
		var out []string
		for _, e := range obj["metadata"].(map[string]any)["managedFields"].([]any) {
			m := e.(map[string]any)
			fields, _ := json.Marshal(m["fieldsV1"])
			out = append(out, fmt.Sprintf("%s %s %s %s timed=%v", m["manager"], m["operation"], m["apiVersion"], fields, m["time"] != nil))
		}
		return out
	}

	applied := func(version, colour, labels string) string {
		field := map[string]string{"v1": "color", "v2": "colour"}[version]
		return fmt.Sprintf(`{"apiVersion":"conv.example.com/%s","kind":"Paint","metadata":{"name":"ssa"%s},"spec":{"%s":"%s"}}`, version, labels, field, colour)
	}
	code, _ := apply(paintsV1+"/ssa", "alice", applied("v1", "red", ""))
	require.Equal(t, http.StatusCreated, code)
	code, body := apply(paintsV2+"/ssa", "bob", applied("v2", "blue", ""))
	assert.Equal(t, http.StatusConflict, code)
	assert.Equal(t, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{}, "status": "Failure",
		"message": `Apply failed with 1 conflict: conflict with "alice": .spec.color`, "reason": "Conflict", "code": float64(409),
		"details": map[string]any{"causes": []any{map[string]any{"reason": "FieldManagerConflict", "message": `conflict with "alice"`, "field": ".spec.color"}}}}, body)

	code, body = apply(paintsV2+"/ssa", "bob", applied("v2", "red", `,"labels":{"convert":"fail"}`))
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.Equal(t, conversionFailure("failed to convert new object: conversion webhook for conv.example.com/v2, Kind=Paint failed: cannot convert this one"), body)

	// The same value at the other version: ownership is shared.
	code, body = apply(paintsV2+"/ssa", "bob", applied("v2", "red", ""))
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, []string{`bob Apply conv.example.com/v2 {"f:spec":{"f:colour":{}}} timed=false`, `alice Apply conv.example.com/v1 {"f:spec":{"f:color":{}}} timed=true`}, managers(body))

	// An update at v2 takes the field from both.
	code, body = send("PATCH", paintsV2+"/ssa?fieldManager=carol", "application/merge-patch+json", `{"spec":{"colour":"green"}}`)
	require.Equal(t, http.StatusOK, code, body)
	assert.Equal(t, []string{`carol Update conv.example.com/v2 {"f:spec":{"f:colour":{}}} timed=true`}, managers(body))
}

// What a conversion webhook adds beyond the target version's schema is
// pruned, on reads and before a write is stored, as kube prunes it.
func TestConversionWebhookAnswersArePruned(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/conv/extra")).code)
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "p1", "red", "")).code)
	a := ps.do("GET", paintsV2+"/p1", "")
	require.Equal(t, http.StatusOK, a.code, a.body)
	assert.Equal(t, map[string]any{"colour": "red"}, a.body["spec"])
	assert.NotContains(t, a.body, "junk")
	a = ps.do("POST", paintsV2, paint("v2", "p2", "teal", ""))
	require.Equal(t, http.StatusCreated, a.code, a.body)
	assert.Equal(t, map[string]any{"colour": "teal"}, a.body["spec"])
	a = ps.do("GET", paintsV1+"/p2", "")
	assert.Equal(t, map[string]any{"color": "teal"}, a.body["spec"])
	assert.NotContains(t, a.body, "junk")
}

// A default a CRD's schema gains after an object was stored is applied at
// the object's stored version, before it is converted: the served
// version's new defaults are not, as kube decodes and converts.
func TestConversionWebhookDefaultsAtTheStoredVersion(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)
	patchCRD := func(ops string) {
		req, err := http.NewRequest("PATCH", ps.url+crdsURL+"/paints.conv.example.com", strings.NewReader(ops))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json-patch+json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	const props = "/spec/versions/%d/schema/openAPIV3Schema/properties/spec/properties/"
	patchCRD(fmt.Sprintf(`[{"op":"add","path":"`+props+`shade","value":{"type":"string"}},{"op":"add","path":"`+props+`shade","value":{"type":"string"}}]`, 0, 1))
	require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", "pq", "red", "")).code)
	patchCRD(fmt.Sprintf(`[{"op":"add","path":"`+props+`shade/default","value":"light"},{"op":"add","path":"`+props+`finish","value":{"type":"string","default":"matte"}}]`, 0, 1))
	assert.Equal(t, map[string]any{"color": "red", "shade": "light"}, ps.do("GET", paintsV1+"/pq", "").body["spec"])
	assert.Equal(t, map[string]any{"colour": "red", "shade": "light"}, ps.do("GET", paintsV2+"/pq", "").body["spec"])
}

// Readers that convert the same stored objects at once share them without
// changing them (run with -race).
func TestConversionWebhookConcurrentReaders(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, hook.crd("/convert")).code)
	for i := range 10 {
		require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", fmt.Sprintf("p%d", i), "red", `"n":"1"`)).code)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				name := fmt.Sprintf("p%d", (i+g)%10)
				resp, err := http.Get(ps.url + paintsV2 + "/" + name)
				if assert.NoError(t, err) {
					assert.Equal(t, http.StatusOK, resp.StatusCode)
					resp.Body.Close()
				}
			}
			resp, err := http.Get(ps.url + paintsV2)
			if assert.NoError(t, err) {
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	a := ps.do("GET", paintsV1+"/p3", "")
	assert.Equal(t, map[string]any{"color": "red"}, a.body["spec"])
}

// Selectors at a non-storage version select what kube's watch cache of
// that version holds, the objects converted: a label a conversion webhook
// adds is selected (docs/kube-behaviour/12-policy.md, "Selectors at
// another version"), a selectable field is read at the version's own
// path, and a selector of name or namespace alone converts nothing; what a
// selector must convert is converted a page per review.
func TestConversionWebhookSelectors(t *testing.T) {
	hook := newConvHook(t)
	ps := newWebhookServer(t)
	crd := strings.Replace(hook.crd("/conv/tag"), `"storage":true,`, `"storage":true,"selectableFields":[{"jsonPath":".spec.color"}],`, 1)
	crd = strings.Replace(crd, `"storage":false,`, `"storage":false,"selectableFields":[{"jsonPath":".spec.colour"}],`, 1)
	require.Equal(t, http.StatusCreated, ps.do("POST", crdsURL, crd).code)
	for i, colour := range []string{"red", "blue", "red"} {
		require.Equal(t, http.StatusCreated, ps.do("POST", paintsV1, paint("v1", fmt.Sprintf("p%d", i+1), colour, "")).code)
	}
	names := func(a answer) []string {
		require.Equal(t, http.StatusOK, a.code, a.body)
		var out []string
		for _, it := range a.body["items"].([]any) {
			out = append(out, it.(map[string]any)["metadata"].(map[string]any)["name"].(string))
		}
		return out
	}
	calls := hook.calls.Load()
	assert.Equal(t, []string{"p2"}, names(ps.do("GET", paintsV2+"?fieldSelector=metadata.name%3Dp2", "")))
	assert.Equal(t, []string{"p1", "p3"}, names(ps.do("GET", paintsV2+"?fieldSelector=metadata.name!%3Dp2,metadata.namespace%3Ddefault", "")))
	assert.Equal(t, calls+2, hook.calls.Load(), "the two lists converted what they answer, nothing to select it")

	assert.Equal(t, []string{"p1", "p3"}, names(ps.do("GET", paintsV2+"?fieldSelector=spec.colour%3Dred", "")))
	assert.Equal(t, []string{"p1", "p2", "p3"}, names(ps.do("GET", paintsV2+"?labelSelector=version%3Dv2", "")), "the label the webhook adds at v2")
	assert.Empty(t, names(ps.do("GET", paintsV1+"?labelSelector=version%3Dv2", "")), "stored at v1 without it")
	assert.Equal(t, []string{"p2"}, names(ps.do("GET", paintsV2+"?labelSelector=version%3Dv2&fieldSelector=spec.colour%3Dblue", "")))

	for i := range 3 { // new stored versions, not converted yet
		require.Equal(t, http.StatusOK, ps.do("PATCH", fmt.Sprintf(paintsV1+"/p%d", i+1), `{"metadata":{"annotations":{"a":"b"}}}`).code)
	}
	calls = hook.calls.Load()
	assert.Equal(t, []string{"p1", "p3"}, names(ps.do("GET", paintsV2+"?labelSelector=version%3Dv2&fieldSelector=spec.colour%3Dred", "")))
	assert.Equal(t, calls+1, hook.calls.Load(), "what a selector reads converted is converted in one review, not one per object")

	for i := range 3 {
		require.Equal(t, http.StatusOK, ps.do("PATCH", fmt.Sprintf(paintsV1+"/p%d", i+1), `{"metadata":{"annotations":{"a":"c"}}}`).code)
	}
	calls = hook.calls.Load()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ps.url+paintsV2+"?watch=1&labelSelector=version%3Dv2", nil)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	events := bufio.NewScanner(resp.Body)
	for i := range 3 {
		require.True(t, events.Scan())
		assert.Contains(t, events.Text(), fmt.Sprintf(`"name":"p%d"`, i+1))
	}
	assert.Equal(t, calls+1, hook.calls.Load(), "a watch's initial events are converted in one review")
}

// A CRD established by a server that calls no webhooks, on a store then
// served by one that does (a kapitest template clone; servers sharing one
// store): the second converts through the webhook.
func TestConversionWebhookOfACRDEstablishedByAnotherServerOnTheStore(t *testing.T) {
	hook := newConvHook(t)
	st := memory.New(memory.Config{})
	first, err := apiserver.New(apiserver.Config{Store: st, Resources: builtin.Resources()})
	require.NoError(t, err)
	fs := httptest.NewServer(first)
	t.Cleanup(fs.Close)
	ps1 := &policyServer{t: t, url: fs.URL}
	require.Equal(t, http.StatusCreated, ps1.do("POST", crdsURL, hook.crd("/convert")).code)
	require.Equal(t, http.StatusOK, ps1.do("GET", crdsURL+"/paints.conv.example.com", "").code)

	second, err := apiserver.New(apiserver.Config{Store: st, Resources: builtin.Resources(), Webhooks: &apiserver.WebhookOptions{}})
	require.NoError(t, err)
	ss := httptest.NewServer(second)
	t.Cleanup(ss.Close)
	ps2 := &policyServer{t: t, url: ss.URL}
	a := ps2.do("POST", paintsV2, paint("v2", "p1", "red", ""))
	require.Equal(t, http.StatusCreated, a.code, a.body)
	assert.Equal(t, map[string]any{"colour": "red"}, a.body["spec"])
}
