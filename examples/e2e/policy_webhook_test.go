package e2e

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// configMapDefaulter labels the ConfigMaps it sees.
type configMapDefaulter struct{}

func (configMapDefaulter) Default(_ context.Context, cm *corev1.ConfigMap) error {
	if cm.Labels == nil {
		cm.Labels = map[string]string{}
	}
	cm.Labels["defaulted"] = "true"
	return nil
}

// configMapValidator refuses a "forbidden" key and warns of a "legacy" one.
type configMapValidator struct{}

func (configMapValidator) ValidateCreate(_ context.Context, cm *corev1.ConfigMap) (admission.Warnings, error) {
	var warnings admission.Warnings
	if _, ok := cm.Data["legacy"]; ok {
		warnings = append(warnings, "the legacy key is deprecated")
	}
	if _, ok := cm.Data["forbidden"]; ok {
		return warnings, errors.New("the forbidden key is not allowed")
	}
	return warnings, nil
}

func (v configMapValidator) ValidateUpdate(ctx context.Context, _, cm *corev1.ConfigMap) (admission.Warnings, error) {
	return v.ValidateCreate(ctx, cm)
}

func (configMapValidator) ValidateDelete(context.Context, *corev1.ConfigMap) (admission.Warnings, error) {
	return nil, nil
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestControllerRuntimeWebhooks runs controller-runtime's webhook server
// with a defaulter and a validator built by ctrl.NewWebhookManagedBy, on
// loopback TLS, registers them as kube's webhook configurations (as
// envtest's WebhookInstallOptions does), and writes through kapi.
func TestControllerRuntimeWebhooks(t *testing.T) {
	c := startCluster(t)
	ca, err := kapiserver.NewCA("webhook-ca", time.Now())
	require.NoError(t, err)
	certPEM, keyPEM, err := ca.IssueServing([]string{"127.0.0.1"}, time.Now())
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.crt"), certPEM, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "tls.key"), keyPEM, 0o600))
	port := freePort(t)

	mgr, err := ctrl.NewManager(c.restConfig(), ctrl.Options{
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer:          webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: port, CertDir: dir}),
		Controller:             config.Controller{SkipNameValidation: ptr(true)},
	})
	require.NoError(t, err)
	require.NoError(t, ctrl.NewWebhookManagedBy(mgr, &corev1.ConfigMap{}).
		WithDefaulter(configMapDefaulter{}).WithValidator(configMapValidator{}).Complete())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return mgr.GetWebhookServer().StartedChecker()(nil) == nil }, 2*time.Minute, 20*time.Millisecond)

	cs, err := kubernetes.NewForConfig(c.restConfig())
	require.NoError(t, err)
	caBundle := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ca.Cert.Raw})
	url := func(path string) *string { u := fmt.Sprintf("https://127.0.0.1:%d%s", port, path); return &u }
	none := admissionregistrationv1.SideEffectClassNone
	fail := admissionregistrationv1.Fail
	rules := []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
	}}
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{"webhooks": "on"}}
	_, err = cs.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(context.Background(), &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "configmaps"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{Name: "mconfigmap.example.com", Rules: rules, ObjectSelector: selector,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: url("/mutate--v1-configmap"), CABundle: caBundle},
			SideEffects:  &none, FailurePolicy: &fail, AdmissionReviewVersions: []string{"v1"}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(context.Background(), &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "configmaps"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{Name: "vconfigmap.example.com", Rules: rules, ObjectSelector: selector,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: url("/validate--v1-configmap"), CABundle: caBundle},
			SideEffects:  &none, FailurePolicy: &fail, AdmissionReviewVersions: []string{"v1"}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	warnings := &warningRecorder{}
	cfg := c.restConfig()
	cfg.WarningHandler = warnings
	wcs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	cms := wcs.CoreV1().ConfigMaps("default")
	bctx := context.Background()

	cm, err := cms.Create(bctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "ok", Labels: map[string]string{"webhooks": "on"}},
		Data: map[string]string{"legacy": "1"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"webhooks": "on", "defaulted": "true"}, cm.Labels, "the defaulter's patch is applied")
	assert.Equal(t, []string{"the legacy key is deprecated"}, warnings.warnings, "the validator's warnings are sent")

	_, err = cms.Create(bctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "bad", Labels: map[string]string{"webhooks": "on"}},
		Data: map[string]string{"forbidden": "1"}}, metav1.CreateOptions{})
	require.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.Equal(t, `admission webhook "vconfigmap.example.com" denied the request: the forbidden key is not allowed`, err.Error())

	cm.Data["forbidden"] = "1"
	_, err = cms.Update(bctx, cm, metav1.UpdateOptions{})
	require.True(t, apierrors.IsForbidden(err), "updates are validated too: %v", err)

	out, err := c.kubectl("1.33", "create", "cm", "plain", "--from-literal=forbidden=1")
	require.NoError(t, err, "the object selector keeps other ConfigMaps out: %s", out)

	for _, v := range []string{"1.33", "1.27"} {
		manifest := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kubectl-" + v + ", labels: {webhooks: \"on\"}}\ndata: {forbidden: \"1\"}\n"
		out, err = c.kubectlStdin(v, manifest, "apply", "-f", "-")
		require.Error(t, err)
		assert.Contains(t, out, `admission webhook "vconfigmap.example.com" denied the request: the forbidden key is not allowed`)
		out = c.mustKubectlStdin(v, strings.Replace(manifest, "forbidden", "legacy", 1), "apply", "-f", "-")
		assert.Equal(t, "Warning: the legacy key is deprecated\nconfigmap/kubectl-"+v+" created\n", out)
		out = c.mustKubectl(v, "get", "cm", "kubectl-"+v, "-o", "jsonpath={.metadata.labels.defaulted}")
		assert.Equal(t, "true", out)
	}
}
