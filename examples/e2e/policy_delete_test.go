package e2e

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// deleteRecorder is a validating admission webhook on loopback TLS that
// allows everything and records the DELETE requests it is sent: the
// request's name and the old object's.
type deleteRecorder struct {
	*httptest.Server
	mu      sync.Mutex
	deletes []string // "request-name/old-object-name"
}

func newDeleteRecorder(t *testing.T) *deleteRecorder {
	d := &deleteRecorder{}
	d.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review struct {
			Request struct {
				UID       string `json:"uid"`
				Operation string `json:"operation"`
				Name      string `json:"name"`
				OldObject struct {
					Metadata struct {
						Name string `json:"name"`
					} `json:"metadata"`
				} `json:"oldObject"`
			} `json:"request"`
		}
		_ = json.NewDecoder(r.Body).Decode(&review)
		if review.Request.Operation == "DELETE" {
			d.mu.Lock()
			d.deletes = append(d.deletes, review.Request.Name+"/"+review.Request.OldObject.Metadata.Name)
			d.mu.Unlock()
		}
		fmt.Fprintf(w, `{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":%q,"allowed":true}}`, review.Request.UID)
	}))
	t.Cleanup(d.Close)
	return d
}

// seen returns the deletes recorded so far, sorted, and forgets them.
func (d *deleteRecorder) seen() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := d.deletes
	d.deletes = nil
	sort.Strings(out)
	return out
}

const keepProtectedPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: keep-protected}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [configmaps]}]
  validations:
  - expression: "!has(oldObject.metadata.labels) || !('protected' in oldObject.metadata.labels)"
    messageExpression: "'configmap ' + oldObject.metadata.name + ' is protected'"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: keep-protected}
spec: {policyName: keep-protected, validationActions: [Deny]}
`

// A ValidatingAdmissionPolicy and a validating webhook on DELETE of
// ConfigMaps see every object of `kubectl delete cm --all` (which lists,
// then deletes one by one) and of a client-go DeleteCollection (one
// deletecollection request, whose bulk path must be off while they are
// stored), as kube's do (docs/kube-behaviour/12-policy.md, "Deletes under a
// policy and a webhook").
func TestPoliciesAndWebhooksSeeEveryObjectOfABulkDelete(t *testing.T) {
	c := startCluster(t)
	hook := newDeleteRecorder(t)
	c.mustKubectlStdin("1.33", keepProtectedPolicy, "apply", "-f", "-")
	ca := base64.StdEncoding.EncodeToString(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: hook.Certificate().Raw}))
	c.mustKubectlStdin("1.33", `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: record-deletes}
webhooks:
- name: record-deletes.example.com
  clientConfig: {url: "`+hook.URL+`/", caBundle: "`+ca+`"}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [DELETE], resources: [configmaps]}]
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: dc}}
  sideEffects: None
  admissionReviewVersions: [v1]
`, "apply", "-f", "-")
	c.mustKubectl("1.33", "create", "namespace", "dc")
	create := func() {
		for _, n := range []string{"a", "b", "c", "d", "e"} {
			c.mustKubectl("1.33", "-n", "dc", "create", "configmap", n, "--from-literal=k=v")
		}
		c.mustKubectl("1.33", "-n", "dc", "label", "configmap", "c", "protected=yes")
	}
	left := func() string {
		return c.mustKubectl("1.33", "-n", "dc", "get", "configmaps", "-o", "jsonpath={.items[*].metadata.name}")
	}

	t.Run("kubectl delete --all deletes all but the protected one, each seen", func(t *testing.T) {
		create()
		out, err := c.kubectl("1.33", "-n", "dc", "delete", "configmap", "--all")
		require.Error(t, err)
		for _, n := range []string{"a", "b", "d", "e"} {
			assert.Contains(t, out, fmt.Sprintf("configmap %q deleted\n", n))
		}
		assert.Contains(t, out, `The configmaps "c" is invalid: : ValidatingAdmissionPolicy 'keep-protected' with binding 'keep-protected' denied request: configmap c is protected`)
		assert.Equal(t, "c", left())
		assert.Equal(t, []string{"a/a", "b/b", "d/d", "e/e"}, hook.seen(), "one DELETE each, named")
		c.mustKubectl("1.33", "-n", "dc", "label", "configmap", "c", "protected-")
		c.mustKubectl("1.33", "-n", "dc", "delete", "configmap", "c")
		hook.seen()
	})

	cs, err := kubernetes.NewForConfig(c.restConfig())
	require.NoError(t, err)
	ctx := context.Background()
	t.Run("a deletecollection stops at the protected one, each before it seen", func(t *testing.T) {
		create()
		err := cs.CoreV1().ConfigMaps("dc").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
		require.True(t, apierrors.IsInvalid(err), "422 Invalid: %v", err)
		assert.Equal(t, `configmaps "Unknown" is forbidden: ValidatingAdmissionPolicy 'keep-protected' with binding 'keep-protected' denied request: configmap c is protected`, err.Error())
		assert.Equal(t, "c d e", left())
		assert.Equal(t, []string{"/a", "/b"}, hook.seen(), "the collection's requests name no object; the old objects do")
	})
	t.Run("a deletecollection deletes everything once nothing is protected, each seen", func(t *testing.T) {
		c.mustKubectl("1.33", "-n", "dc", "label", "configmap", "c", "protected-")
		hook.seen()
		require.NoError(t, cs.CoreV1().ConfigMaps("dc").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}))
		assert.Equal(t, "", strings.TrimSpace(left()))
		assert.Equal(t, []string{"/c", "/d", "/e"}, hook.seen())
	})
}
