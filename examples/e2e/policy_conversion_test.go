package e2e

import (
	"context"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/conversion"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// PaintV1 (conv.example.com/v1, the storage version and conversion hub)
// names its colour spec.color; PaintV2 names it spec.colour. They are an
// operator's two API versions, converted by controller-runtime's
// conversion webhook.
type PaintV1 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Color string `json:"color,omitempty"`
	} `json:"spec,omitempty"`
}

func (p *PaintV1) DeepCopyObject() runtime.Object {
	c := *p
	p.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

// Hub marks v1 as the version every other converts through.
func (*PaintV1) Hub() {}

type PaintV2 struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              struct {
		Colour string `json:"colour,omitempty"`
	} `json:"spec,omitempty"`
}

func (p *PaintV2) DeepCopyObject() runtime.Object {
	c := *p
	p.ObjectMeta.DeepCopyInto(&c.ObjectMeta)
	return &c
}

func (p *PaintV2) ConvertTo(dst conversion.Hub) error {
	h := dst.(*PaintV1)
	p.ObjectMeta.DeepCopyInto(&h.ObjectMeta)
	h.Spec.Color = p.Spec.Colour
	return nil
}

func (p *PaintV2) ConvertFrom(src conversion.Hub) error {
	h := src.(*PaintV1)
	h.ObjectMeta.DeepCopyInto(&p.ObjectMeta)
	p.Spec.Colour = h.Spec.Color
	return nil
}

var (
	paintV1GV = schema.GroupVersion{Group: "conv.example.com", Version: "v1"}
	paintV2GV = schema.GroupVersion{Group: "conv.example.com", Version: "v2"}
)

const paintsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: paints.conv.example.com}
spec:
  group: conv.example.com
  scope: Namespaced
  names: {plural: paints, singular: paint, kind: Paint}
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {url: "%s", caBundle: %s}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {color: {type: string}}}}}}
    additionalPrinterColumns: [{name: Color, type: string, jsonPath: .spec.color}]
  - name: v2
    served: true
    storage: false
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {colour: {type: string}}}}}}
    additionalPrinterColumns: [{name: Colour, type: string, jsonPath: .spec.colour}]
`

// TestConversionWebhookServesTwoVersions registers controller-runtime's
// conversion webhook (ctrl.NewWebhookManagedBy on a hub and a spoke, on
// loopback TLS) for a CRD stored at v1 and served at v1 and v2, and reads
// and writes both versions through kubectl, client-go's dynamic client, a
// watch and controller-runtime's typed client, as kube serves them
// (docs/kube-behaviour/12-policy.md, "CRD conversion webhooks").
func TestConversionWebhookServesTwoVersions(t *testing.T) {
	c := startCluster(t)
	ca, err := kapiserver.NewCA("conversion-ca", time.Now())
	require.NoError(t, err)
	certPEM, keyPEM, err := ca.IssueServing([]string{"127.0.0.1"}, time.Now())
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.crt"), certPEM, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.key"), keyPEM, 0o600))
	port := freePort(t)

	scheme := runtime.NewScheme()
	scheme.AddKnownTypeWithName(paintV1GV.WithKind("Paint"), &PaintV1{})
	scheme.AddKnownTypeWithName(paintV2GV.WithKind("Paint"), &PaintV2{})
	metav1.AddToGroupVersion(scheme, paintV1GV)
	metav1.AddToGroupVersion(scheme, paintV2GV)
	mgr, err := ctrl.NewManager(c.restConfig(), ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer:          webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: port, CertDir: dir}),
		Controller:             config.Controller{SkipNameValidation: ptr(true)},
	})
	require.NoError(t, err)
	require.NoError(t, ctrl.NewWebhookManagedBy(mgr, &PaintV2{}).Complete())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return mgr.GetWebhookServer().StartedChecker()(nil) == nil }, 2*time.Minute, 20*time.Millisecond)

	caBundle := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw}))
	c.mustKubectlStdin("1.33", fmt.Sprintf(paintsCRD, fmt.Sprintf("https://127.0.0.1:%d/convert", port), caBundle), "apply", "-f", "-")
	c.mustKubectl("1.33", "wait", "--for=condition=Established", "crd/paints.conv.example.com", "--timeout=20s")

	// One paint written at each version.
	c.mustKubectlStdin("1.33", "apiVersion: conv.example.com/v1\nkind: Paint\nmetadata: {name: red}\nspec: {color: red}\n", "apply", "-f", "-")
	dc, err := dynamic.NewForConfig(c.restConfig())
	require.NoError(t, err)
	v2 := dc.Resource(paintV2GV.WithResource("paints")).Namespace("default")
	created, err := v2.Create(context.Background(), &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "conv.example.com/v2", "kind": "Paint", "metadata": map[string]any{"name": "blue"},
		"spec": map[string]any{"colour": "blue"}}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"colour": "blue"}, created.Object["spec"])

	// kubectl reads the preferred version (v2, kube's version priority)
	// and either version by name, each with its own columns.
	for _, v := range []string{"1.33", "1.27"} {
		assert.Equal(t, "NAME   COLOUR\nblue   blue\nred    red\n", c.mustKubectl(v, "get", "paints"), "kubectl %s", v)
		assert.Equal(t, "NAME   COLOR\nblue   blue\nred    red\n", c.mustKubectl(v, "get", "paints.v1.conv.example.com"), "kubectl %s", v)
		assert.Equal(t, "red", c.mustKubectl(v, "get", "paints.v2.conv.example.com", "red", "-o", "jsonpath={.spec.colour}"))
		assert.Equal(t, "blue", c.mustKubectl(v, "get", "paints.v1.conv.example.com", "blue", "-o", "jsonpath={.spec.color}"))
	}

	// controller-runtime's typed client reads and writes v2.
	cl, err := client.New(c.restConfig(), client.Options{Scheme: scheme})
	require.NoError(t, err)
	var red PaintV2
	require.NoError(t, cl.Get(context.Background(), client.ObjectKey{Namespace: "default", Name: "red"}, &red))
	assert.Equal(t, "red", red.Spec.Colour)
	red.Spec.Colour = "crimson"
	require.NoError(t, cl.Update(context.Background(), &red))
	assert.Equal(t, "crimson", c.mustKubectl("1.33", "get", "paints.v1.conv.example.com", "red", "-o", "jsonpath={.spec.color}"))

	// A watch at v2 sees writes made at v1 converted.
	list, err := v2.List(context.Background(), metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 2)
	w, err := v2.Watch(context.Background(), metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	require.NoError(t, err)
	defer w.Stop()
	c.mustKubectl("1.33", "patch", "paints.v1.conv.example.com", "blue", "--type=merge", "-p", `{"spec":{"color":"navy"}}`)
	c.mustKubectlStdin("1.33", "apiVersion: conv.example.com/v1\nkind: Paint\nmetadata: {name: green}\nspec: {color: green}\n", "create", "-f", "-")
	for _, want := range []struct {
		typ          watch.EventType
		name, colour string
	}{{watch.Modified, "blue", "navy"}, {watch.Added, "green", "green"}} {
		select {
		case ev := <-w.ResultChan():
			require.Equal(t, want.typ, ev.Type, "%v", ev.Object)
			u := ev.Object.(*unstructured.Unstructured)
			assert.Equal(t, "conv.example.com/v2", u.GetAPIVersion())
			assert.Equal(t, want.name, u.GetName())
			assert.Equal(t, map[string]any{"colour": want.colour}, u.Object["spec"])
		case <-time.After(2 * time.Minute):
			t.Fatalf("no %s event for %s", want.typ, want.name)
		}
	}

	// Server-side apply at v2 conflicts with the manager that wrote the
	// field at v1, named at its version, as kube names it.
	manifest := "apiVersion: conv.example.com/v2\nkind: Paint\nmetadata: {name: blue}\nspec: {colour: teal}\n"
	out, err := c.kubectlStdin("1.33", manifest, "apply", "--server-side", "--field-manager=painter", "-f", "-")
	require.Error(t, err)
	assert.Contains(t, out, `Apply failed with 1 conflict: conflict with "kubectl-patch" using conv.example.com/v1: .spec.color`)
	c.mustKubectlStdin("1.33", manifest, "apply", "--server-side", "--field-manager=painter", "--force-conflicts", "-f", "-")
	assert.Equal(t, "teal", c.mustKubectl("1.33", "get", "paints.v1.conv.example.com", "blue", "-o", "jsonpath={.spec.color}"))
}
