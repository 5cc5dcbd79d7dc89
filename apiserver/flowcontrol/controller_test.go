//go:build go1.25

package flowcontrol

import (
	"net/http"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

type limits struct{ nominal, lower, upper int }

func (e *env) limits() map[string]limits {
	e.c.mu.Lock()
	defer e.c.mu.Unlock()
	out := map[string]limits{}
	for name, l := range e.c.levels {
		out[name] = limits{l.nominalCL, l.minCL, l.maxCL}
	}
	return out
}

func TestLimitsFollowTheSeedsFormulasAsKubeComputesThem(t *testing.T) {
	// kube-apiserver 1.33 with --max-requests-inflight=2
	// --max-mutating-requests-inflight=2, its bootstrap configuration and a
	// level "jail" (1 share, borrowingLimitPercent 0) reported these
	// apiserver_flowcontrol_{nominal,lower,upper}_limit_seats.
	e := newEnv(t, Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2}, false)
	e.putBootstrap()
	e.put(newPL("jail", map[string]any{"nominalConcurrencyShares": int64(1), "borrowingLimitPercent": int64(0),
		"limitResponse": map[string]any{"type": "Reject"}}))
	e.start()
	assert.Equal(t, map[string]limits{
		"catch-all": {1, 1, 5}, "exempt": {0, 0, 4}, "global-default": {1, 0, 5}, "jail": {1, 1, 1},
		"leader-election": {1, 1, 5}, "node-high": {1, 1, 5}, "system": {1, 1, 5},
		"workload-high": {1, 0, 5}, "workload-low": {2, 0, 6},
	}, e.limits())
	assert.Equal(t, 4, e.c.ServerConcurrencyLimit())
}

func TestLimitsAtKubesDefaultServerConcurrency(t *testing.T) {
	e := newEnv(t, Options{}, false)
	e.putBootstrap()
	e.start()
	// ServerCL 600 over 245 shares: NominalCL = ceil(600*NCS/245),
	// LendableCL = round(NominalCL*lendable%), BorrowingCL = ServerCL.
	assert.Equal(t, map[string]limits{
		"catch-all": {13, 13, 613}, "exempt": {0, 0, 600}, "global-default": {49, 24, 649},
		"leader-election": {25, 25, 625}, "node-high": {98, 73, 698}, "system": {74, 50, 674},
		"workload-high": {98, 49, 698}, "workload-low": {245, 24, 845},
	}, e.limits())
}

func TestTheMandatoryConfigurationIsInForceBeforeAnythingIsStored(t *testing.T) {
	e := newEnv(t, Options{}, false)
	assert.Equal(t, "catch-all,exempt", e.c.cfg.Load().levelNames())
	fs, pl := e.classifyOf(as(nil, "GET", "/api/v1/namespaces"))
	assert.Equal(t, "catch-all", fs)
	assert.Equal(t, "catch-all", pl)
	fs, pl = e.classifyOf(as(userNamed("admin", authn.SystemPrivilegedGroup), "GET", "/api/v1/namespaces"))
	assert.Equal(t, "exempt", fs)
	assert.Equal(t, "exempt", pl)
}

func TestRequestsAreClassifiedByTheFirstMatchingSchema(t *testing.T) {
	e := newEnv(t, Options{}, false)
	e.putBootstrap()
	e.start()
	for _, tc := range []struct {
		name   string
		r      *http.Request
		fs, pl string
	}{
		{"an anonymous request goes to global-default", as(nil, "GET", "/api/v1/namespaces/default/configmaps"), "global-default", "global-default"},
		{"system:masters is exempt", as(userNamed("admin", "system:masters"), "DELETE", "/api/v1/namespaces/x"), "exempt", "exempt"},
		{"a probe is exempt", as(nil, "GET", "/readyz"), "probes", "exempt"},
		{"a probe's subpath matches too, as in kube", as(nil, "GET", "/livez/ping"), "probes", "exempt"},
		{"a probe is only a GET", as(nil, "POST", "/livez"), "global-default", "global-default"},
		{"a node updating its lease is node-high", as(userNamed("system:node:n1", "system:nodes"), "PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1"), "system-node-high", "node-high"},
		{"a node reading pods is system", as(userNamed("system:node:n1", "system:nodes"), "GET", "/api/v1/pods"), "system-nodes", "system"},
		{"a node's status is node-high", as(userNamed("system:node:n1", "system:nodes"), "PATCH", "/api/v1/nodes/n1/status"), "system-node-high", "node-high"},
		{"the controller manager's lease is leader election", as(userNamed("system:kube-controller-manager"), "PUT", "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kcm"), "system-leader-election", "leader-election"},
		{"the controller manager's other work is workload-high", as(userNamed("system:kube-controller-manager"), "LIST", "/api/v1/pods"), "kube-controller-manager", "workload-high"},
		{"a kube-system service account's lease", as(userNamed("system:serviceaccount:kube-system:ctrl"), "GET", "/apis/coordination.k8s.io/v1/namespaces/ns/leases/l"), "system-leader-election", "leader-election"},
		{"a kube-system service account's work", as(userNamed("system:serviceaccount:kube-system:ctrl"), "GET", "/api/v1/pods"), "kube-system-service-accounts", "workload-high"},
		{"another service account is workload-low", as(userNamed("system:serviceaccount:app:bot", "system:serviceaccounts"), "GET", "/api/v1/pods"), "service-accounts", "workload-low"},
		{"the endpoint controller's endpoints", as(userNamed("system:serviceaccount:kube-system:endpoint-controller"), "PUT", "/api/v1/namespaces/d/endpoints/e"), "endpoint-controller", "workload-high"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, pl := e.classifyOf(tc.r)
			assert.Equal(t, tc.fs, fs)
			assert.Equal(t, tc.pl, pl)
		})
	}
}

func TestASchemaPointingToAMissingLevelIsIgnoredAndSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options{}, true)
		e.start()
		e.client.takeWrites()
		e.put(newFS("alice", "jail", 100, "alice"))
		synctest.Wait()
		fs, pl := e.classifyOf(as(userNamed("alice"), "GET", "/api/v1/pods"))
		assert.Equal(t, "global-default", fs, "the dangling schema is not used")
		assert.Equal(t, "global-default", pl)
		assert.Contains(t, e.client.takeWrites(), "status flowschemas/alice Dangling=True by api-priority-and-fairness-config-consumer-v1")
		cond := e.get("flowschemas", "alice")["status"].(map[string]any)["conditions"].([]any)[0].(map[string]any)
		assert.Equal(t, "NotFound", cond["reason"])
		assert.Equal(t, `This FlowSchema references the PriorityLevelConfiguration object named "jail" but there is no such object`, cond["message"])

		e.put(newPL("jail", map[string]any{"nominalConcurrencyShares": int64(1), "limitResponse": map[string]any{"type": "Reject"}}))
		synctest.Wait()
		fs, pl = e.classifyOf(as(userNamed("alice"), "GET", "/api/v1/pods"))
		assert.Equal(t, "alice", fs)
		assert.Equal(t, "jail", pl)
		cond = e.get("flowschemas", "alice")["status"].(map[string]any)["conditions"].([]any)[0].(map[string]any)
		assert.Equal(t, "False", cond["status"])
		assert.Equal(t, "Found", cond["reason"])
		e.cancel()
	})
}

func TestBrokenConfigurationsAreIgnoredAndTheMandatoryOnesImagined(t *testing.T) {
	e := newEnv(t, Options{}, false)
	e.putBootstrap()
	// What validation refuses can still be in the store (another server,
	// an older version, a direct write).
	e.put(newPL("exempt", map[string]any{"nominalConcurrencyShares": int64(1), "limitResponse": map[string]any{"type": "Reject"}}))
	e.put(newPL("bad-queues", map[string]any{"limitResponse": map[string]any{"type": "Queue",
		"queuing": map[string]any{"queues": int64(4), "handSize": int64(5), "queueLengthLimit": int64(1)}}}))
	e.put(newFS("uses-bad", "bad-queues", 50, "bob"))
	e.put(meta.Object{"apiVersion": Group + "/v1", "kind": "FlowSchema", "metadata": map[string]any{"name": "garbage"},
		"spec": map[string]any{"matchingPrecedence": "high"}})
	e.start()
	cfg := e.c.cfg.Load()
	assert.NotContains(t, cfg.levelNames(), "bad-queues")
	var exempt *levelBinding
	for _, l := range cfg.levels {
		if l.name == "exempt" {
			exempt = l
		}
	}
	require.NotNil(t, exempt)
	assert.True(t, exempt.exempt, "the stored Limited 'exempt' is ignored, the mandatory one imagined")
	fs, _ := e.classifyOf(as(userNamed("bob"), "GET", "/api/v1/pods"))
	assert.Equal(t, "global-default", fs)
}

func TestALevelBeingDeletedDrainsBeforeItGoes(t *testing.T) {
	e := newEnv(t, Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2}, false)
	e.putBootstrap()
	e.put(newPL("jail", map[string]any{"nominalConcurrencyShares": int64(100), "limitResponse": map[string]any{"type": "Reject"}}))
	e.put(newFS("alice", "jail", 100, "alice"))
	e.start()
	var lvl *level
	for _, l := range e.c.cfg.Load().levels {
		if l.name == "jail" {
			lvl = l.level
		}
	}
	req, executing := lvl.qs.StartRequest(workOne, 0, descrNone)
	require.True(t, executing)
	e.del("prioritylevelconfigurations", "jail")
	pls, fss, _, err := e.c.list(t.Context())
	require.NoError(t, err)
	e.c.apply(t.Context(), pls, fss)
	assert.True(t, lvl.quiescing.Load())
	assert.Contains(t, e.c.cfg.Load().levelNames(), "jail", "busy: it stays")
	req.Finish()
	e.c.apply(t.Context(), pls, fss)
	assert.NotContains(t, e.c.cfg.Load().levelNames(), "jail", "idle: it goes")
}
