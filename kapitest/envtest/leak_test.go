package envtest_test

import (
	"encoding/json"
	"net"
	"net/http"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"

	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// allowAll is an admission webhook that allows every request.
var allowAll = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	var review admissionv1.AdmissionReview
	if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
		http.Error(w, "no review", http.StatusBadRequest)
		return
	}
	review.Response = &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true}
	review.Request = nil
	_ = json.NewEncoder(w).Encode(&review)
})

// TestAStoppedEnvironmentLeavesNoWebhookConnectionBehind: the server's
// connections to a webhook server that outlives the Environment (kept
// alive for reuse, as kube keeps them) end with Stop.
func TestAStoppedEnvironmentLeavesNoWebhookConnectionBehind(t *testing.T) {
	use := func() {
		env := &envtest.Environment{
			CRDs: []*apiextensionsv1.CustomResourceDefinition{gizmoCRD(t, false)},
			WebhookInstallOptions: envtest.WebhookInstallOptions{
				ValidatingWebhooks: []*admissionregistrationv1.ValidatingWebhookConfiguration{validatingHook("gizmos", "/validate")},
			},
		}
		cfg, err := env.Start()
		require.NoError(t, err)
		o := env.WebhookInstallOptions
		ln, err := net.Listen("tcp", net.JoinHostPort(o.LocalServingHost, strconv.Itoa(o.LocalServingPort)))
		require.NoError(t, err)
		srv := &http.Server{Handler: allowAll}
		served := make(chan struct{})
		go func() {
			defer close(served)
			_ = srv.ServeTLS(ln, filepath.Join(o.LocalServingCertDir, "tls.crt"), filepath.Join(o.LocalServingCertDir, "tls.key"))
		}()
		_, err = dynamic.NewForConfigOrDie(cfg).Resource(gizmosV1).Namespace("default").Create(t.Context(), gizmo("g", "v1"), metav1.CreateOptions{})
		require.NoError(t, err)
		// The webhook server accepts no more, and serves the connections
		// it has until their client closes them.
		require.NoError(t, ln.Close())
		<-served
		t.Cleanup(func() { _ = srv.Close() })
		require.NoError(t, env.Stop())
	}
	use()
	before := runtime.NumGoroutine()
	for range 5 {
		use()
	}
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 }, time.Minute, 10*time.Millisecond,
		"goroutines: %d before, %d after", before, runtime.NumGoroutine())
}
