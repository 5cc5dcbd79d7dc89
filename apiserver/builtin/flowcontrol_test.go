package builtin_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
)

const fcPath = "/apis/flowcontrol.apiserver.k8s.io/v1/"

// fcServer is a server with the built-in kinds and flow control on.
func fcServer(t *testing.T, opts flowcontrol.Options) (*apiserver.Server, *httptest.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts.Context = ctx
	srv, err := apiserver.New(apiserver.Config{
		Resources:         builtin.Resources(),
		OpenAPIComponents: builtin.OpenAPIComponents(),
		FlowControl:       &opts,
	})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return srv, ts
}

func do(t *testing.T, ts *httptest.Server, method, path, contentType, body string) (*http.Response, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if m == nil {
		m = map[string]any{"raw": string(b)}
	}
	return resp, m
}

func TestTheServerStartsWithKubesBootstrapConfigurationWrittenLikeKubes(t *testing.T) {
	_, ts := fcServer(t, flowcontrol.Options{})
	resp, pl := do(t, ts, "GET", fcPath+"prioritylevelconfigurations/catch-all", "", "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, map[string]any{"type": "Limited", "limited": map[string]any{"nominalConcurrencyShares": float64(5),
		"lendablePercent": float64(0), "limitResponse": map[string]any{"type": "Reject"}}}, pl["spec"])
	md := pl["metadata"].(map[string]any)
	assert.Equal(t, float64(1), md["generation"])
	assert.Equal(t, map[string]any{"apf.kubernetes.io/autoupdate-spec": "true"}, md["annotations"])
	mf := md["managedFields"].([]any)[0].(map[string]any)
	assert.Equal(t, "api-priority-and-fairness-config-producer-v1", mf["manager"])
	assert.Equal(t, "Update", mf["operation"])

	resp, fs := do(t, ts, "GET", fcPath+"flowschemas/global-default", "", "")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	cond := fs["status"].(map[string]any)["conditions"].([]any)[0].(map[string]any)
	assert.Equal(t, "Dangling", cond["type"])
	assert.Equal(t, "False", cond["status"])
	assert.Equal(t, "Found", cond["reason"])
	assert.Equal(t, `This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists`, cond["message"])
	managers := map[string]string{}
	for _, e := range fs["metadata"].(map[string]any)["managedFields"].([]any) {
		m := e.(map[string]any)
		managers[m["manager"].(string)] = m["operation"].(string) + "/" + func() string { s, _ := m["subresource"].(string); return s }()
	}
	assert.Equal(t, map[string]string{
		"api-priority-and-fairness-config-consumer-v1": "Apply/status",
		"api-priority-and-fairness-config-producer-v1": "Update/",
	}, managers)

	// Every response says what classified it.
	assert.NotEmpty(t, resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID"))
	assert.NotEmpty(t, resp.Header.Get("X-Kubernetes-PF-PriorityLevel-UID"))
	_, list := do(t, ts, "GET", fcPath+"flowschemas", "", "")
	uids := map[string]string{}
	for _, it := range list["items"].([]any) {
		m := it.(map[string]any)["metadata"].(map[string]any)
		uids[m["uid"].(string)] = m["name"].(string)
	}
	assert.Equal(t, "global-default", uids[resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID")], "an anonymous request")
}

func TestInvalidConfigurationsAreRefusedWithKubesStatus(t *testing.T) {
	_, ts := fcServer(t, flowcontrol.Options{})
	resp, st := do(t, ts, "POST", fcPath+"prioritylevelconfigurations", "application/json",
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"bad1"},"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{"queues":4,"handSize":5}}}}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Equal(t, `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad1" is invalid: spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)`, st["message"])

	resp, st = do(t, ts, "PATCH", fcPath+"prioritylevelconfigurations/catch-all", "application/merge-patch+json",
		`{"spec":{"limited":{"nominalConcurrencyShares":6}}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Equal(t, `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "catch-all" is invalid: spec: Invalid value: {"type":"Limited","limited":{"nominalConcurrencyShares":6,"limitResponse":{"type":"Reject"},"lendablePercent":0}}: spec of 'catch-all' must equal the fixed value`, st["message"])

	resp, obj := do(t, ts, "POST", fcPath+"prioritylevelconfigurations", "application/json",
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"p1"},"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Queue","queuing":{}}}}}`)
	require.Equal(t, http.StatusCreated, resp.StatusCode, obj)
	assert.Equal(t, map[string]any{"type": "Limited", "limited": map[string]any{"nominalConcurrencyShares": float64(30), "lendablePercent": float64(0),
		"limitResponse": map[string]any{"type": "Queue", "queuing": map[string]any{"queues": float64(64), "handSize": float64(8), "queueLengthLimit": float64(50)}}}}, obj["spec"])
}

func TestFlowSchemaTablesListSchemasInMatchingOrder(t *testing.T) {
	_, ts := fcServer(t, flowcontrol.Options{})
	req, _ := http.NewRequest("GET", ts.URL+fcPath+"flowschemas", nil)
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var table struct {
		Rows []struct {
			Cells []any `json:"cells"`
		} `json:"rows"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&table))
	var names []string
	for _, r := range table.Rows {
		names = append(names, r.Cells[0].(string))
	}
	assert.Equal(t, []string{"exempt", "probes", "system-leader-election", "endpoint-controller", "workload-leader-election",
		"system-node-high", "system-nodes", "kube-controller-manager", "kube-scheduler", "kube-system-service-accounts",
		"service-accounts", "global-default", "catch-all"}, names)
	assert.Equal(t, []any{"catch-all", "catch-all", float64(10000), "ByUser", table.Rows[12].Cells[4], "False"}, table.Rows[12].Cells)
}

func TestAFullLevelAnswersKubes429(t *testing.T) {
	srv, ts := fcServer(t, flowcontrol.Options{RequestWaitLimit: 200 * time.Millisecond})
	// A jail: no seats at all (no shares, nothing to borrow), one queue of
	// one request; unauthenticated requests for namespaced objects go there.
	resp, st := do(t, ts, "POST", fcPath+"prioritylevelconfigurations", "application/json",
		`{"metadata":{"name":"jail"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"borrowingLimitPercent":0,
		"limitResponse":{"type":"Queue","queuing":{"queues":1,"handSize":1,"queueLengthLimit":1}}}}}`)
	require.Equal(t, http.StatusCreated, resp.StatusCode, st)
	resp, st = do(t, ts, "POST", fcPath+"flowschemas", "application/json",
		`{"metadata":{"name":"anonymous"},"spec":{"priorityLevelConfiguration":{"name":"jail"},"matchingPrecedence":500,
		"rules":[{"subjects":[{"kind":"Group","group":{"name":"system:unauthenticated"}}],
		"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"]}]}]}}`)
	require.Equal(t, http.StatusCreated, resp.StatusCode, st)
	fsUID := st["metadata"].(map[string]any)["uid"].(string)
	require.Eventually(t, func() bool { // the schema's status is written once it is in force
		_, fs := do(t, ts, "GET", fcPath+"flowschemas/anonymous", "", "")
		status, _ := fs["status"].(map[string]any)
		return status != nil && status["conditions"] != nil
	}, time.Minute, 5*time.Millisecond)

	var wg sync.WaitGroup
	responses := make([]*http.Response, 3)
	bodies := make([]string, 3)
	for i := range responses {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(ts.URL + "/api/v1/namespaces/default/configmaps")
			if !assert.NoError(t, err) {
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			responses[i], bodies[i] = resp, string(b)
		}()
	}
	wg.Wait()
	for i, resp := range responses {
		require.NotNil(t, resp)
		assert.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
		assert.Equal(t, "Too many requests, please try again later.\n", bodies[i])
		assert.Equal(t, "text/plain; charset=utf-8", resp.Header.Get("Content-Type"))
		assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))
		assert.NotEmpty(t, resp.Header.Get("Retry-After"))
		assert.Equal(t, fsUID, resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID"))
	}
	resp, _ = do(t, ts, "GET", "/api/v1/namespaces", "", "")
	assert.Equal(t, http.StatusOK, resp.StatusCode, "other levels are served")

	var buf strings.Builder
	require.NoError(t, srv.FlowControl().WritePrometheus(&buf))
	assert.Contains(t, buf.String(), `apiserver_flowcontrol_rejected_requests_total{flow_schema="anonymous",priority_level="jail",reason="queue-full"} 2`+"\n")
	assert.Contains(t, buf.String(), `apiserver_flowcontrol_rejected_requests_total{flow_schema="anonymous",priority_level="jail",reason="time-out"} 1`+"\n")
}

func TestAStatusWriteChangesTheStatusOnlyAsKubesFlowControlStrategies(t *testing.T) {
	_, ts := fcServer(t, flowcontrol.Options{})
	resp, pl := do(t, ts, "PATCH", fcPath+"prioritylevelconfigurations/catch-all/status", "application/merge-patch+json",
		`{"metadata":{"labels":{"x":"y"},"annotations":{"a":"b"}},"status":{"conditions":[{"type":"T","status":"True"}]}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, pl)
	md := pl["metadata"].(map[string]any)
	assert.Nil(t, md["labels"])
	assert.Equal(t, map[string]any{"apf.kubernetes.io/autoupdate-spec": "true"}, md["annotations"])
	assert.Equal(t, []any{map[string]any{"type": "T", "status": "True", "lastTransitionTime": nil}}, pl["status"].(map[string]any)["conditions"],
		"an unset time encoded as kube's metav1.Time encodes it")

	resp, st := do(t, ts, "PATCH", fcPath+"prioritylevelconfigurations/catch-all/status", "application/merge-patch+json",
		`{"status":{"conditions":[{"type":"T","status":"True"},{"type":"T"}]}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Equal(t, `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "catch-all" is invalid: status.conditions[1].type: Duplicate value: "T"`, st["message"])
}

func TestV1beta3IsServedOverTheSameStorageWhenAskedFor(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := apiserver.New(apiserver.Config{
		Resources:         builtin.WithFlowControlV1beta3(builtin.Resources()),
		OpenAPIComponents: builtin.OpenAPIComponents(),
		FlowControl:       &flowcontrol.Options{Context: ctx},
	})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	const beta = "/apis/flowcontrol.apiserver.k8s.io/v1beta3/"
	level := func(name, annotations string) string {
		return `{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"PriorityLevelConfiguration","metadata":{"name":"` + name + `"` +
			annotations + `},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"limitResponse":{"type":"Reject"}}}}`
	}
	shares := func(o map[string]any) any {
		return o["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"]
	}
	annotations := func(o map[string]any) any { return o["metadata"].(map[string]any)["annotations"] }

	// As kube 1.31 (kube 1.33 serves v1 only), recorded in
	// docs/kube-behaviour/09-flowcontrol.md.
	resp, b1 := do(t, ts, "POST", beta+"prioritylevelconfigurations", "application/json", level("b1", ""))
	require.Equal(t, http.StatusCreated, resp.StatusCode, b1)
	assert.Equal(t, "flowcontrol.apiserver.k8s.io/v1beta3", b1["apiVersion"])
	assert.Equal(t, float64(30), shares(b1), "0 without the annotation means the default")

	resp, b2 := do(t, ts, "POST", beta+"prioritylevelconfigurations", "application/json",
		level("b2", `,"annotations":{"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares":""}`))
	require.Equal(t, http.StatusCreated, resp.StatusCode, b2)
	assert.Equal(t, float64(0), shares(b2))
	assert.Equal(t, map[string]any{"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": ""}, annotations(b2))
	mf := b2["metadata"].(map[string]any)["managedFields"].([]any)[0].(map[string]any)
	assert.Equal(t, "flowcontrol.apiserver.k8s.io/v1beta3", mf["apiVersion"])

	_, v1 := do(t, ts, "GET", fcPath+"prioritylevelconfigurations/b2", "", "")
	assert.Equal(t, float64(0), shares(v1))
	assert.Nil(t, annotations(v1), "the annotation is never stored")

	resp, _ = do(t, ts, "POST", fcPath+"prioritylevelconfigurations", "application/json",
		`{"metadata":{"name":"zero"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":0,"limitResponse":{"type":"Reject"}}}}`)
	require.Equal(t, http.StatusCreated, resp.StatusCode)
	_, z := do(t, ts, "GET", beta+"prioritylevelconfigurations/zero", "", "")
	assert.Equal(t, map[string]any{"flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares": ""}, annotations(z))
	_, list := do(t, ts, "GET", beta+"prioritylevelconfigurations", "", "")
	assert.Equal(t, "PriorityLevelConfigurationList", list["kind"])
	assert.Len(t, list["items"], 8+3)

	// A v1beta3 update keeps a 0 read through v1beta3.
	z["spec"].(map[string]any)["limited"].(map[string]any)["lendablePercent"] = 10
	body, _ := json.Marshal(z)
	resp, z = do(t, ts, "PUT", beta+"prioritylevelconfigurations/zero", "application/json", string(body))
	require.Equal(t, http.StatusOK, resp.StatusCode, z)
	assert.Equal(t, float64(0), shares(z))

	resp, st := do(t, ts, "POST", beta+"prioritylevelconfigurations", "application/json",
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1beta3","kind":"PriorityLevelConfiguration","metadata":{"name":"b3"},"spec":{"type":"Limited","limited":{"nominalConcurrencyShares":-3,"limitResponse":{"type":"Reject"}}}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode)
	assert.Equal(t, `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "b3" is invalid: spec.limited.nominalConcurrencyShares: Invalid value: -3: must be a non-negative integer`, st["message"])

	_, group := do(t, ts, "GET", "/apis/flowcontrol.apiserver.k8s.io", "", "")
	assert.Equal(t, map[string]any{"groupVersion": "flowcontrol.apiserver.k8s.io/v1", "version": "v1"}, group["preferredVersion"])
	assert.Len(t, group["versions"], 2)
	_, fs := do(t, ts, "GET", beta+"flowschemas/probes", "", "")
	assert.Equal(t, "flowcontrol.apiserver.k8s.io/v1beta3", fs["apiVersion"])
}

func TestWritesThroughEitherVersionKeepTheManagedFieldsOfTheOther(t *testing.T) {
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.WithFlowControlV1beta3(builtin.Resources())})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	const beta = "/apis/flowcontrol.apiserver.k8s.io/v1beta3/"
	managers := func(o map[string]any) map[string]string {
		out := map[string]string{}
		for _, e := range o["metadata"].(map[string]any)["managedFields"].([]any) {
			m := e.(map[string]any)
			out[m["manager"].(string)] = m["apiVersion"].(string)
		}
		return out
	}

	resp, pl := do(t, ts, "POST", fcPath+"prioritylevelconfigurations?fieldManager=v1-writer", "application/json",
		`{"metadata":{"name":"p"},"spec":{"type":"Limited","limited":{"limitResponse":{"type":"Reject"}}}}`)
	require.Equal(t, http.StatusCreated, resp.StatusCode, pl)
	resp, pl = do(t, ts, "PATCH", beta+"prioritylevelconfigurations/p?fieldManager=v1beta3-writer", "application/merge-patch+json",
		`{"spec":{"limited":{"lendablePercent":10}}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, pl)
	assert.Equal(t, map[string]string{"v1-writer": "flowcontrol.apiserver.k8s.io/v1", "v1beta3-writer": "flowcontrol.apiserver.k8s.io/v1beta3"}, managers(pl))

	resp, pl = do(t, ts, "PATCH", fcPath+"prioritylevelconfigurations/p?fieldManager=v1-writer", "application/merge-patch+json",
		`{"spec":{"limited":{"borrowingLimitPercent":5}}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, pl)
	assert.Equal(t, map[string]string{"v1-writer": "flowcontrol.apiserver.k8s.io/v1", "v1beta3-writer": "flowcontrol.apiserver.k8s.io/v1beta3"}, managers(pl))

	// A server-side apply through v1 conflicts with the v1beta3 owner.
	resp, st := do(t, ts, "PATCH", fcPath+"prioritylevelconfigurations/p?fieldManager=applier", "application/apply-patch+yaml",
		`{"apiVersion":"flowcontrol.apiserver.k8s.io/v1","kind":"PriorityLevelConfiguration","metadata":{"name":"p"},"spec":{"type":"Limited","limited":{"lendablePercent":20,"limitResponse":{"type":"Reject"}}}}`)
	assert.Equal(t, http.StatusConflict, resp.StatusCode, st)
	assert.Contains(t, st["message"], `conflict with "v1beta3-writer" using flowcontrol.apiserver.k8s.io/v1beta3: .spec.limited.lendablePercent`)
}

func TestFlowControlWithoutItsKindsRunsOnTheMandatoryConfiguration(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	resources := slices.DeleteFunc(builtin.Resources(), func(r apiserver.Resource) bool { return r.Group == flowcontrol.Group })
	srv, err := apiserver.New(apiserver.Config{Resources: resources, FlowControl: &flowcontrol.Options{Context: ctx}})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	resp, _ := do(t, ts, "GET", "/api/v1/namespaces", "", "")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header, "X-Kubernetes-Pf-Flowschema-Uid", "the imagined catch-all schema, without a uid")
	resp, _ = do(t, ts, "GET", fcPath+"flowschemas", "", "")
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
}

func TestFlowControlClassifiesTheAuthenticatedUserBeforeAuthorization(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	static := &authn.StaticTokens{}
	static.Add("admin-token", authn.User{Name: "admin", Groups: []string{authn.SystemPrivilegedGroup}})
	static.Add("alice-token", authn.User{Name: "alice", Groups: []string{"dev"}})
	srv, err := apiserver.New(apiserver.Config{
		Resources:         builtin.Resources(),
		OpenAPIComponents: builtin.OpenAPIComponents(),
		Authenticator:     authn.New(true, authn.BearerToken(static)),
		Authorizer:        authz.AlwaysDeny(),
		FlowControl:       &flowcontrol.Options{Context: ctx},
	})
	require.NoError(t, err)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	get := func(token, path string) *http.Response {
		req, _ := http.NewRequest("GET", ts.URL+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	resp := get("admin-token", fcPath+"flowschemas")
	require.Equal(t, http.StatusForbidden, resp.StatusCode, "AlwaysDeny denies even the admin")
	adminSchema := resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID")
	resp = get("alice-token", "/api/v1/namespaces")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	aliceSchema := resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID")
	resp = get("", "/api/v1/namespaces")
	anonSchema := resp.Header.Get("X-Kubernetes-PF-FlowSchema-UID")
	for _, u := range []string{adminSchema, aliceSchema, anonSchema} {
		require.NotEmpty(t, u, "every answer, a 403 too, says what classified it")
	}
	assert.NotEqual(t, adminSchema, aliceSchema, "system:masters is exempt, alice is not")
	assert.Equal(t, aliceSchema, anonSchema, "both in global-default")
}
