package e2e

// What a cluster does on its own (namespace teardown, garbage collection,
// default ServiceAccounts, the root CA ConfigMap) through
// real clients: kubectl, client-go, Kubernetes' e2e framework's namespace
// set-up and controller-runtime, against the example server with its
// in-process controllers. What kube-apiserver and kube-controller-manager
// 1.33 do for the same requests is recorded in
// docs/kube-behaviour/09-controllers.md.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/kapi-dev/kapi/controllers"
)

const widgetsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`

// `kubectl delete ns` returns once the namespace is gone, and everything
// in it went first, custom resources included: kubectl waits (--wait is
// its default) as it waits on kube.
func TestKubectlDeleteNamespaceWaitsUntilItAndItsContentsAreGone(t *testing.T) {
	for _, version := range []string{"1.27", "1.33"} {
		t.Run("kubectl "+version, func(t *testing.T) {
			c := startControlledCluster(t, controllers.Options{})
			k := kubectlFor(t, c.cluster, version)
			k.withStdin(widgetsCRD).must("apply", "-f", "-")
			k.must("create", "namespace", "doomed")
			k.must("-n", "doomed", "create", "configmap", "cm", "--from-literal=a=b")
			k.must("-n", "doomed", "create", "secret", "generic", "s", "--from-literal=a=b")
			k.withStdin("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: doomed}\n").must("apply", "-f", "-")
			c.settle()

			out := k.must("delete", "namespace", "doomed", "--wait=true", "--timeout=30s")
			assert.Equal(t, `namespace "doomed" deleted`, strings.TrimSpace(out))

			cs := clientsetFor(t, c.cluster, "application/json")
			_, err := cs.CoreV1().Namespaces().Get(context.Background(), "doomed", metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "the namespace is gone when kubectl returns: %v", err)
			// Its objects went before it: a namespace of the same name
			// starts with nothing but what the controllers give it.
			k.must("create", "namespace", "doomed")
			c.settle()
			cms, err := cs.CoreV1().ConfigMaps("doomed").List(context.Background(), metav1.ListOptions{})
			require.NoError(t, err)
			assert.Equal(t, []string{"kube-root-ca.crt"}, names(cms.Items))
			secrets, err := cs.CoreV1().Secrets("doomed").List(context.Background(), metav1.ListOptions{})
			require.NoError(t, err)
			assert.Empty(t, secrets.Items)
			out = k.must("-n", "doomed", "get", "widgets", "-o", "name")
			assert.Empty(t, strings.TrimSpace(out))
		})
	}
}

// ownedFixture is an owner ConfigMap with two blocking dependents and one
// that does not block, as in the reference runs.
func ownedFixture(t *testing.T, cs kubernetes.Interface, ns string) {
	t.Helper()
	ctx := context.Background()
	owner, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	for _, d := range []struct {
		name  string
		block bool
	}{{"d1", true}, {"d2", true}, {"nb", false}} {
		ref := metav1.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "owner", UID: owner.UID}
		if d.block {
			ref.BlockOwnerDeletion = ptr(true)
		}
		_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
			Name: d.name, OwnerReferences: []metav1.OwnerReference{ref}}}, metav1.CreateOptions{})
		require.NoError(t, err)
	}
}

// watchConfigMaps records the ConfigMap events of a namespace from now on,
// each as "TYPE name finalizers owners".
func watchConfigMaps(t *testing.T, cs kubernetes.Interface, ns string) func() []string {
	t.Helper()
	list, err := cs.CoreV1().ConfigMaps(ns).List(context.Background(), metav1.ListOptions{})
	require.NoError(t, err)
	w, err := cs.CoreV1().ConfigMaps(ns).Watch(context.Background(), metav1.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err)
	t.Cleanup(w.Stop)
	var got []string
	return func() []string {
		for {
			select {
			case ev := <-w.ResultChan():
				cm := ev.Object.(*corev1.ConfigMap)
				var owners []string
				for _, r := range cm.OwnerReferences {
					owners = append(owners, r.Name)
				}
				got = append(got, fmt.Sprintf("%s %s %v %v", ev.Type, cm.Name, cm.Finalizers, owners))
			case <-time.After(200 * time.Millisecond):
				return got
			}
		}
	}
}

// What each cascade leads to, as kube-controller-manager did it: events
// in the reference's order, dependents in name order (kube deletes them
// from parallel workers in no set order; kapi's one worker goes by name).
var cascades = []struct {
	cascade, policy string
	events          []string
	// left are the ConfigMaps left after it (besides kube-root-ca.crt).
	left []string
}{
	{"background", "Background", []string{
		"DELETED owner [] []", "DELETED d1 [] [owner]", "DELETED d2 [] [owner]", "DELETED nb [] [owner]",
	}, nil},
	{"foreground", "Foreground", []string{
		"MODIFIED owner [foregroundDeletion] []", "DELETED d1 [] [owner]", "DELETED d2 [] [owner]",
		"DELETED nb [] [owner]", "DELETED owner [foregroundDeletion] []",
	}, nil},
	{"orphan", "Orphan", []string{
		"MODIFIED owner [orphan] []", "MODIFIED d1 [] []", "MODIFIED d2 [] []", "MODIFIED nb [] []",
		"DELETED owner [orphan] []",
	}, []string{"d1", "d2", "nb"}},
}

// kubectl delete --cascade=background|foreground|orphan: kubectl prints
// what it prints against kube, returns once the owner is gone, and the
// dependents go (or stay, without the reference) as kube's do.
func TestKubectlCascadeDoesWhatKubeDoes(t *testing.T) {
	for _, version := range []string{"1.27", "1.33"} {
		for _, tc := range cascades {
			t.Run(fmt.Sprintf("kubectl %s --cascade=%s", version, tc.cascade), func(t *testing.T) {
				c := startControlledCluster(t, controllers.Options{})
				cs := clientsetFor(t, c.cluster, "application/json")
				ownedFixture(t, cs, "default")
				c.settle()
				events := watchConfigMaps(t, cs, "default")

				out := kubectlFor(t, c.cluster, version).must("-n", "default", "delete", "configmap", "owner", "--cascade="+tc.cascade)
				assert.Equal(t, `configmap "owner" deleted`, strings.TrimSpace(out))
				_, err := cs.CoreV1().ConfigMaps("default").Get(context.Background(), "owner", metav1.GetOptions{})
				assert.True(t, apierrors.IsNotFound(err), "kubectl waited for the owner: %v", err)
				c.settle()
				assert.Equal(t, tc.events, events())
				assertConfigMapsLeft(t, cs, tc.left)
			})
		}
	}
}

// client-go's DeleteOptions: each propagationPolicy, and the deprecated
// orphanDependents, do what kube does.
func TestClientGoPropagationPoliciesDoWhatKubeDoes(t *testing.T) {
	for _, tc := range cascades {
		t.Run(tc.policy, func(t *testing.T) {
			c := startControlledCluster(t, controllers.Options{})
			cs := clientsetFor(t, c.cluster, "application/vnd.kubernetes.protobuf")
			ownedFixture(t, cs, "default")
			c.settle()
			events := watchConfigMaps(t, cs, "default")
			policy := metav1.DeletionPropagation(tc.policy)
			require.NoError(t, cs.CoreV1().ConfigMaps("default").Delete(context.Background(), "owner",
				metav1.DeleteOptions{PropagationPolicy: &policy}))
			c.settle()
			assert.Equal(t, tc.events, events())
			assertConfigMapsLeft(t, cs, tc.left)
		})
	}
	t.Run("orphanDependents", func(t *testing.T) {
		c := startControlledCluster(t, controllers.Options{})
		cs := clientsetFor(t, c.cluster, "application/json")
		ownedFixture(t, cs, "default")
		c.settle()
		require.NoError(t, cs.CoreV1().ConfigMaps("default").Delete(context.Background(), "owner",
			metav1.DeleteOptions{OrphanDependents: ptr(true)}))
		c.settle()
		assertConfigMapsLeft(t, cs, []string{"d1", "d2", "nb"})
	})
	t.Run("deletecollection with each policy", func(t *testing.T) {
		for _, tc := range cascades {
			c := startControlledCluster(t, controllers.Options{})
			cs := clientsetFor(t, c.cluster, "application/json")
			ctx := context.Background()
			for i := range 3 {
				s, err := cs.CoreV1().Secrets("default").Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{
					Name: fmt.Sprintf("o%d", i), Labels: map[string]string{"owner": "yes"}}}, metav1.CreateOptions{})
				require.NoError(t, err)
				_, err = cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
					Name: fmt.Sprintf("d%d", i), OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Secret",
						Name: s.Name, UID: s.UID, BlockOwnerDeletion: ptr(true)}}}}, metav1.CreateOptions{})
				require.NoError(t, err)
			}
			c.settle()
			policy := metav1.DeletionPropagation(tc.policy)
			require.NoError(t, cs.CoreV1().Secrets("default").DeleteCollection(ctx, metav1.DeleteOptions{PropagationPolicy: &policy},
				metav1.ListOptions{LabelSelector: "owner=yes"}))
			c.settle()
			secrets, err := cs.CoreV1().Secrets("default").List(ctx, metav1.ListOptions{LabelSelector: "owner=yes"})
			require.NoError(t, err)
			assert.Empty(t, secrets.Items, tc.policy)
			var left []string
			if tc.policy == "Orphan" {
				left = []string{"d0", "d1", "d2"}
			}
			assertConfigMapsLeft(t, cs, left)
		}
	})
}

func assertConfigMapsLeft(t *testing.T, cs kubernetes.Interface, want []string) {
	t.Helper()
	list, err := cs.CoreV1().ConfigMaps("default").List(context.Background(), metav1.ListOptions{})
	require.NoError(t, err)
	var got []string
	for _, cm := range list.Items {
		if cm.Name == "kube-root-ca.crt" {
			continue
		}
		got = append(got, cm.Name)
		assert.Empty(t, cm.OwnerReferences, "%s keeps no reference to the deleted owner", cm.Name)
	}
	assert.Equal(t, want, got)
}

// An object with a finalizer holds its namespace, Terminating with kube's
// conditions, until the finalizer is removed; nothing new can be created
// in it meanwhile.
func TestAFinalizerHoldsItsNamespaceUntilRemoved(t *testing.T) {
	c := startControlledCluster(t, controllers.Options{})
	cs := clientsetFor(t, c.cluster, "application/json")
	ctx := context.Background()
	_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "held"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.CoreV1().ConfigMaps("held").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name: "h", Finalizers: []string{"example.com/hold"}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, "held", metav1.DeleteOptions{}))
	c.settle()

	ns, err := cs.CoreV1().Namespaces().Get(ctx, "held", metav1.GetOptions{})
	require.NoError(t, err, "held by the finalizer")
	assert.Equal(t, corev1.NamespaceTerminating, ns.Status.Phase)
	conds := map[corev1.NamespaceConditionType]corev1.NamespaceCondition{}
	var order []corev1.NamespaceConditionType
	for _, cd := range ns.Status.Conditions {
		conds[cd.Type] = cd
		order = append(order, cd.Type)
	}
	assert.Equal(t, []corev1.NamespaceConditionType{"NamespaceDeletionDiscoveryFailure", "NamespaceDeletionGroupVersionParsingFailure",
		"NamespaceDeletionContentFailure", "NamespaceContentRemaining", "NamespaceFinalizersRemaining"}, order)
	assert.Equal(t, "Some resources are remaining: configmaps. has 1 resource instances", conds["NamespaceContentRemaining"].Message)
	assert.Equal(t, "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances",
		conds["NamespaceFinalizersRemaining"].Message)

	_, err = cs.CoreV1().ConfigMaps("held").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "late"}}, metav1.CreateOptions{})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.True(t, apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause), "kube's cause: %v", err)

	h, err := cs.CoreV1().ConfigMaps("held").Get(ctx, "h", metav1.GetOptions{})
	require.NoError(t, err)
	h.Finalizers = nil
	_, err = cs.CoreV1().ConfigMaps("held").Update(ctx, h, metav1.UpdateOptions{})
	require.NoError(t, err)
	c.settle()
	_, err = cs.CoreV1().Namespaces().Get(ctx, "held", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "gone once the finalizer is removed: %v", err)
}

// Kubernetes' e2e framework sets a test namespace up as
// framework.CreateTestingNS and WaitForDefaultServiceAccountInNamespace /
// WaitForKubeRootCAInNamespace do (test/e2e/framework/util.go, 1.33): a
// namespace with the run's and pod security labels, then a list+watch of
// the default ServiceAccount, and of kube-root-ca.crt, by field selector,
// through watchtools.UntilWithSync.
func TestKubernetesE2EFrameworkNamespaceSetUpSucceeds(t *testing.T) {
	c := startControlledCluster(t, controllers.Options{})
	cs := clientsetFor(t, c.cluster, "application/vnd.kubernetes.protobuf")
	ctx := context.Background()
	ns, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name: "e2e-tests-kapi-x7k2p",
		Labels: map[string]string{"e2e-run": "7f3c1c52-52b6-4d7e-9e47-1c5c3e0f4a11",
			"pod-security.kubernetes.io/enforce": "restricted", "pod-security.kubernetes.io/warn": "restricted",
			"pod-security.kubernetes.io/audit": "restricted"},
	}}, metav1.CreateOptions{})
	require.NoError(t, err)

	// No settle: the framework waits on a watch, with its 2 minute timeout.
	waitFor := func(name string, lw *cache.ListWatch, obj runtime.Object) {
		t.Helper()
		ctx, cancel := watchtools.ContextWithOptionalTimeout(ctx, 2*time.Minute)
		defer cancel()
		_, err := watchtools.UntilWithSync(ctx, lw, obj, nil, func(ev watch.Event) (bool, error) {
			switch ev.Type {
			case watch.Deleted:
				return false, apierrors.NewNotFound(schema.GroupResource{Resource: "serviceaccounts"}, name)
			case watch.Added, watch.Modified:
				return true, nil
			}
			return false, nil
		})
		require.NoError(t, err, "waiting for %s in %s", name, ns.Name)
	}
	byName := func(name string) string { return fields.OneTermEqualSelector("metadata.name", name).String() }
	waitFor("default", &cache.ListWatch{
		ListFunc: func(o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = byName("default")
			return cs.CoreV1().ServiceAccounts(ns.Name).List(ctx, o)
		},
		WatchFunc: func(o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = byName("default")
			return cs.CoreV1().ServiceAccounts(ns.Name).Watch(ctx, o)
		},
	}, &corev1.ServiceAccount{})
	waitFor("kube-root-ca.crt", &cache.ListWatch{
		ListFunc: func(o metav1.ListOptions) (runtime.Object, error) {
			o.FieldSelector = byName("kube-root-ca.crt")
			return cs.CoreV1().ConfigMaps(ns.Name).List(ctx, o)
		},
		WatchFunc: func(o metav1.ListOptions) (watch.Interface, error) {
			o.FieldSelector = byName("kube-root-ca.crt")
			return cs.CoreV1().ConfigMaps(ns.Name).Watch(ctx, o)
		},
	}, &corev1.ConfigMap{})

	// And the framework's teardown deletes the namespace and waits for it.
	require.NoError(t, cs.CoreV1().Namespaces().Delete(ctx, ns.Name, metav1.DeleteOptions{}))
	c.settle()
	_, err = cs.CoreV1().Namespaces().Get(ctx, ns.Name, metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
}

// A controller-runtime reconciler owns its children with
// controllerutil.SetControllerReference; deleting the owner collects them,
// custom resources included, with no envtest-style manual cleanup.
func TestControllerRuntimeOwnedChildrenAreCollected(t *testing.T) {
	c := startControlledCluster(t, controllers.Options{})
	kubectlFor(t, c.cluster, "1.33").withStdin(widgetsCRD).must("apply", "-f", "-")
	cl, err := client.New(c.restConfig(), client.Options{})
	require.NoError(t, err)
	ctx := context.Background()

	parent := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "parent", Namespace: "default"}}
	require.NoError(t, cl.Create(ctx, parent))
	for i := range 3 {
		child := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("child-%d", i), Namespace: "default"}}
		require.NoError(t, controllerutil.SetControllerReference(parent, child, cl.Scheme()))
		require.NoError(t, cl.Create(ctx, child))
	}
	dyn, err := dynamic.NewForConfig(c.restConfig())
	require.NoError(t, err)
	widgets := dyn.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
	w, err := widgets.Create(ctx, mustYAMLObject(t, "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"), metav1.CreateOptions{})
	require.NoError(t, err)
	require.NoError(t, controllerutil.SetControllerReference(parent, w, cl.Scheme()))
	_, err = widgets.Update(ctx, w, metav1.UpdateOptions{})
	require.NoError(t, err)
	c.settle()

	require.NoError(t, cl.Delete(ctx, parent, client.PropagationPolicy(metav1.DeletePropagationForeground)))
	c.settle()
	var secrets corev1.SecretList
	require.NoError(t, cl.List(ctx, &secrets, client.InNamespace("default")))
	assert.Empty(t, secrets.Items, "the children are collected")
	list, err := widgets.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list.Items, "a custom resource child too")
	err = cl.Get(ctx, types.NamespacedName{Namespace: "default", Name: "parent"}, &corev1.ConfigMap{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)

	// A manager's cached client sees the same.
	mgr, err := ctrl.NewManager(c.restConfig(), ctrl.Options{Metrics: metricsOff(), HealthProbeBindAddress: "0"})
	require.NoError(t, err)
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() { _ = mgr.Start(mctx) }()
	require.True(t, mgr.GetCache().WaitForCacheSync(mctx))
	require.NoError(t, mgr.GetCache().List(mctx, &secrets, client.InNamespace("default")))
	assert.Empty(t, secrets.Items)
}

func names(items []corev1.ConfigMap) []string {
	var out []string
	for _, i := range items {
		out = append(out, i.Name)
	}
	return out
}

// On the secure example server (RBAC, HTTPS), the controllers work as the
// cluster's own: every namespace's kube-root-ca.crt holds the CA that
// verifies the server, its default ServiceAccount gets tokens, and a
// namespace holding RBAC objects and tokens goes.
func TestControllersOnTheSecureServer(t *testing.T) {
	c, sec := startSecureControlledCluster(t)
	k := kubectlFor(t, c.cluster, "1.33")
	k.must("create", "namespace", "team")
	c.settle()
	cs := clientsetFor(t, c.cluster, "application/json")
	ctx := context.Background()
	cm, err := cs.CoreV1().ConfigMaps("team").Get(ctx, "kube-root-ca.crt", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, string(sec.CAData), cm.Data["ca.crt"], "the serving CA")

	token := k.must("-n", "team", "create", "token", "default")
	assert.NotEmpty(t, strings.TrimSpace(token), "the default ServiceAccount gets a token")
	k.must("-n", "team", "create", "role", "reader", "--verb=get", "--resource=pods")
	k.must("-n", "team", "create", "rolebinding", "reader", "--role=reader", "--serviceaccount=team:default")

	out := k.must("delete", "namespace", "team")
	assert.Equal(t, `namespace "team" deleted`, strings.TrimSpace(out))
	_, err = cs.RbacV1().RoleBindings("team").Get(ctx, "reader", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
	_, err = cs.CoreV1().Namespaces().Get(ctx, "team", metav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "%v", err)
}
