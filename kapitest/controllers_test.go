package kapitest_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/kapitest"
)

// waitIdle waits for srv's controllers to have done what the writes so far
// call for.
func waitIdle(t *testing.T, srv *kapitest.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	require.NoError(t, srv.Controllers.WaitIdle(ctx))
}

func createNamespace(t *testing.T, cs kubernetes.Interface, name string) {
	t.Helper()
	_, err := cs.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}},
		metav1.CreateOptions{})
	require.NoError(t, err)
}

func TestWithControllersADeletedNamespaceAndItsContentsGo(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithControllers())
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	createNamespace(t, cs, "team")
	_, err := cs.CoreV1().ConfigMaps("team").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "settings"}},
		metav1.CreateOptions{})
	require.NoError(t, err)

	require.NoError(t, cs.CoreV1().Namespaces().Delete(t.Context(), "team", metav1.DeleteOptions{}))
	waitIdle(t, srv)

	_, err = cs.CoreV1().Namespaces().Get(t.Context(), "team", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the namespace is gone: %v", err)
	_, err = cs.CoreV1().ConfigMaps("team").Get(t.Context(), "settings", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "its ConfigMap is gone: %v", err)
}

func TestWithoutControllersADeletedNamespaceStaysTerminating(t *testing.T) {
	srv := kapitest.Start(t)
	require.Nil(t, srv.Controllers)
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	createNamespace(t, cs, "team")

	require.NoError(t, cs.CoreV1().Namespaces().Delete(t.Context(), "team", metav1.DeleteOptions{}))

	ns, err := cs.CoreV1().Namespaces().Get(t.Context(), "team", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
}

func TestWithControllersDependentsOfADeletedOwnerAreCollected(t *testing.T) {
	for name, policy := range map[string]*metav1.DeletionPropagation{
		"by default (background)": nil,
		"in the foreground":       ptr.To(metav1.DeletePropagationForeground),
	} {
		t.Run(name, func(t *testing.T) {
			srv := kapitest.Start(t, kapitest.WithControllers())
			cs := kubernetes.NewForConfigOrDie(srv.Config)
			owner, err := cs.CoreV1().ConfigMaps("default").Create(t.Context(),
				&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
			require.NoError(t, err)
			_, err = cs.CoreV1().Secrets("default").Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
				Name: "dependent", OwnerReferences: []metav1.OwnerReference{{
					APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}}}}, metav1.CreateOptions{})
			require.NoError(t, err)

			require.NoError(t, cs.CoreV1().ConfigMaps("default").Delete(t.Context(), "owner",
				metav1.DeleteOptions{PropagationPolicy: policy}))
			waitIdle(t, srv)

			_, err = cs.CoreV1().Secrets("default").Get(t.Context(), "dependent", metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "the dependent is gone: %v", err)
			_, err = cs.CoreV1().ConfigMaps("default").Get(t.Context(), "owner", metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "the owner is gone: %v", err)
		})
	}
}

func TestWithControllersOrphanedDependentsStayWithoutTheirOwnerReference(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithControllers())
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	owner, err := cs.CoreV1().ConfigMaps("default").Create(t.Context(),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.CoreV1().Secrets("default").Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
		Name: "dependent", OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}}}}, metav1.CreateOptions{})
	require.NoError(t, err)

	require.NoError(t, cs.CoreV1().ConfigMaps("default").Delete(t.Context(), "owner",
		metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationOrphan)}))
	waitIdle(t, srv)

	dep, err := cs.CoreV1().Secrets("default").Get(t.Context(), "dependent", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Empty(t, dep.OwnerReferences)
	_, err = cs.CoreV1().ConfigMaps("default").Get(t.Context(), "owner", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "the owner is gone: %v", err)
}

func TestWithControllersANewNamespaceGetsItsServiceAccountAndTheLoopbackCA(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithControllers())
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	createNamespace(t, cs, "team")
	waitIdle(t, srv)

	_, err := cs.CoreV1().ServiceAccounts("team").Get(t.Context(), "default", metav1.GetOptions{})
	require.NoError(t, err)
	ca, err := cs.CoreV1().ConfigMaps("team").Get(t.Context(), "kube-root-ca.crt", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, string(srv.LoopbackConfig().CAData), ca.Data["ca.crt"],
		"the CA a pod would trust is the one the loopback listener is signed with")
}

func TestWithControllersChoosesThemAsKubeControllerManagersFlagDoes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		names []string
		want  []string
	}{
		{"none named runs them all", nil, controllers.Names},
		{"a name runs that one", []string{controllers.Namespace}, []string{controllers.Namespace}},
		{"a star with exclusions runs the rest", []string{"*", "-" + controllers.GarbageCollector, "-" + controllers.RootCACertPublisher},
			[]string{controllers.Namespace, controllers.ServiceAccount, controllers.ServiceRepair}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := kapitest.Start(t, kapitest.WithControllers(tc.names...))
			assert.ElementsMatch(t, tc.want, srv.Controllers.Running())
		})
	}
}

func TestWithControllersAnUnknownNameFailsStart(t *testing.T) {
	_, err := kapitest.New(kapitest.WithControllers("no-such-controller"))
	require.ErrorContains(t, err, `"no-such-controller" is not in the list of known controllers`)
}

func TestClosingAServerStopsItsControllers(t *testing.T) {
	srv, err := kapitest.New(kapitest.WithControllers())
	require.NoError(t, err)
	srv.Close()
	select {
	case <-srv.Controllers.Done():
	default:
		t.Fatal("Close returned before the controllers stopped")
	}
}

func TestTheControllersStampTheServersClock(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithControllers())
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	srv.Clock.Set(at)
	srv.Clock.Freeze()
	cs := kubernetes.NewForConfigOrDie(srv.Config)

	t.Run("a namespace's deletion conditions", func(t *testing.T) {
		createNamespace(t, cs, "held")
		_, err := cs.CoreV1().ConfigMaps("held").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: "kept", Finalizers: []string{"example.com/hold"}}}, metav1.CreateOptions{})
		require.NoError(t, err)
		require.NoError(t, cs.CoreV1().Namespaces().Delete(t.Context(), "held", metav1.DeleteOptions{}))
		waitIdle(t, srv)

		ns, err := cs.CoreV1().Namespaces().Get(t.Context(), "held", metav1.GetOptions{})
		require.NoError(t, err, "a finalizer holds the namespace")
		require.NotEmpty(t, ns.Status.Conditions)
		for _, c := range ns.Status.Conditions {
			assert.True(t, c.LastTransitionTime.Time.Equal(at), "%s at %v", c.Type, c.LastTransitionTime)
		}
	})
	t.Run("an Event", func(t *testing.T) {
		// An owner must be in its dependent's namespace: the garbage
		// collector reports one found in another with a Warning Event.
		owner, err := cs.CoreV1().ConfigMaps("default").Create(t.Context(),
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere"}}, metav1.CreateOptions{})
		require.NoError(t, err)
		createNamespace(t, cs, "other")
		_, err = cs.CoreV1().Secrets("other").Create(t.Context(), &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
			Name: "misowned", OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}}}}, metav1.CreateOptions{})
		require.NoError(t, err)
		waitIdle(t, srv)

		events, err := cs.CoreV1().Events("other").List(t.Context(), metav1.ListOptions{FieldSelector: "reason=OwnerRefInvalidNamespace"})
		require.NoError(t, err)
		require.Len(t, events.Items, 1)
		assert.True(t, events.Items[0].FirstTimestamp.Time.Equal(at), "%v", events.Items[0].FirstTimestamp)
		assert.True(t, events.Items[0].LastTimestamp.Time.Equal(at), "%v", events.Items[0].LastTimestamp)
	})
}

// TestWithControllersADeletedNamespaceWaitsOnTheServersClock: a deleted
// namespace stays, Terminating and finalizable by the test, until the
// server's Clock passes kube's wait.
func TestWithControllersADeletedNamespaceWaitsOnTheServersClock(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithControllers())
	srv.Clock.Freeze()
	cs := kubernetes.NewForConfigOrDie(srv.Config)
	createNamespace(t, cs, "slow")
	require.NoError(t, cs.CoreV1().Namespaces().Delete(t.Context(), "slow", metav1.DeleteOptions{}))
	ns, err := cs.CoreV1().Namespaces().Get(t.Context(), "slow", metav1.GetOptions{})
	require.NoError(t, err, "still there while the wait lasts")
	assert.Equal(t, []corev1.FinalizerName{corev1.FinalizerKubernetes}, ns.Spec.Finalizers)

	srv.Clock.Advance(controllers.DefaultNamespaceDeletionDelay)
	assert.Eventually(t, func() bool {
		_, err := cs.CoreV1().Namespaces().Get(t.Context(), "slow", metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}, 10*time.Second, 10*time.Millisecond, "gone once the clock passed the wait")
}
