package e2e

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// These tests hold, through real clients against the example server's
// configuration, answers where kapi and kube-apiserver 1.33 once differed
// (docs/kube-behaviour/19-divergences.md).

// TestAControllerRevisionReadsBackTheBytesItWasWrittenWith writes a
// ControllerRevision as kube's controller history does (data in the Go
// struct's field order, not sorted) and finds the same bytes when it reads
// it back, which the history's EqualRevision compares: otherwise a
// StatefulSet controller or an operator creates a new revision each sync.
// It writes JSON: a protobuf write still stores the data decoded, keys
// sorted (not yet kube's).
func TestAControllerRevisionReadsBackTheBytesItWasWrittenWith(t *testing.T) {
	c := startCluster(t)
	raw := []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"c","image":"nginx"}]},"$patch":"replace"}},"b":1.50}`)
	cfg := c.restConfig()
	cfg.ContentType = runtime.ContentTypeJSON
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	created, err := cs.AppsV1().ControllerRevisions("default").Create(context.Background(), &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{Name: "rev"}, Data: runtime.RawExtension{Raw: raw}, Revision: 1}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, string(raw), string(created.Data.Raw))
	for _, contentType := range []string{runtime.ContentTypeJSON, runtime.ContentTypeProtobuf} {
		cfg := c.restConfig()
		cfg.AcceptContentTypes, cfg.ContentType = contentType, contentType
		cs, err := kubernetes.NewForConfig(cfg)
		require.NoError(t, err)
		got, err := cs.AppsV1().ControllerRevisions("default").Get(context.Background(), "rev", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, string(raw), string(got.Data.Raw), "read as %s", contentType)
	}
}

// TestACRDStatusConditionWithOnlyAMessageIsKept is Kubernetes' e2e "should
// apply changes to a CRD status": an update and a JSON patch of /status
// with a condition that has only a message.
func TestACRDStatusConditionWithOnlyAMessageIsKept(t *testing.T) {
	c := startCluster(t)
	cs, err := apiextensionsclient.NewForConfig(c.restConfig())
	require.NoError(t, err)
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	crd, err := crds.Create(context.Background(), &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "notes.e2e.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: "e2e.example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "notes", Kind: "Note"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}}}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	updated := apiextensionsv1.CustomResourceDefinitionCondition{Message: "updated"}
	crd.Status.Conditions = append(crd.Status.Conditions, updated)
	crd, err = crds.UpdateStatus(context.Background(), crd, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Contains(t, crd.Status.Conditions, updated)
	patched, err := crds.Patch(context.Background(), crd.Name, "application/json-patch+json",
		[]byte(`[{"op": "add", "path": "/status/conditions", "value": [{"message": "patched"}]}]`), metav1.PatchOptions{}, "status")
	require.NoError(t, err)
	assert.Contains(t, patched.Status.Conditions, apiextensionsv1.CustomResourceDefinitionCondition{Message: "patched"})
}

// TestKubectlGetsKubesAnswers runs kubectl where kube answers what kapi
// once answered otherwise, and expects kube's output.
func TestKubectlGetsKubesAnswers(t *testing.T) {
	c := startClusterWith(t, kapiserver.ConfigFor(apiserver.Release133)) // kube 1.33's answers, as recorded
	k := func(stdin string, args ...string) (string, error) { return c.kubectlStdin("1.33", stdin, args...) }

	t.Run("an Event named by generateName web-0. is created", func(t *testing.T) {
		out, err := k("apiVersion: v1\nkind: Event\nmetadata: {generateName: web-0., namespace: default}\n"+
			"involvedObject: {kind: Pod, name: web-0, namespace: default}\nreason: Started\ntype: Normal\n", "create", "-f", "-")
		require.NoError(t, err, out)
		assert.Regexp(t, regexp.MustCompile(`^event/web-0\.[a-z0-9]{5} created\n$`), out)
	})
	t.Run("a Node's podCIDR is the first of its podCIDRs", func(t *testing.T) {
		out, err := k("apiVersion: v1\nkind: Node\nmetadata: {name: n-cidr}\nspec: {podCIDR: 10.0.0.0/24}\n", "create", "-f", "-")
		require.NoError(t, err, out)
		assert.Equal(t, `["10.0.0.0/24"]`, c.mustKubectl("1.33", "get", "node", "n-cidr", "-o", "jsonpath={.spec.podCIDRs}"))
		out, err = k("", "patch", "node", "n-cidr", "--type=merge", "-p", `{"spec":{"podCIDR":"10.1.0.0/24","podCIDRs":["10.1.0.0/24"]}}`)
		require.Error(t, err)
		assert.Equal(t, `The Node "n-cidr" is invalid: spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid`+"\n", out)
	})
	t.Run("a local APIService is available", func(t *testing.T) {
		out, err := k("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {name: v1.local.example.com}\n"+
			"spec: {group: local.example.com, version: v1, groupPriorityMinimum: 100, versionPriority: 10}\n", "create", "-f", "-")
		require.NoError(t, err, out)
		assert.Equal(t, "True/Local/Local APIServices are always available", c.mustKubectl("1.33", "get", "apiservice", "v1.local.example.com", "-o",
			`jsonpath={.status.conditions[?(@.type=="Available")].status}/{.status.conditions[0].reason}/{.status.conditions[0].message}`))
	})
	t.Run("an aggregation rule needs a selector", func(t *testing.T) {
		out, err := k("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: agg}\naggregationRule: {clusterRoleSelectors: []}\n",
			"create", "-f", "-")
		require.Error(t, err)
		assert.Equal(t, `The ClusterRole "agg" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil`+"\n", out)
	})
	t.Run("an EndpointSlice's address type change is refused as immutable alone", func(t *testing.T) {
		out, err := k("apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: es, namespace: default}\naddressType: IPv4\n"+
			"endpoints: [{addresses: [10.0.0.1]}]\n", "create", "-f", "-")
		require.NoError(t, err, out)
		out, err = k("", "patch", "endpointslice", "es", "--type=merge", "-p", `{"addressType":"IPv6"}`)
		require.Error(t, err)
		assert.Equal(t, `The EndpointSlice "es" is invalid: addressType: Invalid value: "IPv6": field is immutable`+"\n", out)
	})
	t.Run("a conflict on a CRD names kube's storage key", func(t *testing.T) {
		crd := "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: keys.e2e.example.com%s}\n" +
			"spec:\n  group: e2e.example.com\n  scope: Cluster\n  names: {plural: keys, kind: Key}\n" +
			"  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n"
		out, err := k(strings.Replace(crd, "%s", "", 1), "create", "-f", "-")
		require.NoError(t, err, out)
		out, err = k(strings.Replace(crd, "%s", ", uid: 00000000-0000-0000-0000-000000000000", 1), "replace", "-f", "-")
		require.Error(t, err)
		assert.Contains(t, out, `Operation cannot be fulfilled on customresourcedefinitions.apiextensions.k8s.io "keys.e2e.example.com": `+
			`StorageError: invalid object, Code: 4, Key: /registry/apiextensions.k8s.io/customresourcedefinitions/keys.e2e.example.com, ResourceVersion: 0`)
	})
}
