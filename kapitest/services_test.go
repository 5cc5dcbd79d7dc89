package kapitest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/kapitest"
)

// TestClusterIPServicesAreCreatedAndFreed: a Service that needs a cluster
// IP is created (allocated, or with its own address, or by server-side
// apply) through the test server's client, has its IPAddress, and frees
// it when deleted.
func TestClusterIPServicesAreCreatedAndFreed(t *testing.T) {
	srv := kapitest.Start(t)
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	ports := []corev1.ServicePort{{Port: 80}}
	cases := []struct {
		name   string
		create func() (*corev1.Service, error)
	}{
		{name: "allocated", create: func() (*corev1.Service, error) {
			return cs.CoreV1().Services("default").Create(t.Context(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "allocated"},
				Spec: corev1.ServiceSpec{Ports: ports}}, metav1.CreateOptions{})
		}},
		{name: "explicit", create: func() (*corev1.Service, error) {
			return cs.CoreV1().Services("default").Create(t.Context(), &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "explicit"},
				Spec: corev1.ServiceSpec{ClusterIP: "10.96.0.50", Ports: ports}}, metav1.CreateOptions{})
		}},
		{name: "applied", create: func() (*corev1.Service, error) {
			return cs.CoreV1().Services("default").Patch(t.Context(), "applied", types.ApplyPatchType,
				[]byte(`{"apiVersion":"v1","kind":"Service","metadata":{"name":"applied"},"spec":{"ports":[{"port":80}]}}`),
				metav1.PatchOptions{FieldManager: "test"})
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, err := c.create()
			require.NoError(t, err)
			addr, err := cs.NetworkingV1().IPAddresses().Get(t.Context(), svc.Spec.ClusterIP, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, svc.Name, addr.Spec.ParentRef.Name)
			require.NoError(t, cs.CoreV1().Services("default").Delete(t.Context(), svc.Name, metav1.DeleteOptions{}))
			_, err = cs.NetworkingV1().IPAddresses().Get(t.Context(), svc.Spec.ClusterIP, metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "freed: %v", err)
		})
	}
}
