package e2e

import (
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

func nodePortService(name string, nodePort int32) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeNodePort,
			Ports: []corev1.ServicePort{{Port: 80, NodePort: nodePort}}},
	}
}

// storedNodePorts reads the RangeAllocation at kube's key in etcd with
// kube's own types and answers the ports its bitmap marks taken.
func storedNodePorts(t *testing.T, c *etcdtest.Cluster) []int {
	t.Helper()
	resp, err := c.Client(t).Get(t.Context(), "/registry/ranges/servicenodeports")
	require.NoError(t, err)
	require.Len(t, resp.Kvs, 1, "a RangeAllocation is at kube's key")
	obj, _, err := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme).Decode(resp.Kvs[0].Value, nil, nil)
	require.NoError(t, err, "it is kube's protobuf")
	ra, ok := obj.(*corev1.RangeAllocation)
	require.True(t, ok, "%T", obj)
	require.Equal(t, "30000-32767", ra.Range)
	bits := new(big.Int).SetBytes(ra.Data)
	var out []int
	for i := 0; i < bits.BitLen(); i++ {
		if bits.Bit(i) == 1 {
			out = append(out, 30000+i)
		}
	}
	return out
}

// TestServersOnOneEtcdNeverGiveOneNodePortTwice: NodePort Services created
// at once through two example servers on one etcd get distinct node
// ports, of the clients asking both servers for one port exactly one
// wins, and a deleted Service's port can be taken through the other.
func TestServersOnOneEtcdNeverGiveOneNodePortTwice(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	a, _ := startOnEtcd(t, etcdCluster.Endpoints())
	b, _ := startOnEtcd(t, etcdCluster.Endpoints())
	clients := []kubernetes.Interface{
		clientsetFor(t, a, "application/vnd.kubernetes.protobuf"), clientsetFor(t, b, "application/json"),
	}
	ctx := t.Context()

	// The contested ports are in the range's static band (below 30086),
	// which free ports come from only when the rest is full.
	const n, contested = 40, 30010
	var wg sync.WaitGroup
	got := make([]*corev1.Service, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nodePort := int32(0)
			if i%4 == 0 {
				nodePort = contested + int32(i/8) // each asked of both servers
			}
			got[i], errs[i] = clients[i%2].CoreV1().Services("default").Create(ctx,
				nodePortService(fmt.Sprintf("s%d", i), nodePort), metav1.CreateOptions{})
		}()
	}
	wg.Wait()
	given := map[int32]string{}
	won := map[int32]int{}
	for i := 0; i < n; i++ {
		if i%4 == 0 && errs[i] != nil {
			assert.True(t, apierrors.IsInvalid(errs[i]), "s%d: %v", i, errs[i])
			assert.Contains(t, errs[i].Error(), "provided port is already allocated")
			continue
		}
		require.NoError(t, errs[i], "s%d", i)
		port := got[i].Spec.Ports[0].NodePort
		if i%4 == 0 {
			won[port]++
		}
		assert.Empty(t, given[port], "node port %d given to s%d and %s", port, i, given[port])
		given[port] = got[i].Name
	}
	for p := int32(contested); p < contested+n/8; p++ {
		assert.Equal(t, 1, won[p], "one of the two clients asking for %d wins", p)
	}
	assert.Len(t, storedNodePorts(t, etcdCluster), len(given), "etcd's RangeAllocation holds exactly the ports given")

	// kubectl, through the other server, takes the port of a Service
	// deleted through one.
	holder := given[contested]
	ka, kb := kubectlFor(t, a, "1.33"), kubectlFor(t, b, "1.33")
	out, err := kb.combined("create", "service", "nodeport", "again", "--tcp=80:80", fmt.Sprintf("--node-port=%d", contested))
	require.Error(t, err)
	assert.Contains(t, out, fmt.Sprintf(`spec.ports[0].nodePort: Invalid value: %d: provided port is already allocated`, contested))
	ka.must("delete", "service", holder)
	kb.must("create", "service", "nodeport", "again", "--tcp=80:80", fmt.Sprintf("--node-port=%d", contested))
	assert.Contains(t, storedNodePorts(t, etcdCluster), contested)
}

// TestKapiAndKubeApiserverOnOneEtcdShareNodePorts: a node port kube-apiserver
// gave is refused by kapi and the reverse, and neither gives a port the
// other holds.
func TestKapiAndKubeApiserverOnOneEtcdShareNodePorts(t *testing.T) {
	etcdCluster := etcdtest.Start(t)
	kubeCfg := startKubeApiserver(t, etcdCluster.Endpoints())
	kapi, _ := startOnEtcd(t, etcdCluster.Endpoints())
	kube, err := kubernetes.NewForConfig(kubeCfg)
	require.NoError(t, err)
	kapiCS := clientsetFor(t, kapi, "application/vnd.kubernetes.protobuf")
	ctx := t.Context()
	servers := []struct {
		name string
		cs   kubernetes.Interface
	}{{"kube", kube}, {"kapi", kapiCS}}

	given := map[int32]string{}
	for round := 0; round < 2; round++ {
		for i, s := range servers {
			other := servers[1-i]
			svc, err := s.cs.CoreV1().Services("default").Create(ctx, nodePortService(fmt.Sprintf("%s-%d", s.name, round), 0), metav1.CreateOptions{})
			require.NoError(t, err, s.name)
			port := svc.Spec.Ports[0].NodePort
			assert.Empty(t, given[port], "%s gave %d, which %s holds", s.name, port, given[port])
			given[port] = svc.Name

			_, err = other.cs.CoreV1().Services("default").Create(ctx, nodePortService(fmt.Sprintf("%s-takes-%d", other.name, round), port), metav1.CreateOptions{})
			require.Error(t, err, "%s gives %d, which %s gave", other.name, port, s.name)
			assert.True(t, apierrors.IsInvalid(err), "%v", err)
			assert.Equal(t, fmt.Sprintf(`Service "%s-takes-%d" is invalid: spec.ports[0].nodePort: Invalid value: %d: provided port is already allocated`,
				other.name, round, port), err.Error())
		}
	}

	// A port kapi gives back is free for kube.
	var kapiPort int32
	for port, name := range given {
		if strings.HasPrefix(name, "kapi-") {
			kapiPort = port
			require.NoError(t, kapiCS.CoreV1().Services("default").Delete(ctx, name, metav1.DeleteOptions{}))
			break
		}
	}
	svc, err := kube.CoreV1().Services("default").Create(ctx, nodePortService("kube-after", kapiPort), metav1.CreateOptions{})
	require.NoError(t, err, "kube takes the port kapi released")
	assert.Equal(t, kapiPort, svc.Spec.Ports[0].NodePort)
}
