package builtin_test

import (
	"encoding/base64"
	"fmt"
	"math/big"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// nodePortsKey is where node ports are kept: kube's RangeAllocation, which
// store/etcd keeps at /registry/ranges/servicenodeports.
const nodePortsKey = "/ranges/servicenodeports"

// takenNodePorts reads the ports the stored RangeAllocation marks taken.
func takenNodePorts(t *testing.T, st store.Store, base int) []int {
	t.Helper()
	rec, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)
	data, err := base64.StdEncoding.DecodeString(rec.Data()["data"].(string))
	require.NoError(t, err)
	bits := new(big.Int).SetBytes(data)
	var out []int
	for i := 0; i < bits.BitLen(); i++ {
		if bits.Bit(i) == 1 {
			out = append(out, base+i)
		}
	}
	return out
}

func nodePortOf(out map[string]any) int {
	return int(spec(out)["ports"].([]any)[0].(map[string]any)["nodePort"].(float64))
}

func TestNodePortsAreKeptInKubesRangeAllocation(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newClusterServerOn(t, builtin.Options{}, st)
	code, out := serve(t, srv, "POST", services, "application/json",
		`{"metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30123}]}}`)
	require.Equal(t, http.StatusCreated, code, out)

	rec, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)
	port30123 := make([]byte, 16)
	port30123[0] = 0x08 // bit 123 of a big integer's big-endian bytes, as kube-apiserver stored it
	assert.Equal(t, "RangeAllocation", rec.Data().Kind())
	assert.Equal(t, "v1", rec.Data().APIVersion())
	assert.Equal(t, "30000-32767", rec.Data()["range"])
	assert.Equal(t, base64.StdEncoding.EncodeToString(port30123), rec.Data()["data"])

	code, out = serve(t, srv, "DELETE", services+"/a", "", "")
	require.Equal(t, http.StatusOK, code, out)
	assert.Empty(t, takenNodePorts(t, st, 30000), "the delete gave the port back")
}

func TestNodePortsTakenInTheStoreAreRefused(t *testing.T) {
	cases := []struct {
		name, body, message string
	}{
		{"a node port asked for",
			`{"metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30123}]}}`,
			`Service "s" is invalid: spec.ports[0].nodePort: Invalid value: 30123: provided port is already allocated`},
		{"a health check node port asked for",
			`{"metadata":{"name":"s"},"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","healthCheckNodePort":30123,"ports":[{"port":80}]}}`,
			`failed to allocate requested HealthCheck NodePort 30123: provided port is already allocated`},
		{"a node port asked for by a dry run",
			`{"metadata":{"name":"s"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30123}]}}`,
			`Service "s" is invalid: spec.ports[0].nodePort: Invalid value: 30123: provided port is already allocated`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// as kube-apiserver on the same etcd would have left it
			port30123 := make([]byte, 16)
			port30123[0] = 0x08
			st := memory.New(memory.Config{})
			_, err := st.Create(t.Context(), nodePortsKey, meta.Object{"apiVersion": "v1", "kind": "RangeAllocation",
				"metadata": map[string]any{}, "range": "30000-32767", "data": base64.StdEncoding.EncodeToString(port30123)})
			require.NoError(t, err)
			srv := newClusterServerOn(t, builtin.Options{}, st)
			path := services
			if c.name == "a node port asked for by a dry run" {
				path += "?dryRun=All"
			}
			code, out := serve(t, srv, "POST", path, "application/json", c.body)
			assert.NotEqual(t, http.StatusCreated, code)
			assert.Contains(t, out["message"], c.message)
			assert.Equal(t, []int{30123}, takenNodePorts(t, st, 30000), "the failed write took nothing")
		})
	}
}

func TestNodePortDryRunsTakeNothing(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newClusterServerOn(t, builtin.Options{}, st)
	code, out := serve(t, srv, "POST", services, "application/json",
		`{"metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30500}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	before, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)

	for _, body := range []string{
		`{"metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`,
		`{"metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30501}]}}`,
		`{"metadata":{"name":"b"},"spec":{"type":"LoadBalancer","externalTrafficPolicy":"Local","ports":[{"port":80}]}}`,
	} {
		code, out := serve(t, srv, "POST", services+"?dryRun=All", "application/json", body)
		require.Equal(t, http.StatusCreated, code, out)
	}
	code, out = serve(t, srv, "DELETE", services+"/a?dryRun=All", "", "")
	require.Equal(t, http.StatusOK, code, out)
	code, out = serve(t, srv, "PATCH", services+"/a?dryRun=All", "application/merge-patch+json",
		`{"spec":{"type":"ClusterIP","ports":[{"port":80,"nodePort":null}]}}`)
	require.Equal(t, http.StatusOK, code, out)

	after, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)
	assert.Equal(t, before.Revision(), after.Revision(), "no dry run wrote the RangeAllocation")
	assert.Equal(t, []int{30500}, takenNodePorts(t, st, 30000))
}

// TestServersSharingAStoreNeverGiveOneNodePortTwice: Services created at
// once through two servers on one store get distinct node ports, and of
// the writers asking for the same port exactly one wins, whichever
// server it asked.
func TestServersSharingAStoreNeverGiveOneNodePortTwice(t *testing.T) {
	st := memory.New(memory.Config{})
	o := builtin.Options{ServiceNodePortRange: "30000-30199"}
	srvs := []http.Handler{newClusterServerOn(t, o, st), newClusterServerOn(t, o, st)}
	const n = 120
	var wg sync.WaitGroup
	codes := make([]int, n)
	outs := make([]map[string]any, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(`{"metadata":{"name":"s%d"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`, i)
			if i%10 == 0 {
				body = fmt.Sprintf(`{"metadata":{"name":"s%d"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30003}]}}`, i)
			}
			codes[i], outs[i] = serveNoT(srvs[i%2], "POST", services, "application/json", body)
		}()
	}
	wg.Wait()
	given := map[int]string{}
	won := 0
	for i := 0; i < n; i++ {
		if i%10 == 0 && codes[i] != http.StatusCreated {
			assert.Equal(t, http.StatusUnprocessableEntity, codes[i], outs[i])
			assert.Equal(t, fmt.Sprintf(`Service "s%d" is invalid: spec.ports[0].nodePort: Invalid value: 30003: provided port is already allocated`, i),
				outs[i]["message"])
			continue
		}
		require.Equal(t, http.StatusCreated, codes[i], outs[i])
		if i%10 == 0 {
			won++
		}
		port := nodePortOf(outs[i])
		assert.Empty(t, given[port], "node port %d given to s%d and %s", port, i, given[port])
		given[port] = fmt.Sprintf("s%d", i)
	}
	assert.Equal(t, 1, won, "one of the writers asking for 30003 wins")
	assert.Len(t, takenNodePorts(t, st, 30000), len(given), "the RangeAllocation holds exactly the ports given")
}

// TestAServerMarksTheStoredServicesNodePortsOnItsFirstNodePortWrite: a
// store whose Services hold node ports the RangeAllocation lacks (written
// before it existed) is repaired before the server gives a port.
func TestAServerMarksTheStoredServicesNodePortsOnItsFirstNodePortWrite(t *testing.T) {
	cases := []struct {
		name   string
		record func(t *testing.T, st store.Store)
	}{
		{"when the store holds no RangeAllocation", func(t *testing.T, st store.Store) {
			_, err := st.Delete(t.Context(), nodePortsKey, store.Preconditions{}, nil)
			require.NoError(t, err)
		}},
		{"when the RangeAllocation is of another range", func(t *testing.T, st store.Store) {
			_, err := st.Update(t.Context(), nodePortsKey, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
				next := cur.Data().DeepCopy()
				next["range"] = "20000-20099"
				return next, nil
			})
			require.NoError(t, err)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := memory.New(memory.Config{})
			first := newClusterServerOn(t, builtin.Options{}, st)
			code, out := serve(t, first, "POST", services, "application/json",
				`{"metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30400}]}}`)
			require.Equal(t, http.StatusCreated, code, out)
			c.record(t, st)

			srv := newClusterServerOn(t, builtin.Options{}, st)
			code, out = serve(t, srv, "POST", services, "application/json",
				`{"metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30400}]}}`)
			assert.Equal(t, http.StatusUnprocessableEntity, code, out)
			assert.Equal(t, `Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30400: provided port is already allocated`, out["message"])
			code, out = serve(t, srv, "POST", services, "application/json",
				`{"metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30401}]}}`)
			require.Equal(t, http.StatusCreated, code, out)
			assert.Equal(t, []int{30400, 30401}, takenNodePorts(t, st, 30000), "the repair is stored with the first port given")
		})
	}
}

// TestFreeNodePortsComeFromAboveTheStaticBandFirst replays what
// kube-apiserver 1.33 gave with --service-node-port-range=30000-30099
// (docs/kube-behaviour/13-node-ports.md): the first 84 Services asking for
// no port got ports from 30016 up, the next ones ports below 30016.
func TestFreeNodePortsComeFromAboveTheStaticBandFirst(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{ServiceNodePortRange: "30000-30099"})
	given := map[int]bool{}
	for i := 0; i < 86; i++ {
		code, out := serve(t, srv, "POST", services, "application/json",
			fmt.Sprintf(`{"metadata":{"name":"s%d"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`, i))
		require.Equal(t, http.StatusCreated, code, out)
		port := nodePortOf(out)
		if i < 84 {
			assert.GreaterOrEqual(t, port, 30016, "s%d", i)
		} else {
			assert.Less(t, port, 30016, "s%d, once the ports above the band are taken", i)
		}
		given[port] = true
	}
	static := 30000
	for given[static] {
		static++
	}
	code, out := serve(t, srv, "POST", services, "application/json",
		fmt.Sprintf(`{"metadata":{"name":"static"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":%d}]}}`, static))
	require.Equal(t, http.StatusCreated, code, "a free port of the static band is given to whoever names it: %v", out)
}

// TestAServerRefusesNodePortsWhileTheRecordIsOfAnotherRange: once it has
// repaired the record, a server does not overwrite another server's range.
func TestAServerRefusesNodePortsWhileTheRecordIsOfAnotherRange(t *testing.T) {
	st := memory.New(memory.Config{})
	srv := newClusterServerOn(t, builtin.Options{}, st)
	code, out := serve(t, srv, "POST", services, "application/json",
		`{"metadata":{"name":"a"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`)
	require.Equal(t, http.StatusCreated, code, out)
	other, err := st.Update(t.Context(), nodePortsKey, store.UpdateOptions{}, func(cur *store.Object) (meta.Object, error) {
		next := cur.Data().DeepCopy()
		next["range"] = "20000-20099"
		return next, nil
	})
	require.NoError(t, err)

	code, out = serve(t, srv, "POST", services, "application/json",
		`{"metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80}]}}`)
	assert.Equal(t, http.StatusInternalServerError, code)
	assert.Equal(t, "Internal error occurred: failed to allocate a nodePort: the provided port range does not match the current port range", out["message"])
	code, out = serve(t, srv, "POST", services, "application/json",
		`{"metadata":{"name":"b"},"spec":{"type":"NodePort","ports":[{"port":80,"nodePort":30001}]}}`)
	assert.Equal(t, http.StatusUnprocessableEntity, code)
	assert.Equal(t, `Service "b" is invalid: spec.ports[0].nodePort: Invalid value: 30001: the provided port range does not match the current port range`, out["message"])
	code, out = serve(t, srv, "DELETE", services+"/a", "", "")
	require.Equal(t, http.StatusOK, code, out)

	rec, err := st.Get(t.Context(), nodePortsKey)
	require.NoError(t, err)
	assert.Equal(t, other.Revision(), rec.Revision(), "the other range's record is left as it is")
}
