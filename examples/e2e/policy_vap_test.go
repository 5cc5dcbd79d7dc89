package e2e

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// A ValidatingAdmissionPolicy with a ConfigMap parameter, its binding
// denying, then warning (docs/kube-behaviour/12-policy.md records kube's
// answers to the same commands).
func TestValidatingAdmissionPolicyDeniesAndWarnsAsKube(t *testing.T) {
	c := startCluster(t)
	policy, err := os.ReadFile("testdata/policy/cm-limits.yaml")
	require.NoError(t, err)
	out := c.mustKubectlStdin("1.33", string(policy), "apply", "-f", "-")
	assert.Equal(t, "validatingadmissionpolicy.admissionregistration.k8s.io/cm-limits created\n"+
		"validatingadmissionpolicybinding.admissionregistration.k8s.io/cm-limits-binding created\n", out)

	prefix := `error: failed to create configmap: configmaps "%s" is forbidden: ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding' denied request: `
	out, err = c.kubectl("1.33", "create", "cm", "a", "--from-literal=x=1")
	require.Error(t, err)
	assert.Equal(t, strings.Replace(prefix, "%s", "a", 1)+"failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction\n", out)

	c.mustKubectl("1.33", "create", "cm", "params-limits", "-n", "kube-public", "--from-literal=maxKeys=2")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"a", "--from-literal=x=1"}, "configmap/a created\n"},
		{[]string{"b", "--from-literal=x=1", "--from-literal=y=2", "--from-literal=z=3"}, strings.Replace(prefix, "%s", "b", 1) + "too many keys: 3 > 2\n"},
		{[]string{"c", "--from-literal=forbidden=1"}, strings.Replace(prefix, "%s", "c", 1) + "the key forbidden is forbidden\n"},
		{[]string{"abcdefghijklmnopqrstuvwxyz"}, strings.Replace(prefix, "%s", "abcdefghijklmnopqrstuvwxyz", 1) + "failed expression: object.metadata.name.size() < 20\n"},
		{[]string{"params-x", "--from-literal=x=1", "--from-literal=y=2", "--from-literal=z=3"}, "configmap/params-x created\n"},
	} {
		out, _ := c.kubectl("1.33", append([]string{"create", "cm"}, tc.args...)...)
		assert.Equal(t, tc.want, out, tc.args)
	}

	cs, err := kubernetes.NewForConfig(c.restConfig())
	require.NoError(t, err)
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "e"}, Data: map[string]string{"x": "1", "y": "2", "forbidden": "3"}}
	_, err = cs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{})
	require.True(t, apierrors.IsForbidden(err), "reason Forbidden: %v", err)
	assert.Equal(t, `configmaps "e" is forbidden: ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding' denied request: too many keys: 3 > 2`, err.Error())

	warnPolicy, err := os.ReadFile("testdata/policy/cm-limits-warn.yaml")
	require.NoError(t, err)
	c.mustKubectlStdin("1.33", string(warnPolicy), "apply", "-f", "-")
	warnings := &warningRecorder{}
	cfg := c.restConfig()
	cfg.WarningHandler = warnings
	wcs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	_, err = wcs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	require.NoError(t, err, "Warn and Audit do not deny")
	assert.Equal(t, []string{
		"Validation failed for ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding': too many keys: 3 > 2",
		"Validation failed for ValidatingAdmissionPolicy 'cm-limits' with binding 'cm-limits-binding': the key forbidden is forbidden",
	}, warnings.warnings)
}
