package builtin_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// leakedRecord is the RangeAllocation a server that stopped between taking
// ports and storing its Service leaves: the ports marked, no Service.
func leakedRecord(t *testing.T, st store.Store, spec string, base int, ports ...int) {
	t.Helper()
	bits := new(big.Int)
	for _, p := range ports {
		bits.SetBit(bits, p-base, 1)
	}
	_, err := st.Update(t.Context(), nodePortsKey, store.UpdateOptions{AllowCreate: true}, func(*store.Object) (meta.Object, error) {
		return meta.Object{"apiVersion": "v1", "kind": "RangeAllocation", "metadata": map[string]any{},
			"range": spec, "data": base64.StdEncoding.EncodeToString(bits.Bytes())}, nil
	})
	require.NoError(t, err)
}

func nodePortBody(name string, port int) string {
	return fmt.Sprintf(`{"metadata":{"name":%q},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":%d}]}}`, name, port)
}

// repairEvents are the reasons and notes of the repair's events.
func repairEvents(t *testing.T, h http.Handler) []map[string]any {
	t.Helper()
	code, list := serve(t, h, "GET", "/apis/events.k8s.io/v1/events?fieldSelector=reportingController%3Dportallocator-repair-controller", "", "")
	require.Equal(t, http.StatusOK, code, list)
	var out []map[string]any
	for _, it := range list["items"].([]any) {
		out = append(out, it.(map[string]any))
	}
	return out
}

func TestNodePortRepairFreesALeakedPortOnTheThirdPassThatSeesIt(t *testing.T) {
	st := memory.New(memory.Config{})
	leakedRecord(t, st, "30000-32767", 30000, 30005)
	srv := newClusterServerOn(t, builtin.Options{}, st)
	for pass := 1; pass <= 2; pass++ {
		require.NoError(t, srv.Repair(t.Context()))
		code, out := serve(t, srv, "POST", services, "application/json", nodePortBody("s", 30005))
		require.Equal(t, http.StatusUnprocessableEntity, code, "after pass %d the port is still taken: %v", pass, out)
		assert.Equal(t, []int{30005}, takenNodePorts(t, st, 30000))
	}
	require.NoError(t, srv.Repair(t.Context()))
	assert.Empty(t, takenNodePorts(t, st, 30000), "the third pass freed it")
	code, out := serve(t, srv, "POST", services, "application/json", nodePortBody("s", 30005))
	require.Equal(t, http.StatusCreated, code, out)
	assert.Empty(t, repairEvents(t, srv), "kube reports a leak in its log only")
	assert.Equal(t, []string{
		`apiserver_nodeport_repair_port_errors_total{type="leak"} 1`,
		`apiserver_nodeport_repair_reconcile_errors_total 0`,
	}, repairMetrics(t, srv), "and counts it")
}

// repairMetrics are the samples of kube's node port repair families.
func repairMetrics(t *testing.T, srv *apiserver.Server) []string {
	t.Helper()
	var buf strings.Builder
	require.NoError(t, srv.Metrics().WriteText(&buf))
	var out []string
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.HasPrefix(line, "apiserver_nodeport_repair_") {
			out = append(out, line)
		}
	}
	return out
}

func TestNodePortRepairMarksAPortAServiceHoldsAndTellsTheService(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newClusterServerOn(t, builtin.Options{}, st)
	code, out := serve(t, srv, "POST", services, "application/json", nodePortBody("a", 30010))
	require.Equal(t, http.StatusCreated, code, out)
	uid, rv := out["metadata"].(map[string]any)["uid"], out["metadata"].(map[string]any)["resourceVersion"]
	leakedRecord(t, st, "30000-32767", 30000) // lost, as a record rewritten by a server of another range

	require.NoError(t, srv.Repair(t.Context()))
	assert.Equal(t, []int{30010}, takenNodePorts(t, st, 30000))
	code, out = serve(t, srv, "POST", services, "application/json", nodePortBody("b", 30010))
	require.Equal(t, http.StatusUnprocessableEntity, code, out)

	events := repairEvents(t, srv)
	require.Len(t, events, 1)
	ev := events[0]
	assert.Regexp(t, `^a\.[0-9a-f]+$`, ev["metadata"].(map[string]any)["name"])
	assert.Equal(t, "default", ev["metadata"].(map[string]any)["namespace"])
	assert.Equal(t, "Warning", ev["type"])
	assert.Equal(t, "PortAllocation", ev["action"])
	assert.Equal(t, "PortNotAllocated", ev["reason"])
	assert.Equal(t, "Port 30010 is not allocated; repairing", ev["note"])
	assert.Regexp(t, `^portallocator-repair-controller-`, ev["reportingInstance"])
	assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$`, ev["eventTime"])
	assert.Equal(t, map[string]any{"apiVersion": "v1", "kind": "Service", "namespace": "default", "name": "a",
		"uid": uid, "resourceVersion": rv}, ev["regarding"])
}

func TestNodePortRepairReportsAPortTwoServicesHoldAsKubesSeriesCountIt(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newClusterServerOn(t, builtin.Options{}, st)
	code, out := serve(t, srv, "POST", services, "application/json", nodePortBody("a", 30010))
	require.Equal(t, http.StatusCreated, code, out)
	// a copy stored behind the server's back, as kube's test of the
	// repair does through etcd
	a, err := st.Get(t.Context(), "/services/default/a")
	require.NoError(t, err)
	dup := a.Data().DeepCopy()
	dup["metadata"].(map[string]any)["name"] = "b"
	dup["metadata"].(map[string]any)["uid"] = "b-uid"
	_, err = st.Create(t.Context(), "/services/default/b", dup)
	require.NoError(t, err)

	for range 3 {
		require.NoError(t, srv.Repair(t.Context()))
	}
	assert.Equal(t, []int{30010}, takenNodePorts(t, st, 30000), "the port stays taken")
	events := repairEvents(t, srv)
	require.Len(t, events, 1, "one event, counted in a series")
	assert.Equal(t, "PortAlreadyAllocated", events[0]["reason"])
	assert.Equal(t, "Port 30010 was assigned to multiple services; please recreate service", events[0]["note"])
	assert.Equal(t, "b", events[0]["regarding"].(map[string]any)["name"])
	series, _ := events[0]["series"].(map[string]any)
	require.NotNil(t, series, "the second pass wrote the series")
	assert.Equal(t, float64(2), series["count"], "later passes count in memory, as kube's recorder")
	assert.Contains(t, repairMetrics(t, srv), `apiserver_nodeport_repair_port_errors_total{type="duplicate"} 3`)
}

func TestNodePortRepairOfAPortOutsideTheRangeTellsTheService(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newClusterServerOn(t, builtin.Options{ServiceNodePortRange: "30000-30099"}, st)
	code, out := serve(t, srv, "POST", services, "application/json", nodePortBody("a", 30050))
	require.Equal(t, http.StatusCreated, code, out)
	// the same store served with a narrower range
	narrow := newClusterServerOn(t, builtin.Options{ServiceNodePortRange: "30000-30009"}, st)
	require.NoError(t, narrow.Repair(t.Context()))

	rec, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)
	assert.Equal(t, "30000-30009", rec.Data()["range"], "the record is rebuilt in the repairing server's range")
	events := repairEvents(t, narrow)
	require.Len(t, events, 1)
	assert.Equal(t, "PortOutOfRange", events[0]["reason"])
	assert.Equal(t, "Port 30050 is not within the port range 30000-30009; please recreate service", events[0]["note"])
}

// racingStore writes the node port record once, between a repair's read
// of it and its compare and swap (when the repair lists Services), as a
// write of another server would.
type racingStore struct {
	store.Store
	armed atomic.Bool
	t     *testing.T
}

func (s *racingStore) List(ctx context.Context, prefix string, opts store.ListOptions) (store.ListResult, error) {
	if prefix == "/services/" && s.armed.CompareAndSwap(true, false) {
		leakedRecord(s.t, s.Store, "30000-32767", 30000, 30005, 30020)
	}
	return s.Store.List(ctx, prefix, opts)
}

func TestNodePortRepairStartsAgainWhenTheRecordChangesUnderIt(t *testing.T) {
	st := &racingStore{Store: memory.New(memory.Config{}), t: t}
	leakedRecord(t, st.Store, "30000-32767", 30000, 30005)
	srv := newClusterServerOn(t, builtin.Options{}, st)
	require.NoError(t, srv.Repair(t.Context()))
	st.armed.Store(true)
	require.NoError(t, srv.Repair(t.Context()))
	assert.False(t, st.armed.Load(), "the record changed during the pass")
	assert.Equal(t, []int{30005, 30020}, takenNodePorts(t, st, 30000), "the port taken meanwhile is kept")

	require.NoError(t, srv.Repair(t.Context()))
	assert.Equal(t, []int{30020}, takenNodePorts(t, st, 30000),
		"30005 went on the third pass that saw it (the retried pass counted once); 30020 was seen twice")
	require.NoError(t, srv.Repair(t.Context()))
	assert.Empty(t, takenNodePorts(t, st, 30000))
}

// slowServiceWrites takes a millisecond to validate a Service write.
type slowServiceWrites struct{}

func (slowServiceWrites) Validate(_ context.Context, req *apiserver.AdmissionRequest) error {
	if req.Resource.Resource == "services" && req.Subresource == "" {
		time.Sleep(time.Millisecond)
	}
	return nil
}

// TestNodePortRepairBesideWritesNeverFreesAHeldPort runs repair passes
// back to back (no interval at all) while Services with node ports are
// created, changed and deleted: the ports this server's writes in flight
// hold are never counted leaked, so no stored Services ever share a port
// and every port a Service holds stays marked.
func TestNodePortRepairBesideWritesNeverFreesAHeldPort(t *testing.T) {
	st := memory.New(memory.Config{})
	o := builtin.Options{ServiceNodePortRange: "30000-30049"}
	rs, err := builtin.ResourcesWith(apiserver.DefaultRelease, o)
	require.NoError(t, err)
	hooks, err := builtin.PostStartHooks(o)
	require.NoError(t, err)
	// Validation runs between a write's allocation and its store write:
	// slowed down, several passes run while a write holds its ports.
	srv, err := apiserver.New(apiserver.Config{Resources: rs, OpenAPIComponents: builtin.OpenAPIComponents(),
		PostStartHooks: hooks, Store: st, Admission: []any{slowServiceWrites{}}})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	var repairs sync.WaitGroup
	repairs.Add(1)
	passes := 0
	go func() {
		defer repairs.Done()
		for ctx.Err() == nil {
			if err := srv.Repair(ctx); err == nil {
				passes++
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				name := fmt.Sprintf("s-%d-%d", w, i%4)
				switch i % 3 {
				case 0:
					serve(t, srv, "POST", services, "application/json",
						fmt.Sprintf(`{"metadata":{"name":%q},"spec":{"type":"NodePort","ports":[{"port":80}]}}`, name))
				case 1:
					serve(t, srv, "PATCH", services+"/"+name, "application/merge-patch+json",
						`{"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":null},{"port":81}]}}`)
				case 2:
					serve(t, srv, "DELETE", services+"/"+name, "", "")
				}
			}
		}()
	}
	wg.Wait()
	cancel()
	repairs.Wait()
	require.Greater(t, passes, 3)

	page, err := st.List(t.Context(), "/services/", store.ListOptions{})
	require.NoError(t, err)
	holder := map[int]string{}
	for _, o := range page.Items {
		for _, e := range o.Data()["spec"].(map[string]any)["ports"].([]any) {
			np, ok := meta.AsInt64(e.(map[string]any)["nodePort"])
			if !ok || np == 0 {
				continue
			}
			require.NotContains(t, holder, int(np), "port %d given to %s and %s", np, holder[int(np)], o.Data().Name())
			holder[int(np)] = o.Data().Name()
		}
	}
	taken := map[int]bool{}
	for _, p := range takenNodePorts(t, st, 30000) {
		taken[p] = true
	}
	for p, name := range holder {
		assert.True(t, taken[p], "port %d of %s is marked", p, name)
	}
	for _, ev := range repairEvents(t, srv) {
		t.Errorf("the repair found %s: %s", ev["reason"], ev["note"])
	}
}

func TestNodePortRepairOfARecordItCannotReadFailsAndIsCounted(t *testing.T) {
	st := memory.New(memory.Config{})
	_, err := st.Create(t.Context(), nodePortsKey, meta.Object{"apiVersion": "v1", "kind": "RangeAllocation",
		"metadata": map[string]any{}, "range": "30000-32767", "data": "not base64!"})
	require.NoError(t, err)
	srv := newClusterServerOn(t, builtin.Options{}, st)
	before, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)

	require.ErrorContains(t, srv.Repair(t.Context()), "unable to rebuild allocator from snapshot")
	after, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)
	assert.Equal(t, before.Revision(), after.Revision(), "the record is left as it was")
	assert.Equal(t, []string{`apiserver_nodeport_repair_reconcile_errors_total 1`}, repairMetrics(t, srv))
}
