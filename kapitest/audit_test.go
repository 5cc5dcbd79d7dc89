package kapitest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/kapitest"
)

// The request record carries the audit annotations admission reported
// for each request, those kube-apiserver writes into its audit event: a
// test asserts what a ValidatingAdmissionPolicy in Audit mode saw.
func TestTheRecordCarriesAuditAnnotations(t *testing.T) {
	srv := kapitest.Start(t, kapitest.WithAPIServerConfig(func(c *apiserver.Config) { c.ValidatingAdmissionPolicy = true }))
	cs, err := kubernetes.NewForConfig(srv.AdminConfig())
	require.NoError(t, err)
	ctx := t.Context()
	fail := admissionregistrationv1.Fail
	_, err = cs.AdmissionregistrationV1().ValidatingAdmissionPolicies().Create(ctx, &admissionregistrationv1.ValidatingAdmissionPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "audit-cm"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: &fail,
			MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionregistrationv1.RuleWithOperations{
					Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
					Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
				}}}},
			Validations:      []admissionregistrationv1.Validation{{Expression: "!has(object.data) || !('bad' in object.data)", Message: "no bad key"}},
			AuditAnnotations: []admissionregistrationv1.AuditAnnotation{{Key: "keys", ValueExpression: "'keys: ' + string(has(object.data) ? size(object.data) : 0)"}},
		},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Create(ctx, &admissionregistrationv1.ValidatingAdmissionPolicyBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "audit-cm"},
		Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: "audit-cm",
			ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Audit}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)

	srv.ResetRequests()
	_, err = cs.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a"},
		Data: map[string]string{"bad": "x"}}, metav1.CreateOptions{})
	require.NoError(t, err, "Audit does not deny")
	_, err = cs.CoreV1().ConfigMaps("default").Get(ctx, "a", metav1.GetOptions{})
	require.NoError(t, err)

	var creates, gets []kapitest.Request
	for _, r := range srv.Requests() {
		switch {
		case r.Resource == "configmaps" && r.Verb == "create":
			creates = append(creates, r)
		case r.Resource == "configmaps" && r.Verb == "get":
			gets = append(gets, r)
		}
	}
	require.Len(t, creates, 1)
	assert.Equal(t, map[string]string{
		"audit-cm/keys": "keys: 1",
		"validation.policy.admission.k8s.io/validation_failure": `[{"message":"no bad key","policy":"audit-cm","binding":"audit-cm","expressionIndex":0,"validationActions":["Audit"]}]`,
	}, creates[0].AuditAnnotations)
	require.Len(t, gets, 1)
	assert.Nil(t, gets[0].AuditAnnotations, "a read is not admitted")
}
