package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	applycorev1 "k8s.io/client-go/applyconfigurations/core/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

const robot = "system:serviceaccount:team:robot"

// setUpRobot creates namespaces team and other, each with a ConfigMap and
// a Deployment, and the ServiceAccount team/robot bound to a Role that
// allows every verb on ConfigMaps and the status and scale of
// Deployments, in team only (TestServiceAccountWithARole adds the scale of
// a custom resource). It returns a token of robot from the
// TokenRequest API.
func setUpRobot(t *testing.T, ctx context.Context, admin kubernetes.Interface) string {
	t.Helper()
	for _, ns := range []string{"team", "other"} {
		_, err := admin.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		require.NoError(t, err)
		_, err = admin.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c1"}, Data: map[string]string{"a": "1"}}, metav1.CreateOptions{})
		require.NoError(t, err)
		_, err = admin.AppsV1().Deployments(ns).Create(ctx, deployment("d"), metav1.CreateOptions{})
		require.NoError(t, err)
	}
	_, err := admin.CoreV1().ServiceAccounts("team").Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "robot"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = admin.RbacV1().Roles("team").Create(ctx, &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: "robot"}, Rules: []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments/status", "deployments/scale"}, Verbs: []string{"get", "update", "patch"}},
	}}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = admin.RbacV1().RoleBindings("team").Create(ctx, &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "robot"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "robot"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: "robot", Namespace: "team"}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	tr, err := admin.CoreV1().ServiceAccounts("team").CreateToken(ctx, "robot", &authenticationv1.TokenRequest{}, metav1.CreateOptions{})
	require.NoError(t, err)
	return tr.Status.Token
}

func deployment(name string) *appsv1.Deployment {
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: appsv1.DeploymentSpec{
		Replicas: ptr(int32(1)), Selector: &metav1.LabelSelector{MatchLabels: labels},
		Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}}}}}
}

// TestServiceAccountWithARole: a ServiceAccount with a Role can do exactly
// what the Role allows in its namespace, and gets kube's 403 for every verb
// elsewhere (client-go, with a token from the TokenRequest API).
func TestServiceAccountWithARole(t *testing.T) {
	c := startSecureCluster(t, kapiserver.Options{})
	ctx := context.Background()
	admin := clientset(t, c.restConfig())
	token := setUpRobot(t, ctx, admin)
	cs := clientset(t, c.tokenConfig(token))
	// Scale: a custom resource with a scale subresource.
	out, err := c.kubectlStdin("1.33", widgetCRD, "apply", "-f", "-")
	require.NoError(t, err, out)
	for _, ns := range []string{"team", "other"} {
		out, err = c.kubectlStdin("1.33", widget("w", "  size: 1\n"), "-n", ns, "create", "-f", "-")
		require.NoError(t, err, out)
	}
	_, err = admin.RbacV1().Roles("team").Patch(ctx, "robot", types.JSONPatchType,
		[]byte(`[{"op":"add","path":"/rules/-","value":{"apiGroups":["example.com"],"resources":["widgets/scale"],"verbs":["get","update"]}}]`), metav1.PatchOptions{})
	require.NoError(t, err)
	dyn, err := dynamic.NewForConfig(c.tokenConfig(token))
	require.NoError(t, err)
	widgets := dyn.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"})

	type op struct {
		verb, resource, name string // what the 403 names
		do                   func(ns string) error
	}
	cm := func(ns string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c1", Namespace: ns}, Data: map[string]string{"a": "2"}}
	}
	ops := []op{
		{"get", "configmaps", "c1", func(ns string) error {
			_, err := cs.CoreV1().ConfigMaps(ns).Get(ctx, "c1", metav1.GetOptions{})
			return err
		}},
		{"list", "configmaps", "", func(ns string) error {
			_, err := cs.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
			return err
		}},
		{"watch", "configmaps", "", func(ns string) error {
			w, err := cs.CoreV1().ConfigMaps(ns).Watch(ctx, metav1.ListOptions{})
			if err == nil {
				w.Stop()
			}
			return err
		}},
		{"create", "configmaps", "", func(ns string) error {
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "new-"}}, metav1.CreateOptions{})
			return err
		}},
		{"create", "configmaps", "", func(ns string) error { // authorized as the real create
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dry"}}, metav1.CreateOptions{DryRun: []string{"All"}})
			return err
		}},
		{"update", "configmaps", "c1", func(ns string) error {
			_, err := cs.CoreV1().ConfigMaps(ns).Update(ctx, cm(ns), metav1.UpdateOptions{})
			return err
		}},
		{"patch", "configmaps", "c1", func(ns string) error {
			_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, "c1", types.MergePatchType, []byte(`{"data":{"b":"1"}}`), metav1.PatchOptions{})
			return err
		}},
		{"patch", "configmaps", "c1", func(ns string) error { // server-side apply
			_, err := cs.CoreV1().ConfigMaps(ns).Apply(ctx, applycorev1.ConfigMap("c1", ns).WithData(map[string]string{"c": "1"}),
				metav1.ApplyOptions{FieldManager: "robot", Force: true})
			return err
		}},
		{"get", "deployments/status", "d", func(ns string) error {
			return cs.AppsV1().RESTClient().Get().Namespace(ns).Resource("deployments").Name("d").SubResource("status").Do(ctx).Error()
		}},
		{"update", "deployments/status", "d", func(ns string) error {
			d, err := clientset(t, c.restConfig()).AppsV1().Deployments(ns).Get(ctx, "d", metav1.GetOptions{})
			if err != nil {
				return err
			}
			d.Status.ObservedGeneration = 1
			_, err = cs.AppsV1().Deployments(ns).UpdateStatus(ctx, d, metav1.UpdateOptions{})
			return err
		}},
		{"get", "widgets/scale", "w", func(ns string) error {
			_, err := widgets.Namespace(ns).Get(ctx, "w", metav1.GetOptions{}, "scale")
			return err
		}},
		{"update", "widgets/scale", "w", func(ns string) error {
			scale := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "autoscaling/v1", "kind": "Scale",
				"metadata": map[string]any{"name": "w", "namespace": ns}, "spec": map[string]any{"replicas": int64(2)}}}
			_, err := widgets.Namespace(ns).Update(ctx, scale, metav1.UpdateOptions{}, "scale")
			return err
		}},
		{"delete", "configmaps", "c1", func(ns string) error {
			return cs.CoreV1().ConfigMaps(ns).Delete(ctx, "c1", metav1.DeleteOptions{})
		}},
		{"deletecollection", "configmaps", "", func(ns string) error {
			return cs.CoreV1().ConfigMaps(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
		}},
	}
	for _, o := range ops {
		t.Run(fmt.Sprintf("%s %s elsewhere is kube's 403", o.verb, o.resource), func(t *testing.T) {
			err := o.do("other")
			require.Error(t, err)
			assert.True(t, apierrors.IsForbidden(err), "%v", err)
			group, resource := "", o.resource
			switch {
			case strings.HasPrefix(resource, "deployments"):
				group = "apps"
			case strings.HasPrefix(resource, "widgets"):
				group = "example.com"
			}
			object := strings.Split(resource, "/")[0]
			if group != "" {
				object += "." + group
			}
			if o.name != "" {
				object += fmt.Sprintf(" %q", o.name)
			}
			assert.Equal(t, fmt.Sprintf(`%s is forbidden: User %q cannot %s resource %q in API group %q in the namespace "other"`,
				object, robot, o.verb, resource, group), err.Error())
		})
		t.Run(fmt.Sprintf("%s %s in its namespace is allowed", o.verb, o.resource), func(t *testing.T) {
			require.NoError(t, o.do("team"))
		})
	}

	t.Run("a list across namespaces is kube's 403 at the cluster scope", func(t *testing.T) {
		_, err := cs.CoreV1().ConfigMaps("").List(ctx, metav1.ListOptions{})
		require.True(t, apierrors.IsForbidden(err), "%v", err)
		assert.Equal(t, `configmaps is forbidden: User "system:serviceaccount:team:robot" cannot list resource "configmaps" in API group "" at the cluster scope`, err.Error())
	})
	t.Run("what the Role does not name is forbidden in its namespace too", func(t *testing.T) {
		_, err := cs.CoreV1().Secrets("team").Get(ctx, "s", metav1.GetOptions{})
		assert.True(t, apierrors.IsForbidden(err), "%v", err)
		err = cs.AppsV1().Deployments("team").Delete(ctx, "d", metav1.DeleteOptions{})
		assert.True(t, apierrors.IsForbidden(err), "%v", err)
	})
	t.Run("a watch the Role allows streams events", func(t *testing.T) {
		w, err := cs.CoreV1().ConfigMaps("team").Watch(ctx, metav1.ListOptions{})
		require.NoError(t, err)
		defer w.Stop()
		_, err = admin.CoreV1().ConfigMaps("team").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "watched"}}, metav1.CreateOptions{})
		require.NoError(t, err)
		select {
		case ev := <-w.ResultChan():
			assert.Equal(t, "watched", ev.Object.(*corev1.ConfigMap).Name)
		case <-time.After(2 * time.Minute):
			t.Fatal("no event")
		}
	})
	t.Run("a changed Role counts at once", func(t *testing.T) {
		_, err := cs.CoreV1().Secrets("team").List(ctx, metav1.ListOptions{})
		require.True(t, apierrors.IsForbidden(err))
		_, err = admin.RbacV1().Roles("team").Patch(ctx, "robot", types.JSONPatchType,
			[]byte(`[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["secrets"],"verbs":["list"]}}]`), metav1.PatchOptions{})
		require.NoError(t, err)
		_, err = cs.CoreV1().Secrets("team").List(ctx, metav1.ListOptions{})
		assert.NoError(t, err)
	})
	t.Run("a deleted RoleBinding counts at once for the request it allowed just before", func(t *testing.T) {
		for range 3 { // the same request, decided once and then remembered
			_, err := cs.CoreV1().ConfigMaps("team").Get(ctx, "watched", metav1.GetOptions{})
			require.NoError(t, err)
		}
		require.NoError(t, admin.RbacV1().RoleBindings("team").Delete(ctx, "robot", metav1.DeleteOptions{}))
		_, err := cs.CoreV1().ConfigMaps("team").Get(ctx, "watched", metav1.GetOptions{})
		assert.True(t, apierrors.IsForbidden(err), "%v", err)
	})
}

// TestKubectlCreateTokenAuthenticates: `kubectl create token` (the
// TokenRequest API) gives a token kubectl can use; a client certificate
// signed by the server's client CA authenticates its Common Name.
func TestKubectlCreateTokenAndClientCertificates(t *testing.T) {
	c := startSecureCluster(t, kapiserver.Options{})
	ctx := context.Background()
	setUpRobot(t, ctx, clientset(t, c.restConfig()))
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			token := strings.TrimSpace(c.mustKubectl(version, "-n", "team", "create", "token", "robot", "--duration", "20m"))
			kc := c.tokenKubeconfig(token)
			out, err := c.kubectlAs(kc, version, "-n", "team", "get", "cm", "c1", "-o", "name")
			require.NoError(t, err, out)
			assert.Equal(t, "configmap/c1\n", out)
			out, err = c.kubectlAs(kc, version, "-n", "other", "get", "cm")
			require.Error(t, err)
			assert.Equal(t, `Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:team:robot" cannot list resource "configmaps" in API group "" in the namespace "other"`+"\n", out)
		})
	}
	t.Run("a client certificate is its Common Name in its Organizations", func(t *testing.T) {
		cert, key, err := c.sec.ClientCA.IssueClient("dave", []string{"qa", "devs"}, time.Now())
		require.NoError(t, err)
		out, err := c.kubectlAs(c.certKubeconfig(cert, key), "1.33", "auth", "whoami", "-o", "jsonpath={.status.userInfo.username} {.status.userInfo.groups}")
		require.NoError(t, err, out)
		assert.Equal(t, `dave ["qa","devs","system:authenticated"]`, out)
	})
	t.Run("a client certificate from another CA is refused", func(t *testing.T) {
		other, err := kapiserver.NewCA("other", time.Now())
		require.NoError(t, err)
		cert, key, err := other.IssueClient("mallory", []string{"system:masters"}, time.Now())
		require.NoError(t, err)
		out, err := c.kubectlAs(c.certKubeconfig(cert, key), "1.33", "get", "ns")
		require.Error(t, err)
		assert.Contains(t, out, "error: You must be logged in to the server")
	})
}
