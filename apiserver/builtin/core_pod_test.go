package builtin_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

const (
	pods = "/api/v1/namespaces/default/pods"
	pdbs = "/apis/policy/v1/namespaces/default/poddisruptionbudgets"
)

// newPodServer serves the built-in kinds, with Nodes and
// PodDisruptionBudgets when builtin does not register them yet, on a clock
// the test sets.
func newPodServer(t testing.TB, now *time.Time) *apiserver.Server {
	t.Helper()
	rs := builtin.Resources()
	has := func(group, plural string) bool {
		for _, r := range rs {
			if r.Group == group && r.Plural == plural {
				return true
			}
		}
		return false
	}
	if !has("policy", "poddisruptionbudgets") {
		rs = append(rs, apiserver.Resource{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget", Plural: "poddisruptionbudgets",
			Namespaced: true, ShortNames: []string{"pdb"}, StatusSubresource: true})
	}
	rs = append(rs, builtin.PendingKinds(rs)...)
	srv, err := apiserver.New(apiserver.Config{Resources: rs, OpenAPIComponents: builtin.OpenAPIComponents(),
		Now: func() time.Time { return *now }})
	require.NoError(t, err)
	return srv
}

func podBody(name, extra string) string {
	return `{"metadata":{"name":"` + name + `","labels":{"app":"e"}},"spec":{` + extra + `"containers":[{"name":"c","image":"nginx"}]}}`
}

func md(o map[string]any) map[string]any { return o["metadata"].(map[string]any) }

// TestPodDeletionIsGraceful replays kube-apiserver 1.33's answers
// (docs/kube-behaviour/09-services-pods.md).
func TestPodDeletionIsGraceful(t *testing.T) {
	now := time.Date(2026, 11, 24, 21, 37, 6, 0, time.UTC)
	cases := []struct {
		name, pod string
		deletes   []string // query of each DELETE, in turn
		kept      bool
		timestamp string
		grace     any
	}{
		{name: "a pod on a node is kept 30 seconds", pod: podBody("p", `"nodeName":"n1",`), deletes: []string{""},
			kept: true, timestamp: "2026-11-24T21:37:36Z", grace: float64(30)},
		{name: "its own termination grace period counts", pod: podBody("p", `"nodeName":"n1","terminationGracePeriodSeconds":10,`),
			deletes: []string{""}, kept: true, timestamp: "2026-11-24T21:37:16Z", grace: float64(10)},
		{name: "a pod on no node goes at once", pod: podBody("p", ""), deletes: []string{""}},
		{name: "gracePeriodSeconds=0 removes it", pod: podBody("p", `"nodeName":"n1",`), deletes: []string{"?gracePeriodSeconds=0"}},
		{name: "a shorter period moves the deletion earlier", pod: podBody("p", `"nodeName":"n1",`),
			deletes: []string{"", "?gracePeriodSeconds=5"}, kept: true, timestamp: "2026-11-24T21:37:11Z", grace: float64(5)},
		{name: "a longer period is not taken", pod: podBody("p", `"nodeName":"n1",`),
			deletes: []string{"?gracePeriodSeconds=5", "?gracePeriodSeconds=20"}, kept: true, timestamp: "2026-11-24T21:37:11Z", grace: float64(5)},
		{name: "a second DELETE without a period changes nothing", pod: podBody("p", `"nodeName":"n1",`),
			deletes: []string{"", ""}, kept: true, timestamp: "2026-11-24T21:37:36Z", grace: float64(30)},
		{name: "a later DELETE with 0 removes a terminating pod", pod: podBody("p", `"nodeName":"n1",`),
			deletes: []string{"", "?gracePeriodSeconds=0"}},
		{name: "a negative period counts as one second", pod: podBody("p", `"nodeName":"n1",`), deletes: []string{"?gracePeriodSeconds=-5"},
			kept: true, timestamp: "2026-11-24T21:37:07Z", grace: float64(1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clock := now
			srv := newPodServer(t, &clock)
			code, _ := serve(t, srv, "POST", pods, "application/json", c.pod)
			require.Equal(t, http.StatusCreated, code)
			var out map[string]any
			for _, q := range c.deletes {
				code, out = serve(t, srv, "DELETE", pods+"/p"+q, "", "")
				require.Equal(t, http.StatusOK, code, out)
				assert.Equal(t, "Pod", out["kind"], "a DELETE of a pod answers the pod")
			}
			code, got := serve(t, srv, "GET", pods+"/p", "", "")
			if !c.kept {
				assert.Equal(t, http.StatusNotFound, code)
				assert.NotEmpty(t, md(out)["deletionTimestamp"], "the answer is the marked pod, as kube stores it before removing it")
				assert.Equal(t, float64(0), md(out)["deletionGracePeriodSeconds"])
				return
			}
			require.Equal(t, http.StatusOK, code)
			assert.Equal(t, c.timestamp, md(got)["deletionTimestamp"])
			assert.Equal(t, c.grace, md(got)["deletionGracePeriodSeconds"])
		})
	}
}

func TestPodRemovalIsSeenModifiedThenDeleted(t *testing.T) {
	now := time.Now().UTC()
	srv := newPodServer(t, &now)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	resp, err := http.Get(ts.URL + pods + "?watch=1&resourceVersion=0")
	require.NoError(t, err)
	defer resp.Body.Close()
	code, _ := serve(t, srv, "POST", pods, "application/json", podBody("p", ""))
	require.Equal(t, http.StatusCreated, code)
	code, _ = serve(t, srv, "DELETE", pods+"/p", "", "")
	require.Equal(t, http.StatusOK, code)
	r := bufio.NewReader(resp.Body)
	var types []string
	for len(types) < 3 {
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		types = append(types, strings.SplitN(strings.TrimPrefix(line, `{"type":"`), `"`, 2)[0])
	}
	assert.Equal(t, []string{"ADDED", "MODIFIED", "DELETED"}, types)
}

func TestOtherKindsGetNoGracePeriod(t *testing.T) {
	now := time.Now().UTC()
	srv := newPodServer(t, &now)
	code, _ := serve(t, srv, "POST", "/api/v1/namespaces/default/configmaps", "application/json",
		`{"metadata":{"name":"fin","finalizers":["x/y"]}}`)
	require.Equal(t, http.StatusCreated, code)
	code, out := serve(t, srv, "DELETE", "/api/v1/namespaces/default/configmaps/fin?gracePeriodSeconds=30", "", "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, float64(0), md(out)["deletionGracePeriodSeconds"], "kube marks other kinds with 0 whatever the options say")
}

func TestPodBinding(t *testing.T) {
	now := time.Date(2026, 11, 24, 21, 39, 20, 0, time.UTC)
	srv := newPodServer(t, &now)
	for _, p := range []string{podBody("b", ""), podBody("gone", `"nodeName":"n1",`)} {
		code, _ := serve(t, srv, "POST", pods, "application/json", p)
		require.Equal(t, http.StatusCreated, code)
	}
	serve(t, srv, "DELETE", pods+"/gone", "", "")
	binding := func(name, extra string) string {
		return `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"` + name + `"` + extra + `},"target":{"kind":"Node","name":"n1"}}`
	}
	cases := []struct {
		name, path, body string
		code             int
		message          string
	}{
		{"a dry run binds nothing", pods + "/b/binding?dryRun=All", binding("b", ""), 201, ""},
		{"a stale resourceVersion is a storage conflict", pods + "/b/binding", binding("b", `,"resourceVersion":"1"`), 409,
			`Operation cannot be fulfilled on pods "b": StorageError: invalid object, Code: 4, Key: /registry/pods/default/b, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: 6`},
		{"a binding sets the node", pods + "/b/binding", binding("b", `,"annotations":{"a":"b"}`), 201, ""},
		{"a bound pod is a conflict", pods + "/b/binding", binding("b", ""), 409,
			`Operation cannot be fulfilled on pods/binding "b": pod b is already assigned to node "n1"`},
		{"a pod being deleted is a conflict", pods + "/gone/binding", binding("gone", ""), 409,
			`Operation cannot be fulfilled on pods/binding "gone": pod gone is being deleted, cannot be assigned to a host`},
		{"a missing pod is 404", pods + "/nope/binding", binding("nope", ""), 404, `pods "nope" not found`},
		{"the names must match", pods + "/b/binding", binding("other", ""), 400, "name in URL does not match name in Binding object"},
		{"an invalid target is kube's 500", pods + "/b/binding", `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"b"},"target":{"kind":"Pod"}}`,
			500, `[target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]`},
		{"GET is not allowed", pods + "/b/binding", "", 405, "the server does not allow this method on the requested resource"},
		{"a core Binding binds the pod it names", "/api/v1/namespaces/default/bindings", binding("b", ""), 409,
			`Operation cannot be fulfilled on pods/binding "b": pod b is already assigned to node "n1"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := "POST"
			if c.body == "" {
				method = "GET"
			}
			code, out := serve(t, srv, method, c.path, "application/json", c.body)
			require.Equal(t, c.code, code, out)
			if c.message != "" {
				assert.Equal(t, c.message, out["message"])
			} else {
				assert.Equal(t, map[string]any{"kind": "Status", "apiVersion": "v1", "metadata": map[string]any{},
					"status": "Success", "code": float64(201)}, out)
			}
			if c.name == "a dry run binds nothing" {
				_, pod := serve(t, srv, "GET", pods+"/b", "", "")
				assert.Nil(t, spec(pod)["nodeName"])
			}
		})
	}
	t.Run("a core Binding answers Success", func(t *testing.T) {
		code, _ := serve(t, srv, "POST", pods, "application/json", podBody("c", ""))
		require.Equal(t, http.StatusCreated, code)
		code, out := serve(t, srv, "POST", "/api/v1/namespaces/default/bindings", "application/json", binding("c", ""))
		require.Equal(t, http.StatusCreated, code, out)
		assert.Equal(t, "Success", out["status"])
		_, pod := serve(t, srv, "GET", pods+"/c", "", "")
		assert.Equal(t, "n1", spec(pod)["nodeName"])
	})
	_, pod := serve(t, srv, "GET", pods+"/b", "", "")
	assert.Equal(t, "n1", spec(pod)["nodeName"])
	assert.Equal(t, map[string]any{"a": "b"}, md(pod)["annotations"])
	assert.Equal(t, []any{map[string]any{"type": "PodScheduled", "status": "True", "lastProbeTime": nil,
		"lastTransitionTime": "2026-11-24T21:39:20Z"}}, pod["status"].(map[string]any)["conditions"])
}

// readyPod creates a running, ready pod on a node.
func readyPod(t *testing.T, srv http.Handler, name string) {
	t.Helper()
	code, out := serve(t, srv, "POST", pods, "application/json", podBody(name, `"nodeName":"n1",`))
	require.Equal(t, http.StatusCreated, code, out)
	code, out = serve(t, srv, "PATCH", pods+"/"+name+"/status", "application/merge-patch+json",
		`{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}`)
	require.Equal(t, http.StatusOK, code, out)
}

func eviction(name string) string {
	return `{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"` + name + `"}}`
}

func TestPodEviction(t *testing.T) {
	now := time.Date(2026, 11, 24, 21, 40, 10, 0, time.UTC)
	t.Run("a pod without a budget is deleted gracefully and marked a disruption target", func(t *testing.T) {
		srv := newPodServer(t, &now)
		readyPod(t, srv, "e1")
		code, out := serve(t, srv, "POST", pods+"/e1/eviction", "application/json", eviction("e1"))
		require.Equal(t, http.StatusCreated, code, out)
		assert.Equal(t, "Success", out["status"])
		_, pod := serve(t, srv, "GET", pods+"/e1", "", "")
		assert.Equal(t, "2026-11-24T21:40:40Z", md(pod)["deletionTimestamp"])
		assert.Contains(t, pod["status"].(map[string]any)["conditions"], map[string]any{"type": "DisruptionTarget", "status": "True",
			"lastProbeTime": nil, "lastTransitionTime": "2026-11-24T21:40:10Z", "reason": "EvictionByEvictionAPI", "message": "Eviction API: evicting"})
	})
	t.Run("a policy/v1beta1 Eviction is taken", func(t *testing.T) {
		srv := newPodServer(t, &now)
		readyPod(t, srv, "e1")
		code, out := serve(t, srv, "POST", pods+"/e1/eviction", "application/json",
			`{"apiVersion":"policy/v1beta1","kind":"Eviction","metadata":{"name":"e1"}}`)
		assert.Equal(t, http.StatusCreated, code, out)
	})
	t.Run("the budget's last disruption is taken, the next refused with 429", func(t *testing.T) {
		srv := newPodServer(t, &now)
		readyPod(t, srv, "e1")
		readyPod(t, srv, "e2")
		code, out := serve(t, srv, "POST", pdbs, "application/json",
			`{"metadata":{"name":"pdb"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"app":"e"}}}}`)
		require.Equal(t, http.StatusCreated, code, out)

		_, before := serve(t, srv, "GET", pdbs+"/pdb", "", "")
		code, out = serve(t, srv, "POST", pods+"/e2/eviction?dryRun=All", "application/json", eviction("e2"))
		require.Equal(t, http.StatusCreated, code, out)
		_, pdb := serve(t, srv, "GET", pdbs+"/pdb", "", "")
		assert.Equal(t, md(before)["resourceVersion"], md(pdb)["resourceVersion"], "a dry run writes nothing")

		code, out = serve(t, srv, "POST", pods+"/e2/eviction", "application/json", eviction("e2"))
		require.Equal(t, http.StatusCreated, code, out)
		_, pdb = serve(t, srv, "GET", pdbs+"/pdb", "", "")
		assert.Equal(t, map[string]any{"observedGeneration": float64(1), "disruptedPods": map[string]any{"e2": "2026-11-24T21:40:10Z"},
			"disruptionsAllowed": float64(0), "currentHealthy": float64(2), "desiredHealthy": float64(1), "expectedPods": float64(2),
			"conditions": []any{map[string]any{"type": "DisruptionAllowed", "status": "False", "observedGeneration": float64(1),
				"lastTransitionTime": "2026-11-24T21:40:10Z", "reason": "InsufficientPods", "message": ""}}}, pdb["status"],
			"as kube's disruption controller and eviction leave it")
		managers := map[any]any{}
		for _, e := range md(pdb)["managedFields"].([]any) {
			managers[e.(map[string]any)["subresource"]] = e.(map[string]any)["manager"]
		}
		assert.Equal(t, "kube-apiserver", managers["status"], "the status is written as kube's eviction writes it")

		code, out = serve(t, srv, "POST", pods+"/e1/eviction", "application/json", eviction("e1"))
		require.Equal(t, http.StatusTooManyRequests, code, out)
		assert.Equal(t, "Cannot evict pod as it would violate the pod's disruption budget.", out["message"])
		assert.Equal(t, map[string]any{"causes": []any{map[string]any{"reason": "DisruptionBudget",
			"message": "The disruption budget pdb needs 1 healthy pods and has 1 currently"}}}, out["details"])
	})
	t.Run("a pending pod is evicted whatever its budget", func(t *testing.T) {
		srv := newPodServer(t, &now)
		code, _ := serve(t, srv, "POST", pods, "application/json", podBody("p", ""))
		require.Equal(t, http.StatusCreated, code)
		serve(t, srv, "POST", pdbs, "application/json", `{"metadata":{"name":"pdb"},"spec":{"minAvailable":5,"selector":{}}}`)
		code, out := serve(t, srv, "POST", pods+"/p/eviction", "application/json", eviction("p"))
		assert.Equal(t, http.StatusCreated, code, out)
	})
	t.Run("two budgets are kube's 500", func(t *testing.T) {
		srv := newPodServer(t, &now)
		readyPod(t, srv, "e1")
		for _, n := range []string{"a", "b"} {
			serve(t, srv, "POST", pdbs, "application/json", `{"metadata":{"name":"`+n+`"},"spec":{"minAvailable":0,"selector":{}}}`)
		}
		code, out := serve(t, srv, "POST", pods+"/e1/eviction", "application/json", eviction("e1"))
		assert.Equal(t, http.StatusInternalServerError, code)
		assert.Equal(t, "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", out["message"])
	})
	t.Run("maxUnavailable counts the replicas of the pods' controller", func(t *testing.T) {
		srv := newPodServer(t, &now)
		code, rs := serve(t, srv, "POST", "/apis/apps/v1/namespaces/default/deployments", "application/json",
			`{"metadata":{"name":"d"},"spec":{"replicas":3,"selector":{"matchLabels":{"app":"e"}},"template":{"metadata":{"labels":{"app":"e"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
		require.Equal(t, http.StatusCreated, code, rs)
		owner := `"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"d","uid":"` + md(rs)["uid"].(string) + `","controller":true}]`
		for _, n := range []string{"e1", "e2"} {
			code, out := serve(t, srv, "POST", pods, "application/json",
				`{"metadata":{"name":"`+n+`","labels":{"app":"e"},`+owner+`},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"nginx"}]}}`)
			require.Equal(t, http.StatusCreated, code, out)
			serve(t, srv, "PATCH", pods+"/"+n+"/status", "application/merge-patch+json",
				`{"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}`)
		}
		serve(t, srv, "POST", pdbs, "application/json", `{"metadata":{"name":"pdb"},"spec":{"maxUnavailable":1,"selector":{"matchLabels":{"app":"e"}}}}`)
		code, out := serve(t, srv, "POST", pods+"/e1/eviction", "application/json", eviction("e1"))
		require.Equal(t, http.StatusTooManyRequests, code, out)
		assert.Equal(t, "The disruption budget pdb needs 2 healthy pods and has 2 currently",
			out["details"].(map[string]any)["causes"].([]any)[0].(map[string]any)["message"], "3 expected, 1 may be unavailable")
	})
	t.Run("errors", func(t *testing.T) {
		srv := newPodServer(t, &now)
		readyPod(t, srv, "e1")
		code, out := serve(t, srv, "POST", pods+"/nope/eviction", "application/json", eviction("nope"))
		assert.Equal(t, http.StatusNotFound, code)
		assert.Equal(t, `pods "nope" not found`, out["message"])
		code, out = serve(t, srv, "POST", pods+"/e1/eviction", "application/json", eviction("x"))
		assert.Equal(t, http.StatusBadRequest, code)
		assert.Equal(t, "name in URL does not match name in Eviction object", out["message"])
	})
}

func TestEphemeralContainers(t *testing.T) {
	now := time.Now().UTC()
	srv := newPodServer(t, &now)
	code, _ := serve(t, srv, "POST", pods, "application/json", podBody("ec", ""))
	require.Equal(t, http.StatusCreated, code)
	code, out := serve(t, srv, "GET", pods+"/ec/ephemeralcontainers", "", "")
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, "Pod", out["kind"])

	code, out = serve(t, srv, "PATCH", pods+"/ec/ephemeralcontainers", "application/strategic-merge-patch+json",
		`{"metadata":{"labels":{"x":"y"}},"spec":{"ephemeralContainers":[{"name":"dbg","image":"busybox","targetContainerName":"c"}],"nodeName":"zz"}}`)
	require.Equal(t, http.StatusOK, code, out)
	assert.Equal(t, []any{map[string]any{"name": "dbg", "image": "busybox", "resources": map[string]any{},
		"terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File", "imagePullPolicy": "Always",
		"targetContainerName": "c"}}, spec(out)["ephemeralContainers"])
	assert.Equal(t, map[string]any{"app": "e"}, md(out)["labels"], "nothing but ephemeral containers changes")
	assert.Nil(t, spec(out)["nodeName"])

	cases := []struct{ name, patch, message string }{
		{"one may not be changed", `{"spec":{"ephemeralContainers":[{"name":"dbg","image":"busybox:2","targetContainerName":"c"}]}}`,
			`Pod "ec" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "dbg" may not be changed`},
		{"one may not be removed", `{"spec":{"ephemeralContainers":[]}}`,
			"Pod \"ec\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers \"dbg\" may not be removed\n"},
		{"names are unique among all containers", `{"spec":{"ephemeralContainers":[{"name":"dbg","image":"busybox","targetContainerName":"c"},{"name":"c","image":"x"}]}}`,
			`Pod "ec" is invalid: spec.ephemeralContainers[1].name: Duplicate value: "c"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := serve(t, srv, "PATCH", pods+"/ec/ephemeralcontainers", "application/merge-patch+json", c.patch)
			assert.Equal(t, http.StatusUnprocessableEntity, code)
			assert.Equal(t, c.message, out["message"])
		})
	}
}

// TestConnectSubresourcesWithoutAKubelet: log, exec, attach, portforward
// and proxy answer as kube answers when no kubelet can be reached.
func TestConnectSubresourcesWithoutAKubelet(t *testing.T) {
	now := time.Now().UTC()
	srv := newPodServer(t, &now)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	refused := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // nothing listens there now: connection refused
	for _, r := range []struct{ path, body string }{
		{pods, podBody("c1", "")},
		{pods, `{"metadata":{"name":"c2"},"spec":{"nodeName":"n1","containers":[{"name":"c","image":"nginx"},{"name":"d","image":"nginx"}]}}`},
		{pods, `{"metadata":{"name":"c3"},"spec":{"nodeName":"gone","containers":[{"name":"c","image":"nginx"}]}}`},
		{"/api/v1/nodes", `{"metadata":{"name":"n1"}}`},
		{"/api/v1/nodes", `{"metadata":{"name":"bare"}}`},
		{"/api/v1/namespaces/default/services", `{"metadata":{"name":"kubernetes"},"spec":{"ports":[{"port":443}]}}`},
	} {
		code, out := serve(t, srv, "POST", r.path, "application/json", r.body)
		require.Equal(t, http.StatusCreated, code, out)
	}
	code, out := serve(t, srv, "PATCH", "/api/v1/nodes/n1/status", "application/merge-patch+json",
		`{"status":{"addresses":[{"type":"InternalIP","address":"127.0.0.1"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":`+itoa(refused)+`}}}}`)
	require.Equal(t, http.StatusOK, code, out)
	host := "127.0.0.1:" + itoa(refused)
	cases := []struct {
		name, method, path string
		headers            map[string]string
		code               int
		message            string
	}{
		{"the log of a pod on no node is empty", "GET", "c1/log", nil, 204, ""},
		{"exec on a pod on no node is refused", "GET", "c1/exec?command=ls", nil, 400, "pod c1 does not have a host assigned"},
		{"so is a POST", "POST", "c1/exec?command=ls", nil, 400, "pod c1 does not have a host assigned"},
		{"attach too", "GET", "c1/attach", nil, 400, "pod c1 does not have a host assigned"},
		{"portforward too", "GET", "c1/portforward?ports=80", nil, 400, "pod c1 does not have a host assigned"},
		{"a proxy needs the pod's address", "GET", "c1/proxy", nil, 400, "address not allowed"},
		{"a proxy path too", "GET", "c1/proxy/x/y", nil, 400, "address not allowed"},
		{"several containers need a name", "GET", "c2/log", nil, 400, "a container name must be specified for pod c2, choose one of: [c d]"},
		{"an unknown container is refused", "GET", "c2/log?container=x", nil, 400, "container x is not valid for pod c2"},
		{"a node that does not exist is kube's pods NotFound", "GET", "c3/log", nil, 404, `pods "gone" not found`},
		{"the log of a pod whose kubelet is down is the dial's failure", "GET", "c2/log?container=c", nil, 500,
			`Get "https://` + host + `/containerLogs/default/c2/c": dial tcp ` + host + `: connect: connection refused`},
		{"exec needs an upgrade", "GET", "c2/exec?command=ls&container=c", nil, 400, "Upgrade request required"},
		{"an upgraded exec fails to dial", "GET", "c2/exec?command=ls&container=c&stdout=1",
			map[string]string{"Connection": "Upgrade", "Upgrade": "SPDY/3.1"}, 500, "error dialing backend: dial tcp " + host + ": connect: connection refused"},
		{"a WebSocket exec fails as kube's stream translator", "GET", "c2/exec?command=ls&container=c&stdout=true&stderr=true",
			map[string]string{"Connection": "Upgrade", "Upgrade": "websocket"}, 500,
			`Internal error occurred: error sending request: Post "https://` + host + `/exec/default/c2/c?command=ls&error=1&output=1": dial tcp ` + host + `: connect: connection refused`},
		{"a missing pod is 404", "GET", "nope/log", nil, 404, `pods "nope" not found`},
		{"a service without endpoints is kube's services NotFound", "GET", "../services/kubernetes/proxy", nil, 404, `services "kubernetes" not found`},
		{"a missing service is 404", "GET", "../services/nope/proxy/x", nil, 404, `services "nope" not found`},
		{"a node on a loopback address is not proxied", "GET", "../../../nodes/n1/proxy", nil, 400, "address not allowed"},
		{"a node without addresses", "GET", "../../../nodes/bare/proxy/metrics", nil, 500, "no preferred addresses found; known addresses: []"},
		{"a missing node is 404", "GET", "../../../nodes/nope/proxy", nil, 404, `nodes "nope" not found`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest(c.method, path.Clean(pods+"/"+c.path), nil)
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			require.Equal(t, c.code, rec.Code, rec.Body.String())
			if c.message == "" {
				b, _ := io.ReadAll(rec.Body)
				assert.Empty(t, b)
				return
			}
			assert.Contains(t, rec.Body.String(), `"message":`+quote(c.message))
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestPodResize replays kube-apiserver 1.33's answers to pods/resize.
func TestPodResize(t *testing.T) {
	now := time.Now().UTC()
	srv := newPodServer(t, &now)
	code, _ := serve(t, srv, "POST", pods, "application/json", podBody("r", ""))
	require.Equal(t, http.StatusCreated, code)
	code, out := serve(t, srv, "PATCH", pods+"/r/resize", "application/strategic-merge-patch+json",
		`{"metadata":{"labels":{"x":"y"}},"spec":{"nodeName":"n","containers":[{"name":"c","image":"other","resources":{"limits":{"cpu":"1"}}}]}}`)
	require.Equal(t, http.StatusUnprocessableEntity, code, out)
	assert.Equal(t, `Pod "r" is invalid: spec: Invalid value: "BestEffort": Pod QOS Class may not change as a result of resizing`, out["message"])

	code, _ = serve(t, srv, "POST", pods, "application/json",
		`{"metadata":{"name":"r2"},"spec":{"containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"200m"}}}]}}`)
	require.Equal(t, http.StatusCreated, code)
	code, out = serve(t, srv, "PATCH", pods+"/r2/resize", "application/strategic-merge-patch+json",
		`{"metadata":{"labels":{"x":"y"}},"spec":{"nodeName":"n","containers":[{"name":"c","image":"other","resources":{"requests":{"cpu":"100m"},"limits":{"cpu":"300m"}}}]}}`)
	require.Equal(t, http.StatusOK, code, out)
	c := spec(out)["containers"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"requests": map[string]any{"cpu": "100m"}, "limits": map[string]any{"cpu": "300m"}}, c["resources"])
	assert.Equal(t, "nginx", c["image"], "nothing but resources changes")
	assert.Nil(t, spec(out)["nodeName"])
	assert.Nil(t, md(out)["labels"])
}

// TestPodIPsReadBackAsKubeConvertsThem holds a pod's status to kube's
// conversion of podIP and hostIP with their lists: a single IP alone
// becomes the list, and the single one is always the list's first.
func TestPodIPsReadBackAsKubeConvertsThem(t *testing.T) {
	srv := newBuiltinServer(t)
	code, out := serve(t, srv, "POST", "/api/v1/namespaces/default/pods", "application/json",
		`{"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	code, out = serve(t, srv, "PATCH", "/api/v1/namespaces/default/pods/p/status", "application/merge-patch+json",
		`{"status":{"podIP":"10.0.0.2","hostIP":"192.0.2.1"}}`)
	require.Equal(t, http.StatusOK, code, out)
	status := out["status"].(map[string]any)
	assert.Equal(t, []any{map[string]any{"ip": "10.0.0.2"}}, status["podIPs"])
	assert.Equal(t, []any{map[string]any{"ip": "192.0.2.1"}}, status["hostIPs"])
	code, out = serve(t, srv, "PATCH", "/api/v1/namespaces/default/pods/p/status", "application/merge-patch+json",
		`{"status":{"podIP":null,"podIPs":[{"ip":"10.0.0.3"},{"ip":"fd00::3"}]}}`)
	require.Equal(t, http.StatusOK, code, out)
	status = out["status"].(map[string]any)
	assert.Equal(t, "10.0.0.3", status["podIP"])
}
