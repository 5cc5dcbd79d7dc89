package kapitest_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/kapitest"
)

func TestStartServesBuiltinKindsToATypedClientInProtobuf(t *testing.T) {
	srv := kapitest.Start(t)
	cfg := *srv.Config
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cs, err := kubernetes.NewForConfig(&cfg)
	require.NoError(t, err)
	_, err = cs.CoreV1().ConfigMaps("default").Create(t.Context(), &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "a"}, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	got, err := cs.CoreV1().ConfigMaps("default").Get(t.Context(), "a", metav1.GetOptions{})
	require.NoError(t, err)
	require.Equal(t, "v", got.Data["k"])
}

func TestStartInstallsCRDsFromADirectory(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithCRDPaths("testdata/crds"),
		kapitest.WithObjects(`apiVersion: example.kapi.dev/v1
kind: Widget
metadata: {name: w1, namespace: default}
spec: {size: 2}
`))
	dyn, err := dynamic.NewForConfig(srv.Config)
	require.NoError(t, err)
	w, err := dyn.Resource(schema.GroupVersionResource{Group: "example.kapi.dev", Version: "v1", Resource: "widgets"}).
		Namespace("default").Get(t.Context(), "w1", metav1.GetOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 2, w.Object["spec"].(map[string]any)["size"])
}

func TestAServerHoldsWhatKubeApiserverStoresAtStart(t *testing.T) {
	srv := kapitest.Start(t)
	cs := kubernetes.NewForConfigOrDie(srv.Config)

	svc, err := cs.CoreV1().Services("default").Get(t.Context(), "kubernetes", metav1.GetOptions{})
	require.NoError(t, err, "the default/kubernetes Service of kube's bootstrap controller")
	require.Equal(t, "10.96.0.1", svc.Spec.ClusterIP)

	apiServices := schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	apps, err := dynamic.NewForConfigOrDie(srv.Config).Resource(apiServices).Get(t.Context(), "v1.apps", metav1.GetOptions{})
	require.NoError(t, err, "an APIService per served group version, as kube's autoregistration stores them")
	require.Equal(t, "onstart", apps.GetLabels()["kube-aggregator.kubernetes.io/automanaged"])

	for _, name := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		_, err := cs.CoreV1().Namespaces().Get(t.Context(), name, metav1.GetOptions{})
		require.NoError(t, err, "namespace %s", name)
	}
}
