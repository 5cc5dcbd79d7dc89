package e2e

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// contentTypeRecorder is a transport that notes the Content-Type of every
// request body and of every response, to show which encoding a client used.
type contentTypeRecorder struct {
	next http.RoundTripper

	mu        sync.Mutex
	requests  []string
	responses []string
}

func (r *contentTypeRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	r.mu.Lock()
	defer r.mu.Unlock()
	if req.Body != nil {
		r.requests = append(r.requests, req.Header.Get("Content-Type"))
	}
	if resp != nil {
		r.responses = append(r.responses, resp.Header.Get("Content-Type"))
	}
	return resp, err
}

func (r *contentTypeRecorder) seen() (requests, responses []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...), append([]string(nil), r.responses...)
}

// gadgetCRD is a CRD whose schema uses the apiextensions types with a JSON
// form of their own (defaults, enums, additionalProperties true and as a
// schema, items, x-kubernetes-validations), so that their protobuf form is
// exercised both ways.
func gadgetCRD() *apiextensionsv1.CustomResourceDefinition {
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gadgets.proto.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "proto.example.com", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "gadgets", Kind: "Gadget", ShortNames: []string{"gd"}},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type: "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{
						"spec": {
							Type: "object",
							Properties: map[string]apiextensionsv1.JSONSchemaProps{
								"size":   {Type: "integer", Minimum: ptr(1.0), Default: &apiextensionsv1.JSON{Raw: []byte("3")}},
								"color":  {Type: "string", Enum: []apiextensionsv1.JSON{{Raw: []byte(`"red"`)}, {Raw: []byte(`"blue"`)}}},
								"labels": {Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}},
								"extra":  {Type: "object", XPreserveUnknownFields: ptr(true)},
								"tags":   {Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}},
							},
							XValidations: apiextensionsv1.ValidationRules{{Rule: "self.size < 100", Message: "too big"}},
						},
						"status": {Type: "object", XPreserveUnknownFields: ptr(true)},
					},
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
				AdditionalPrinterColumns: []apiextensionsv1.CustomResourceColumnDefinition{
					{Name: "Size", Type: "integer", JSONPath: ".spec.size"},
				},
			}},
		},
	}
}

// A CRD is created, read, watched and deleted through client-go's typed
// apiextensions clientset with its default content type, protobuf, as
// Kubernetes' own e2e tests drive it.
func TestCRDThroughTheTypedClientsetInProtobuf(t *testing.T) {
	c := startCluster(t)
	cfg := c.restConfig()
	recorder := &contentTypeRecorder{next: http.DefaultTransport}
	cfg.WrapTransport = func(http.RoundTripper) http.RoundTripper { return recorder }
	cs, err := apiextensionsclient.NewForConfig(cfg)
	require.NoError(t, err)
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	w, err := crds.Watch(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	defer w.Stop()

	created, err := crds.Create(ctx, gadgetCRD(), metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, "gadgets.proto.example.com", created.Name)
	assert.NotEmpty(t, created.UID)
	assert.Equal(t, "GadgetList", created.Spec.Names.ListKind, "defaulted by the server")
	assert.Equal(t, "None", string(created.Spec.Conversion.Strategy))
	props := created.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties
	assert.Equal(t, "3", string(props["size"].Default.Raw), "JSON survives the round trip")
	assert.Len(t, props["color"].Enum, 2)
	assert.True(t, props["labels"].AdditionalProperties.Allows)
	assert.Equal(t, "string", props["labels"].AdditionalProperties.Schema.Type)
	assert.Equal(t, "string", props["tags"].Items.Schema.Type)
	assert.True(t, *props["extra"].XPreserveUnknownFields)
	assert.Equal(t, "self.size < 100", created.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].XValidations[0].Rule)

	got, err := crds.Get(ctx, created.Name, metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, created.UID, got.UID)
	established := false
	for _, cond := range got.Status.Conditions {
		established = established || cond.Type == apiextensionsv1.Established && cond.Status == apiextensionsv1.ConditionTrue
	}
	assert.True(t, established, "the CRD is established before its create returns")

	list, err := crds.List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Len(t, list.Items, 1)

	got.Spec.Names.ShortNames = []string{"gd", "gdt"}
	updated, err := crds.Update(ctx, got, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"gd", "gdt"}, updated.Spec.Names.ShortNames)

	require.NoError(t, crds.Delete(ctx, created.Name, metav1.DeleteOptions{}))
	require.Eventually(t, func() bool {
		_, err := crds.Get(ctx, created.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err)
	}, 2*time.Minute, 20*time.Millisecond)

	// The watch saw it come, change and go, each event decoded from protobuf.
	var types []watch.EventType
	for len(types) == 0 || types[len(types)-1] != watch.Deleted {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the watch ended early after %v", types)
			crd, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
			require.True(t, isCRD, "%T", ev.Object)
			assert.Equal(t, created.Name, crd.Name)
			types = append(types, ev.Type)
		case <-ctx.Done():
			t.Fatalf("no DELETED event; saw %v", types)
		}
	}
	assert.Equal(t, watch.Added, types[0])
	assert.Contains(t, types, watch.Modified)

	requests, responses := recorder.seen()
	for _, ct := range requests {
		assert.Equal(t, "application/vnd.kubernetes.protobuf", ct, "the clientset's default request encoding")
	}
	protobufAnswers := 0
	for _, ct := range responses {
		if strings.HasPrefix(ct, "application/vnd.kubernetes.protobuf") {
			protobufAnswers++
		}
	}
	assert.GreaterOrEqual(t, protobufAnswers, 5, "answers: %v", responses)
}

// The same life of a CRD through kubectl, which speaks JSON and reads
// discovery and the OpenAPI documents to do so.
func TestCRDThroughKubectl(t *testing.T) {
	c := startCluster(t)
	k := kubectlFor(t, c, "1.33")
	out := k.withStdin(widgetCRD).must("apply", "-f", "-")
	assert.Contains(t, out, "customresourcedefinition.apiextensions.k8s.io/widgets.example.com created")
	out = k.must("get", "crd", "widgets.example.com", "-o", "jsonpath={.status.conditions[?(@.type=='Established')].status}")
	assert.Equal(t, "True", out)

	// kubectl get --watch prints the CRD, and its deletion, as it happens.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, kubectlBinary(t, "1.33"), "--kubeconfig", c.kubeconfig,
		"get", "crd", "widgets.example.com", "--watch", "--output-watch-events")
	cmd.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(t.TempDir(), "cache"), "HOME="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := bufio.NewScanner(stdout)
	require.True(t, lines.Scan(), "kubectl prints a header or the first event")
	watchOut := lines.Text() + "\n"
	for !strings.Contains(watchOut, "ADDED") && lines.Scan() {
		watchOut += lines.Text() + "\n"
	}
	require.Contains(t, watchOut, "ADDED")
	out = k.must("delete", "crd", "widgets.example.com")
	assert.Contains(t, out, `customresourcedefinition.apiextensions.k8s.io "widgets.example.com" deleted`)
	_, errOut, err := k.run("get", "crd", "widgets.example.com")
	require.Error(t, err)
	assert.Contains(t, errOut, `customresourcedefinitions.apiextensions.k8s.io "widgets.example.com" not found`)
	for !strings.Contains(watchOut, "DELETED") && lines.Scan() {
		watchOut += lines.Text() + "\n"
	}
	assert.Contains(t, watchOut, "DELETED", "kubectl's watch shows the deletion")
}
