package e2e

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// leakNodePort writes kube's RangeAllocation at kube's key marking port
// with no Service holding it: what a server that stopped between taking a
// port and storing its Service leaves in etcd.
func leakNodePort(t *testing.T, c *etcdtest.Cluster, port int) {
	t.Helper()
	bits := new(big.Int).SetBit(new(big.Int), port-30000, 1)
	ra := &corev1.RangeAllocation{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "RangeAllocation"},
		Range: "30000-32767", Data: bits.Bytes()}
	raw, err := runtime.Encode(protobuf.NewSerializer(scheme.Scheme, scheme.Scheme), ra)
	require.NoError(t, err)
	_, err = c.Client(t).Put(t.Context(), "/registry/ranges/servicenodeports", string(raw))
	require.NoError(t, err)
}

// TestALeakedNodePortIsFreedByTheRepairOfServersOnOneEtcd: a port marked
// in etcd's RangeAllocation that no Service holds is refused at first;
// the servers' repair passes (every second here, kube's 3 minutes by
// default) free it on the third pass that sees it, and kubectl then
// takes it through either server.
func TestALeakedNodePortIsFreedByTheRepairOfServersOnOneEtcd(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	a := startOnEtcdWithRepair(t, etcdCluster, time.Second)
	startOnEtcdWithRepair(t, etcdCluster, time.Second)
	cs := clientsetFor(t, a, "application/vnd.kubernetes.protobuf")
	const leaked = 30123

	leakNodePort(t, etcdCluster, leaked)
	_, err := cs.CoreV1().Services("default").Create(t.Context(), nodePortService("early", leaked), metav1.CreateOptions{})
	require.Error(t, err, "the leaked port is taken until two more passes have seen it")
	assert.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "provided port is already allocated")

	k := kubectlFor(t, a, "1.33")
	require.Eventually(t, func() bool {
		_, _, err := k.run("create", "service", "nodeport", "late", "--tcp=80:80", "--node-port=30123")
		return err == nil
	}, 2*time.Minute, 100*time.Millisecond, "the repair frees the leaked port")
	assert.Equal(t, "30123", k.must("get", "service", "late", "-o", "jsonpath={.spec.ports[0].nodePort}"))
	assert.Equal(t, []int{leaked}, storedNodePorts(t, etcdCluster), "the port is marked again, for its Service")
}

// startOnEtcdWithRepair is startOnEtcd with the service-repair controller
// running every interval.
func startOnEtcdWithRepair(t *testing.T, c *etcdtest.Cluster, interval time.Duration) *cluster {
	t.Helper()
	cl, _ := startOnEtcdThen(t, c.Endpoints(), func(srv *apiserver.Server) {
		ctx, cancel := context.WithCancel(context.Background())
		m, err := controllers.Start(ctx, srv, controllers.Options{Controllers: []string{controllers.ServiceRepair}, RepairInterval: interval})
		require.NoError(t, err)
		t.Cleanup(func() { cancel(); <-m.Done() })
	})
	return cl
}
