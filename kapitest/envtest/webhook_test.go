package envtest_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	crenvtest "sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// startEnv starts env and stops it when the test ends.
func startEnv(t *testing.T, env *envtest.Environment) *kubernetes.Clientset {
	t.Helper()
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, env.Stop()) })
	return kubernetes.NewForConfigOrDie(cfg)
}

// servedAt is the base of the webhook URLs envtest writes: the serving
// address and a slash, to which each webhook's service path (itself
// beginning with a slash) is appended, as envtest does.
func servedAt(o envtest.WebhookInstallOptions, host string) string {
	return "https://" + net.JoinHostPort(host, strconv.Itoa(o.LocalServingPort)) + "/"
}

func validatingHook(name, path string) *admissionregistrationv1.ValidatingWebhookConfiguration {
	none := admissionregistrationv1.SideEffectClassNone
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name:         name + ".example.com",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "system", Name: "webhook-service", Path: &path}},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{"example.kapi.dev"}, APIVersions: []string{"v1"}, Resources: []string{"gizmos"}},
			}},
			SideEffects:             &none,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
}

func TestStartInstallsTheWebhooksOfPathsAndObjectsPointingAtTheLocalServer(t *testing.T) {
	env := &envtest.Environment{WebhookInstallOptions: envtest.WebhookInstallOptions{
		Paths:              []string{"testdata/webhook"},
		ValidatingWebhooks: []*admissionregistrationv1.ValidatingWebhookConfiguration{validatingHook("typed", "/validate-typed")},
	}}
	cs := startEnv(t, env)
	o := env.WebhookInstallOptions

	assert.Equal(t, "127.0.0.1", o.LocalServingHost, "a free port on loopback was picked")
	assert.NotZero(t, o.LocalServingPort)
	assert.FileExists(t, filepath.Join(o.LocalServingCertDir, "tls.crt"))
	assert.FileExists(t, filepath.Join(o.LocalServingCertDir, "tls.key"))
	require.NotEmpty(t, o.LocalServingCAData)
	require.Len(t, o.MutatingWebhooks, 1, "read from the manifests; the Service and kustomize files beside them are skipped")
	require.Len(t, o.ValidatingWebhooks, 2, "the typed one, then the manifests'")

	base := servedAt(o, "127.0.0.1")
	mutating, err := cs.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(t.Context(), "mutating-webhook-configuration", metav1.GetOptions{})
	require.NoError(t, err)
	require.Len(t, mutating.Webhooks, 1)
	assert.Nil(t, mutating.Webhooks[0].ClientConfig.Service)
	assert.Equal(t, base+"/mutate-example-kapi-dev-v1-widget", *mutating.Webhooks[0].ClientConfig.URL)
	assert.Equal(t, o.LocalServingCAData, mutating.Webhooks[0].ClientConfig.CABundle)

	for name, path := range map[string]string{"typed": "/validate-typed", "validating-webhook-configuration": "/validate-example-kapi-dev-v1-widget"} {
		validating, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(t.Context(), name, metav1.GetOptions{})
		require.NoError(t, err, name)
		require.Len(t, validating.Webhooks, 1)
		assert.Nil(t, validating.Webhooks[0].ClientConfig.Service)
		assert.Equal(t, base+path, *validating.Webhooks[0].ClientConfig.URL)
		assert.Equal(t, o.LocalServingCAData, validating.Webhooks[0].ClientConfig.CABundle)
	}
}

func TestAWebhookWithNoServerBehindItFailsTheWriteAsKubeDoes(t *testing.T) {
	// failurePolicy defaults to Fail: with no webhook server listening,
	// kube refuses the write and says why.
	env := &envtest.Environment{
		CRDs: []*apiextensionsv1.CustomResourceDefinition{gizmoCRD(t, false)},
		WebhookInstallOptions: envtest.WebhookInstallOptions{
			ValidatingWebhooks: []*admissionregistrationv1.ValidatingWebhookConfiguration{validatingHook("gizmos", "/validate")},
		},
	}
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, env.Stop()) })
	_, err = dynamic.NewForConfigOrDie(cfg).Resource(gizmosV1).Namespace("default").Create(t.Context(), gizmo("g", "v1"), metav1.CreateOptions{})
	require.True(t, apierrors.IsInternalError(err), "%v", err)
	assert.True(t, strings.HasPrefix(err.Error(),
		`Internal error occurred: failed calling webhook "gizmos.example.com": failed to call webhook: Post "https://127.0.0.1:`), err.Error())
	assert.Contains(t, err.Error(), "connect: connection refused")
}

func TestStopRemovesTheServingCertificateDirectory(t *testing.T) {
	env := &envtest.Environment{}
	_, err := env.Start()
	require.NoError(t, err)
	dir := env.WebhookInstallOptions.LocalServingCertDir
	require.DirExists(t, dir, "prepared even without webhooks, as envtest does")
	require.NoError(t, env.Stop())
	assert.NoDirExists(t, dir)
}

func TestAMissingWebhookPathFailsStartUnlessIgnored(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ignore bool
	}{
		{name: "fails Start", ignore: false},
		{name: "is skipped with IgnoreErrorIfPathMissing", ignore: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &envtest.Environment{WebhookInstallOptions: envtest.WebhookInstallOptions{
				Paths: []string{"no/such/webhooks", "testdata/webhook"}, IgnoreErrorIfPathMissing: tc.ignore,
			}}
			_, err := env.Start()
			t.Cleanup(func() { require.NoError(t, env.Stop()) })
			if !tc.ignore {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "no/such/webhooks")
				return
			}
			require.NoError(t, err)
			assert.Len(t, env.WebhookInstallOptions.MutatingWebhooks, 1)
		})
	}
}

func TestTheServingAddressIsTheOneGivenAndTheURLsNameTheExternalName(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())

	env := &envtest.Environment{WebhookInstallOptions: envtest.WebhookInstallOptions{
		ValidatingWebhooks:           []*admissionregistrationv1.ValidatingWebhookConfiguration{validatingHook("typed", "/validate")},
		LocalServingHost:             "127.0.0.1",
		LocalServingPort:             port,
		LocalServingHostExternalName: "localhost",
	}}
	cs := startEnv(t, env)
	assert.Equal(t, "127.0.0.1", env.WebhookInstallOptions.LocalServingHost)
	assert.Equal(t, port, env.WebhookInstallOptions.LocalServingPort)
	got, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(t.Context(), "typed", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "https://localhost:"+strconv.Itoa(port)+"//validate", *got.Webhooks[0].ClientConfig.URL)
}

var (
	gizmosV1 = schema.GroupVersionResource{Group: "example.kapi.dev", Version: "v1", Resource: "gizmos"}
	gizmosV2 = schema.GroupVersionResource{Group: "example.kapi.dev", Version: "v2", Resource: "gizmos"}
)

// gizmoCRD is a CRD served at v1 (stored) and v2, whose manifest names a
// conversion webhook behind a cluster Service, as kubebuilder's
// kustomize patches write it.
func gizmoCRD(t *testing.T, withConversion bool) *apiextensionsv1.CustomResourceDefinition {
	t.Helper()
	version := func(name string, storage bool) apiextensionsv1.CustomResourceDefinitionVersion {
		yes := true
		return apiextensionsv1.CustomResourceDefinitionVersion{Name: name, Served: true, Storage: storage,
			Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
				Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{
					"spec": {Type: "object", XPreserveUnknownFields: &yes},
				}}}}
	}
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "gizmos.example.kapi.dev"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.kapi.dev", Scope: apiextensionsv1.NamespaceScoped,
			Names:    apiextensionsv1.CustomResourceDefinitionNames{Plural: "gizmos", Singular: "gizmo", Kind: "Gizmo", ListKind: "GizmoList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{version("v1", true), version("v2", false)},
		},
	}
	if withConversion {
		path := "/convert"
		crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{
			Strategy: apiextensionsv1.WebhookConverter,
			Webhook: &apiextensionsv1.WebhookConversion{
				ConversionReviewVersions: []string{"v1"},
				ClientConfig: &apiextensionsv1.WebhookClientConfig{
					Service: &apiextensionsv1.ServiceReference{Namespace: "system", Name: "webhook-service", Path: &path},
				},
			},
		}
	}
	return crd
}

func gizmo(name, version string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.kapi.dev/" + version, "kind": "Gizmo",
		"metadata": map[string]any{"name": name}, "spec": map[string]any{"color": "blue"},
	}}
}

func TestCRDConversionWebhooksAreDroppedUnlessTheKindConverts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		ignore bool // IgnoreSchemeConvertible
		want   func(t *testing.T, o envtest.WebhookInstallOptions, c *apiextensionsv1.CustomResourceConversion)
	}{
		{name: "a kind the scheme cannot convert loses its conversion webhook", want: func(t *testing.T, _ envtest.WebhookInstallOptions, c *apiextensionsv1.CustomResourceConversion) {
			if c != nil { // as stored: the server's default
				assert.Equal(t, apiextensionsv1.NoneConverter, c.Strategy)
				assert.Nil(t, c.Webhook)
			}
		}},
		{name: "with IgnoreSchemeConvertible every kind converts at the local server", ignore: true, want: func(t *testing.T, o envtest.WebhookInstallOptions, c *apiextensionsv1.CustomResourceConversion) {
			require.NotNil(t, c)
			assert.Equal(t, apiextensionsv1.WebhookConverter, c.Strategy)
			require.NotNil(t, c.Webhook)
			assert.Equal(t, []string{"v1", "v1beta1"}, c.Webhook.ConversionReviewVersions)
			require.NotNil(t, c.Webhook.ClientConfig)
			assert.Nil(t, c.Webhook.ClientConfig.Service)
			assert.Equal(t, "https://"+net.JoinHostPort(o.LocalServingHost, strconv.Itoa(o.LocalServingPort))+"/convert", *c.Webhook.ClientConfig.URL)
			assert.Equal(t, o.LocalServingCAData, c.Webhook.ClientConfig.CABundle)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := &envtest.Environment{
				CRDs:                  []*apiextensionsv1.CustomResourceDefinition{gizmoCRD(t, true)},
				WebhookInstallOptions: envtest.WebhookInstallOptions{IgnoreSchemeConvertible: tc.ignore},
			}
			startEnv(t, env)
			require.Len(t, env.CRDs, 1)
			tc.want(t, env.WebhookInstallOptions, env.CRDs[0].Spec.Conversion)

			stored := &apiextensionsv1.CustomResourceDefinition{}
			raw, err := kubernetes.NewForConfigOrDie(env.Config).RESTClient().Get().
				AbsPath("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.kapi.dev").DoRaw(t.Context())
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, stored))
			tc.want(t, env.WebhookInstallOptions, stored.Spec.Conversion)
		})
	}
}

// convertGizmos is a conversion webhook: it renames spec.color (v1) to
// spec.colour (v2) and back.
func convertGizmos(t *testing.T) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		require.NoError(t, err)
		var review apiextensionsv1.ConversionReview
		require.NoError(t, json.Unmarshal(body, &review))
		resp := &apiextensionsv1.ConversionResponse{UID: review.Request.UID, Result: metav1.Status{Status: metav1.StatusSuccess}}
		for _, raw := range review.Request.Objects {
			var obj map[string]any
			require.NoError(t, json.Unmarshal(raw.Raw, &obj))
			spec, _ := obj["spec"].(map[string]any)
			from, to := "color", "colour"
			if review.Request.DesiredAPIVersion == "example.kapi.dev/v1" {
				from, to = to, from
			}
			if v, ok := spec[from]; ok {
				delete(spec, from)
				spec[to] = v
			}
			obj["apiVersion"] = review.Request.DesiredAPIVersion
			out, err := json.Marshal(obj)
			require.NoError(t, err)
			resp.ConvertedObjects = append(resp.ConvertedObjects, runtime.RawExtension{Raw: out})
		}
		review.Request, review.Response = nil, resp
		require.NoError(t, json.NewEncoder(w).Encode(&review))
	})
}

func TestACRDConvertsThroughTheWebhookServerAtTheLocalAddress(t *testing.T) {
	env := &envtest.Environment{
		CRDs:                  []*apiextensionsv1.CustomResourceDefinition{gizmoCRD(t, true)},
		WebhookInstallOptions: envtest.WebhookInstallOptions{IgnoreSchemeConvertible: true},
	}
	startEnv(t, env)
	o := env.WebhookInstallOptions
	ln, err := net.Listen("tcp", net.JoinHostPort(o.LocalServingHost, strconv.Itoa(o.LocalServingPort)))
	require.NoError(t, err)
	srv := &http.Server{Handler: convertGizmos(t)}
	go func() {
		_ = srv.ServeTLS(ln, filepath.Join(o.LocalServingCertDir, "tls.crt"), filepath.Join(o.LocalServingCertDir, "tls.key"))
	}()
	t.Cleanup(func() { _ = srv.Close() })

	dyn := dynamic.NewForConfigOrDie(env.Config)
	_, err = dyn.Resource(gizmosV1).Namespace("default").Create(t.Context(), gizmo("g", "v1"), metav1.CreateOptions{})
	require.NoError(t, err)
	got, err := dyn.Resource(gizmosV2).Namespace("default").Get(t.Context(), "g", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "example.kapi.dev/v2", got.GetAPIVersion())
	assert.Equal(t, map[string]any{"colour": "blue"}, got.Object["spec"])
}

// TestAnExistingClusterGetsTheWebhooksAndTheSuiteSeesTheirAddress runs
// the Environment against a real API server (envtest's, where its
// binaries are): envtest installs the webhooks, and the address and
// certificate it prepared are the Environment's, as the suite's webhook
// server needs them.
func TestAnExistingClusterGetsTheWebhooksAndTheSuiteSeesTheirAddress(t *testing.T) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if _, err := os.Stat(filepath.Join(assets, "kube-apiserver")); assets == "" || err != nil {
		t.Skip("no envtest binaries: set KUBEBUILDER_ASSETS to a directory with etcd and kube-apiserver")
	}
	cluster := &crenvtest.Environment{}
	cfg, err := cluster.Start()
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, cluster.Stop()) })

	yes := true
	env := &envtest.Environment{UseExistingCluster: &yes, Config: cfg, WebhookInstallOptions: envtest.WebhookInstallOptions{
		ValidatingWebhooks: []*admissionregistrationv1.ValidatingWebhookConfiguration{validatingHook("typed", "/validate")},
	}}
	_, err = env.Start()
	require.NoError(t, err)
	o := env.WebhookInstallOptions
	require.NotZero(t, o.LocalServingPort)
	require.DirExists(t, o.LocalServingCertDir)
	got, err := kubernetes.NewForConfigOrDie(cfg).AdmissionregistrationV1().ValidatingWebhookConfigurations().Get(t.Context(), "typed", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, servedAt(o, o.LocalServingHost)+"/validate", *got.Webhooks[0].ClientConfig.URL)
	require.NoError(t, env.Stop())
	assert.NoDirExists(t, o.LocalServingCertDir)
}
