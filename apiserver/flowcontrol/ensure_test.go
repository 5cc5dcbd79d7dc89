//go:build go1.25

package flowcontrol

import (
	"bytes"
	"context"
	"net/http"
	"sort"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/flowcontrol/fairqueue"
)

func TestStartCreatesTheBootstrapObjectsAndTheirStatus(t *testing.T) {
	e := newEnv(t, Options{}, true)
	e.start()
	writes := e.client.takeWrites()
	sort.Strings(writes)
	var creates, statuses []string
	for _, w := range writes {
		switch {
		case strings.HasPrefix(w, "create "):
			creates = append(creates, w)
			assert.True(t, strings.HasSuffix(w, " by api-priority-and-fairness-config-producer-v1"), w)
		case strings.HasPrefix(w, "status "):
			statuses = append(statuses, w)
			assert.Contains(t, w, "Dangling=False by api-priority-and-fairness-config-consumer-v1")
		default:
			t.Errorf("unexpected write %s", w)
		}
	}
	assert.Len(t, creates, 8+13)
	assert.Len(t, statuses, 13)
	assert.Equal(t, "catch-all,exempt,global-default,leader-election,node-high,system,workload-high,workload-low", e.c.cfg.Load().levelNames())
	assert.Len(t, e.c.cfg.Load().schemas, 13)
}

func TestTheBootstrapObjectsAreKeptInPlace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options{}, true)
		e.start()
		e.client.takeWrites()

		// A deleted mandatory object is created again.
		e.del("prioritylevelconfigurations", "catch-all")
		synctest.Wait()
		assert.Contains(t, e.client.takeWrites(), "create prioritylevelconfigurations/catch-all by api-priority-and-fairness-config-producer-v1")
		require.NotNil(t, e.get("prioritylevelconfigurations", "catch-all"))

		// A mandatory spec changed behind the server's back is restored.
		cur := e.get("flowschemas", "catch-all").DeepCopy()
		cur["spec"].(map[string]any)["matchingPrecedence"] = int64(9999)
		e.put(cur)
		synctest.Wait()
		assert.Contains(t, e.client.takeWrites(), "update flowschemas/catch-all by api-priority-and-fairness-config-producer-v1")
		assert.Equal(t, int64(10000), e.get("flowschemas", "catch-all")["spec"].(map[string]any)["matchingPrecedence"])

		// The exempt level's spec.exempt is the administrator's.
		ex := e.get("prioritylevelconfigurations", "exempt").DeepCopy()
		ex["spec"].(map[string]any)["exempt"].(map[string]any)["nominalConcurrencyShares"] = int64(10)
		e.put(ex)
		synctest.Wait()
		assert.Empty(t, e.client.takeWrites())

		// A suggested object the administrator opted out of is left alone.
		gd := e.get("prioritylevelconfigurations", "global-default").DeepCopy()
		gd["metadata"].(map[string]any)["annotations"] = map[string]any{AutoUpdateAnnotationKey: "false"}
		gd["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"] = int64(99)
		e.put(gd)
		synctest.Wait()
		assert.Empty(t, e.client.takeWrites())

		// A suggested object still opted in gets the bootstrap spec back.
		wl := e.get("prioritylevelconfigurations", "workload-low").DeepCopy()
		wl["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"] = int64(1)
		e.put(wl)
		synctest.Wait()
		assert.Equal(t, []string{"update prioritylevelconfigurations/workload-low by api-priority-and-fairness-config-producer-v1"}, e.client.takeWrites())

		// A deleted suggested object is created again too.
		e.del("flowschemas", "probes")
		synctest.Wait()
		w := e.client.takeWrites()
		assert.Contains(t, w, "create flowschemas/probes by api-priority-and-fairness-config-producer-v1")

		// An object annotated for auto-update that is no longer part of
		// the bootstrap configuration is deleted.
		old := newPL("retired", map[string]any{"nominalConcurrencyShares": int64(1), "limitResponse": map[string]any{"type": "Reject"}})
		old["metadata"].(map[string]any)["annotations"] = map[string]any{AutoUpdateAnnotationKey: "true"}
		e.put(old)
		synctest.Wait()
		assert.Contains(t, e.client.takeWrites(), "delete prioritylevelconfigurations/retired")
		assert.Nil(t, e.get("prioritylevelconfigurations", "retired"))
		e.cancel()
	})
}

func TestASuggestedObjectChangedWithoutTheAnnotationIsLeftAloneAndMarked(t *testing.T) {
	e := newEnv(t, Options{}, true)
	e.putBootstrap()
	sys := e.get("prioritylevelconfigurations", "system").DeepCopy()
	delete(sys["metadata"].(map[string]any), "annotations")
	sys["metadata"].(map[string]any)["generation"] = int64(2)
	sys["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"] = int64(7)
	e.put(sys)
	fresh := e.get("prioritylevelconfigurations", "node-high").DeepCopy()
	delete(fresh["metadata"].(map[string]any), "annotations")
	fresh["metadata"].(map[string]any)["generation"] = int64(1)
	fresh["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"] = int64(7)
	e.put(fresh)
	e.start()
	got := e.get("prioritylevelconfigurations", "system")
	assert.Equal(t, map[string]string{AutoUpdateAnnotationKey: "false"}, got.Annotations())
	assert.Equal(t, int64(7), got["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"])
	got = e.get("prioritylevelconfigurations", "node-high")
	assert.Equal(t, map[string]string{AutoUpdateAnnotationKey: "true"}, got.Annotations())
	assert.Equal(t, int64(40), got["spec"].(map[string]any)["limited"].(map[string]any)["nominalConcurrencyShares"])
}

func TestABusyLevelBorrowsTheSeatsOthersLend(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, Options{MaxRequestsInFlight: 10, MaxMutatingRequestsInFlight: 10}, false)
		e.put(newPL("busy", map[string]any{"nominalConcurrencyShares": int64(10), "lendablePercent": int64(0),
			"limitResponse": map[string]any{"type": "Queue", "queuing": map[string]any{"queues": int64(1), "handSize": int64(1), "queueLengthLimit": int64(100)}}}))
		e.put(newPL("idle", map[string]any{"nominalConcurrencyShares": int64(10), "lendablePercent": int64(100),
			"limitResponse": map[string]any{"type": "Reject"}}))
		e.start()
		l := map[string]*level{}
		e.c.mu.Lock()
		for n, lv := range e.c.levels {
			l[n] = lv
		}
		e.c.mu.Unlock()
		// 20 seats: catch-all 5, busy 10, idle 10 shares -> 4, 8, 8.
		assert.Equal(t, limits{8, 8, 28}, e.limits()["busy"])
		assert.Equal(t, limits{8, 0, 28}, e.limits()["idle"])
		current := func() (busy, idle, catchAll int) {
			e.c.mu.Lock()
			defer e.c.mu.Unlock()
			return l["busy"].currentCL, l["idle"].currentCL, l["catch-all"].currentCL
		}
		// Without demand yet, the seats idle lends go to the others by
		// their targets (their lower bounds): 20 = 8p + 4p.
		busy, idle, catchAll := current()
		assert.Equal(t, []int{13, 0, 7}, []int{busy, idle, catchAll})
		var reqs []*fairqueue.Request
		for range 30 {
			r, _ := l["busy"].qs.StartRequest(workOne, 0, descrNone)
			reqs = append(reqs, r)
		}
		assert.Equal(t, 13, l["busy"].qs.Dump().Executing)
		time.Sleep(borrowingAdjustmentPeriod)
		synctest.Wait()
		// Busy's smoothed demand is 30 seats, catch-all's none: catch-all
		// keeps its lower bound of 4, busy takes the other 16.
		busy, idle, catchAll = current()
		assert.Equal(t, []int{16, 0, 4}, []int{busy, idle, catchAll})
		assert.Equal(t, 16, l["busy"].qs.Dump().Executing)
		for _, r := range reqs {
			r.Wait(context.Background())
			r.Finish()
		}
		e.cancel()
	})
}

func TestMetricsUseKubesNamesAndLabels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := jailEnv(t, rejectResponse)
		b := newBlocking()
		h := e.c.Filter(b)
		go h.ServeHTTP(discard{}, as(userNamed("alice"), "GET", "/api/v1/pods"))
		<-b.entered
		h.ServeHTTP(discard{}, as(userNamed("alice"), "GET", "/api/v1/pods"))
		close(b.release)
		synctest.Wait()
		var buf bytes.Buffer
		require.NoError(t, e.c.WritePrometheus(&buf))
		out := buf.String()
		for _, line := range []string{
			"# HELP apiserver_flowcontrol_dispatched_requests_total [BETA] Number of requests executed by API Priority and Fairness subsystem",
			"# TYPE apiserver_flowcontrol_dispatched_requests_total counter",
			`apiserver_flowcontrol_dispatched_requests_total{flow_schema="alice",priority_level="jail"} 1`,
			`apiserver_flowcontrol_rejected_requests_total{flow_schema="alice",priority_level="jail",reason="concurrency-limit"} 1`,
			`apiserver_flowcontrol_current_executing_requests{flow_schema="alice",priority_level="jail"} 0`,
			`apiserver_flowcontrol_nominal_limit_seats{priority_level="jail"} 1`,
			`apiserver_flowcontrol_lower_limit_seats{priority_level="workload-low"} 0`,
			`apiserver_flowcontrol_upper_limit_seats{priority_level="exempt"} 4`,
			`apiserver_flowcontrol_current_limit_seats{priority_level="jail"} 1`,
			`apiserver_flowcontrol_request_wait_duration_seconds_bucket{execute="true",flow_schema="alice",priority_level="jail",le="0.005"} 1`,
			`apiserver_flowcontrol_request_wait_duration_seconds_count{execute="false",flow_schema="alice",priority_level="jail"} 1`,
			`apiserver_flowcontrol_work_estimated_seats_bucket{flow_schema="alice",priority_level="jail",le="+Inf"} 2`,
			"# TYPE apiserver_flowcontrol_seat_fair_frac gauge",
		} {
			assert.Contains(t, out, line+"\n")
		}
		assert.NotContains(t, out, "request_dispatch_no_accommodation_total", "families without series are left out")
		e.cancel()
	})
}

type discard struct{}

func (discard) Header() http.Header         { return http.Header{} }
func (discard) Write(b []byte) (int, error) { return len(b), nil }
func (discard) WriteHeader(int)             {}
