package kapitest_test

import (
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/kapitest"
)

// denyingWebhook is a validating webhook over loopback TLS that denies
// every request it is sent, and the configuration that registers it for
// ConfigMap creates.
func denyingWebhook(t *testing.T) *admissionregistrationv1.ValidatingWebhookConfiguration {
	t.Helper()
	hook := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			Request struct {
				UID string `json:"uid"`
			} `json:"request"`
		}
		_ = json.NewDecoder(r.Body).Decode(&review)
		_ = json.NewEncoder(w).Encode(map[string]any{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
			"response": map[string]any{"uid": review.Request.UID, "allowed": false,
				"status": map[string]any{"code": 403, "message": "no ConfigMaps today"}}})
	}))
	t.Cleanup(hook.Close)
	url := hook.URL + "/validate"
	none := admissionregistrationv1.SideEffectClassNone
	return &admissionregistrationv1.ValidatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "deny"},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "deny.kapi.dev",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: &url,
				CABundle: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hook.Certificate().Raw})},
			SideEffects:             &none,
			AdmissionReviewVersions: []string{"v1"},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
			}},
		}},
	}
}

func TestWebhooksAreCalledOnlyWithWithWebhooks(t *testing.T) {
	cases := []struct {
		name    string
		opts    []kapitest.Option
		created bool
	}{
		{"without WithWebhooks the configuration is stored and not called", nil, true},
		{"with WithWebhooks the webhook denies the create", []kapitest.Option{kapitest.WithWebhooks(apiserver.WebhookOptions{})}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := kapitest.Start(t, tc.opts...)
			cs := kubernetes.NewForConfigOrDie(srv.Config)
			cfg := denyingWebhook(t)
			_, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(t.Context(), cfg, metav1.CreateOptions{})
			require.NoError(t, err)
			_, err = cs.CoreV1().ConfigMaps("default").Create(t.Context(),
				&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{})
			if tc.created {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.True(t, apierrors.IsForbidden(err), "%v", err)
			assert.Equal(t, `admission webhook "deny.kapi.dev" denied the request: no ConfigMaps today`, err.Error())
		})
	}
}
