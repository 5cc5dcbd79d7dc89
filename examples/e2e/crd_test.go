package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/yaml"
)

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd], categories: [all]}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            description: The widget's desired state.
            required: [size]
            properties:
              size: {type: integer, description: How big the widget is., minimum: 1}
              color: {type: string, default: blue}
          status:
            type: object
            properties:
              ready: {type: boolean}
              replicas: {type: integer}
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.size, statusReplicasPath: .status.replicas}
    additionalPrinterColumns:
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Color, type: string, jsonPath: .spec.color, priority: 1}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
`

func widget(name, spec string) string {
	return "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: " + name + "\nspec:\n" + spec
}

func TestKubectlCustomResources(t *testing.T) {
	c := startCluster(t)
	out, err := c.kubectlStdin("1.33", widgetCRD, "apply", "-f", "-")
	require.NoError(t, err, out)
	assert.Contains(t, out, "customresourcedefinition.apiextensions.k8s.io/widgets.example.com created")

	out, err = c.kubectlStdin("1.33", widget("w1", "  size: 3\n"), "create", "-f", "-")
	require.NoError(t, err, out)
	out = c.mustKubectl("1.33", "get", "wd")
	assert.Regexp(t, `NAME\s+SIZE\s+AGE`, out, "printer columns from the CRD")
	assert.Regexp(t, `w1\s+3\s+\d+s`, out)
	out = c.mustKubectl("1.33", "get", "widgets", "-o", "wide")
	assert.Regexp(t, `w1\s+3\s+blue`, out, "priority 1 columns with -o wide, and the default applied")
	out = c.mustKubectl("1.33", "get", "all")
	assert.Contains(t, out, "widget.example.com/w1", "the CRD's categories")

	out = c.mustKubectl("1.33", "explain", "widget.spec.size")
	assert.Contains(t, out, "How big the widget is.")

	out, err = c.kubectlStdin("1.33", widget("w2", "  size: 3\n  bogus: 1\n"), "create", "--validate=strict", "-f", "-")
	require.Error(t, err)
	assert.Contains(t, out, `unknown field "spec.bogus"`)
	out, err = c.kubectlStdin("1.33", widget("w3", "  size: 3\n  bogus: 1\n"), "create", "--validate=warn", "-f", "-")
	require.NoError(t, err, out)
	assert.Contains(t, out, `Warning: unknown field "spec.bogus"`)
	out, err = c.kubectlStdin("1.33", widget("w4", "  size: two\n"), "create", "-f", "-")
	require.Error(t, err)
	assert.Contains(t, out, `spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"`)

	out = c.mustKubectl("1.33", "scale", "widget", "w1", "--replicas=4")
	assert.Contains(t, out, "widget.example.com/w1 scaled")
	assert.Equal(t, "4", c.mustKubectl("1.33", "get", "widget", "w1", "-o", "jsonpath={.spec.size}"))

	out = c.mustKubectl("1.33", "delete", "crd", "widgets.example.com")
	assert.Contains(t, out, "deleted")
	out, err = c.kubectl("1.33", "get", "widgets.example.com")
	require.Error(t, err)
	assert.Contains(t, out, "the server doesn't have a resource type")
}

func TestDynamicClientCustomResourceLifecycle(t *testing.T) {
	c := startCluster(t)
	ctx := context.Background()
	out, err := c.kubectlStdin("1.33", widgetCRD, "apply", "-f", "-")
	require.NoError(t, err, out)

	cfg := c.restConfig()
	var warnings []string
	cfg.WarningHandler = collectWarnings(&warnings)
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	crds := dc.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	gvr := schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	widgets := dc.Resource(gvr).Namespace("default")

	crd, err := crds.Get(ctx, "widgets.example.com", metav1.GetOptions{})
	require.NoError(t, err)
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	assert.Contains(t, conds, map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted",
		"message": "the initial names have been accepted", "lastTransitionTime": conds[1].(map[string]any)["lastTransitionTime"]})

	w := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"}, "spec": map[string]any{"size": int64(2)}}}
	created, err := widgets.Create(ctx, w, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "blue", created.Object["spec"].(map[string]any)["color"])

	// Status subresource: UpdateStatus changes only the status.
	unstructured.SetNestedField(created.Object, true, "status", "ready")
	unstructured.SetNestedField(created.Object, int64(7), "spec", "size")
	st, err := widgets.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	require.NoError(t, err)
	ready, _, _ := unstructured.NestedBool(st.Object, "status", "ready")
	size, _, _ := unstructured.NestedInt64(st.Object, "spec", "size")
	assert.True(t, ready)
	assert.EqualValues(t, 2, size, "a status write ignores the spec")

	// Scale subresource.
	scale, err := widgets.Get(ctx, "w", metav1.GetOptions{}, "scale")
	require.NoError(t, err)
	assert.Equal(t, "Scale", scale.GetKind())
	unstructured.SetNestedField(scale.Object, int64(5), "spec", "replicas")
	_, err = widgets.Update(ctx, scale, metav1.UpdateOptions{}, "scale")
	require.NoError(t, err)
	got, err := widgets.Get(ctx, "w", metav1.GetOptions{})
	require.NoError(t, err)
	size, _, _ = unstructured.NestedInt64(got.Object, "spec", "size")
	assert.EqualValues(t, 5, size)

	// Updating the CRD changes the schema in force: a new field is kept.
	crd, err = crds.Get(ctx, "widgets.example.com", metav1.GetOptions{})
	require.NoError(t, err)
	versions, _, _ := unstructured.NestedSlice(crd.Object, "spec", "versions")
	props := versions[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any)["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
	props["shape"] = map[string]any{"type": "string"}
	unstructured.SetNestedSlice(crd.Object, versions, "spec", "versions")
	_, err = crds.Update(ctx, crd, metav1.UpdateOptions{})
	require.NoError(t, err)
	shaped := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "shaped"}, "spec": map[string]any{"size": int64(1), "shape": "round"}}}
	shapedOut, err := widgets.Create(ctx, shaped, metav1.CreateOptions{})
	require.NoError(t, err)
	shape, _, _ := unstructured.NestedString(shapedOut.Object, "spec", "shape")
	assert.Equal(t, "round", shape)

	// Duplicate fields with Strict are a 400; unknown fields warn by default.
	raw := `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"dup"},"spec":{"size":1},"spec":{"size":2}}`
	rc, err := rest.UnversionedRESTClientFor(unversionedConfig(c.restConfig()))
	require.NoError(t, err)
	res := rc.Post().AbsPath("/apis/example.com/v1/namespaces/default/widgets").Param("fieldValidation", "Strict").
		SetHeader("Content-Type", "application/json").Body([]byte(raw)).Do(ctx)
	require.Error(t, res.Error())
	assert.True(t, apierrors.IsBadRequest(res.Error()), "%v", res.Error())
	assert.Contains(t, res.Error().Error(), `duplicate field "spec"`)

	// Deleting the CRD removes the custom resources and the endpoints.
	require.NoError(t, crds.Delete(ctx, "widgets.example.com", metav1.DeleteOptions{}))
	assert.Eventually(t, func() bool {
		_, err := widgets.List(ctx, metav1.ListOptions{})
		return apierrors.IsNotFound(err)
	}, 2*time.Minute, 20*time.Millisecond)
	_, err = crds.Create(ctx, mustYAMLObject(t, widgetCRD), metav1.CreateOptions{})
	require.NoError(t, err)
	list, err := widgets.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Empty(t, list.Items, "recreating the CRD does not bring back old custom resources")

	bogus := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "bogus"}, "spec": map[string]any{"size": int64(1), "bogus": true}}}
	_, err = widgets.Create(ctx, bogus, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(warnings, "\n"), `unknown field "spec.bogus"`, "unknown fields warn by default")
}

// collectWarnings collects the Warning headers client-go receives.
func collectWarnings(into *[]string) rest.WarningHandler {
	return warningFunc(func(message string) { *into = append(*into, message) })
}

type warningFunc func(string)

func (f warningFunc) HandleWarningHeader(_ int, _, message string) { f(message) }

// unversionedConfig is a rest config for raw requests.
func unversionedConfig(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	return cfg
}

// mustYAMLObject parses a YAML manifest.
func mustYAMLObject(t *testing.T, manifest string) *unstructured.Unstructured {
	t.Helper()
	obj := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(manifest), &obj.Object))
	return obj
}
