package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

const deletedCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`

// TestDeletingACRDOnTheExampleServer: kubectl delete crd succeeds on the
// example server as it ships, the DELETE answers the CRD marked for
// deletion with its cleanup finalizer (kube's 200), and the CRD can be
// created again at once.
func TestDeletingACRDOnTheExampleServer(t *testing.T) {
	c, _ := startSecureControlledCluster(t)
	path := filepath.Join(t.TempDir(), "crd.yaml")
	require.NoError(t, os.WriteFile(path, []byte(deletedCRD), 0o600))
	dyn, err := dynamic.NewForConfig(c.restConfig())
	require.NoError(t, err)
	crds := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	ctx := context.Background()
	rc, err := rest.UnversionedRESTClientFor(unversionedConfig(c.restConfig()))
	require.NoError(t, err)

	t.Run("kubectl delete crd", func(t *testing.T) {
		c.mustKubectl("1.33", "create", "-f", path)
		out := c.mustKubectl("1.33", "delete", "crd", "gadgets.example.com")
		assert.Equal(t, `customresourcedefinition.apiextensions.k8s.io "gadgets.example.com" deleted`, strings.TrimSpace(out))
		_, err := crds.Get(ctx, "gadgets.example.com", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "the CRD goes: %v", err)
	})
	t.Run("the DELETE answers the CRD marked for deletion, and it can be created again", func(t *testing.T) {
		for _, round := range []string{"created again", "and again"} {
			c.mustKubectl("1.33", "create", "-f", path)
			body, err := rc.Delete().AbsPath("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com").
				Do(ctx).Raw()
			require.NoError(t, err, round)
			assert.Contains(t, string(body), `"deletionTimestamp":`, round)
			assert.Contains(t, string(body), `"finalizers":["customresourcecleanup.apiextensions.k8s.io"]`, round)
		}
	})
}
