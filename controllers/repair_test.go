package controllers_test

import (
	"context"
	"encoding/base64"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

const nodePortsKey = "/ranges/servicenodeports"

// setNodePorts stores the node port RangeAllocation marking ports.
func setNodePorts(t *testing.T, st store.Store, ports ...int) {
	t.Helper()
	bits := new(big.Int)
	for _, p := range ports {
		bits.SetBit(bits, p-30000, 1)
	}
	_, err := st.Update(t.Context(), nodePortsKey, store.UpdateOptions{AllowCreate: true}, func(*store.Object) (meta.Object, error) {
		return meta.Object{"apiVersion": "v1", "kind": "RangeAllocation", "metadata": map[string]any{},
			"range": "30000-32767", "data": base64.StdEncoding.EncodeToString(bits.Bytes())}, nil
	})
	require.NoError(t, err)
}

// nodePortsMarked reads the ports the RangeAllocation marks.
func nodePortsMarked(t *testing.T, st store.Store) []int {
	t.Helper()
	rec, err := st.Get(context.Background(), nodePortsKey)
	require.NoError(t, err)
	data, err := base64.StdEncoding.DecodeString(rec.Data()["data"].(string))
	require.NoError(t, err)
	bits := new(big.Int).SetBytes(data)
	var out []int
	for i := range bits.BitLen() {
		if bits.Bit(i) == 1 {
			out = append(out, 30000+i)
		}
	}
	return out
}

// startRepair runs the service-repair controller alone on a server over
// st holding a Service with node port 30010 the record lacks and a port,
// 30005, no Service holds.
func startRepair(t *testing.T, interval time.Duration) (store.Store, *controllers.Manager) {
	t.Helper()
	st := memory.New(memory.Config{})
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Store: st})
	require.NoError(t, err)
	code, _, err := srv.Do(t.Context(), "POST", "/api/v1/namespaces/default/services",
		[]byte(`{"metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30010}]}}`))
	require.NoError(t, err)
	require.Equal(t, 201, code)
	setNodePorts(t, st, 30005)
	ctx, cancel := context.WithCancel(context.Background())
	m, err := controllers.Start(ctx, srv, controllers.Options{Controllers: []string{controllers.ServiceRepair}, RepairInterval: interval})
	require.NoError(t, err)
	t.Cleanup(func() {
		cancel()
		select {
		case <-m.Done():
		case <-time.After(time.Minute):
			t.Error("the repair loop did not end")
		}
	})
	return st, m
}

func TestServiceRepairRunsOnceBeforeStartReturns(t *testing.T) {
	st, m := startRepair(t, time.Hour)
	assert.Equal(t, []string{controllers.ServiceRepair}, m.Running())
	assert.Equal(t, []int{30005, 30010}, nodePortsMarked(t, st),
		"the Service's port is marked; the leaked one stays until two more passes")
}

func TestServiceRepairFreesALeakedPortAfterTwoMoreIntervals(t *testing.T) {
	st, _ := startRepair(t, 5*time.Millisecond)
	require.Eventually(t, func() bool {
		marked := nodePortsMarked(t, st)
		return len(marked) == 1 && marked[0] == 30010
	}, 10*time.Second, time.Millisecond, "30005 is freed and 30010 stays")
}
