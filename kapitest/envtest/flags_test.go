package envtest_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/kapi-dev/kapi/kapitest/envtest"
)

// startWithFlags starts an environment whose API server was given flags
// through envtest's Configure().
func startWithFlags(t *testing.T, configure func(*envtest.Arguments)) (*envtest.Environment, error) {
	t.Helper()
	te := &envtest.Environment{}
	if configure != nil {
		configure(te.ControlPlane.GetAPIServer().Configure())
	}
	_, err := te.Start()
	if err == nil {
		t.Cleanup(func() { require.NoError(t, te.Stop()) })
	}
	return te, err
}

// noLabelPolicy denies ConfigMaps without the label "team", for every
// namespace, with a binding that denies.
func noLabelPolicy() []client.Object {
	return []client.Object{
		&admissionregistrationv1.ValidatingAdmissionPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "need-team"},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicySpec{
				MatchConstraints: &admissionregistrationv1.MatchResources{ResourceRules: []admissionregistrationv1.NamedRuleWithOperations{{
					RuleWithOperations: admissionregistrationv1.RuleWithOperations{
						Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create},
						Rule: admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"},
							Resources: []string{"configmaps"}},
					},
				}}},
				Validations: []admissionregistrationv1.Validation{{
					Expression: "has(object.metadata.labels) && 'team' in object.metadata.labels",
					Message:    "a ConfigMap needs a team",
				}},
			},
		},
		&admissionregistrationv1.ValidatingAdmissionPolicyBinding{
			ObjectMeta: metav1.ObjectMeta{Name: "need-team"},
			Spec: admissionregistrationv1.ValidatingAdmissionPolicyBindingSpec{
				PolicyName:        "need-team",
				ValidationActions: []admissionregistrationv1.ValidationAction{admissionregistrationv1.Deny},
			},
		},
	}
}

// createUnlabelledConfigMap installs noLabelPolicy through cl and creates a
// ConfigMap it denies.
func createUnlabelledConfigMap(t *testing.T, cl client.Client) error {
	t.Helper()
	ctx := context.Background()
	for _, o := range noLabelPolicy() {
		require.NoError(t, cl.Create(ctx, o))
	}
	return cl.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "unlabelled", Namespace: "default"}})
}

func TestAValidatingAdmissionPolicyDeniesThroughControllerRuntimesClientByDefault(t *testing.T) {
	te, err := startWithFlags(t, nil)
	require.NoError(t, err)
	cl, err := client.New(te.Config, client.Options{})
	require.NoError(t, err)

	err = createUnlabelledConfigMap(t, cl)
	require.Error(t, err)
	assert.True(t, apierrors.IsInvalid(err), "kube answers 422 Invalid to a policy's denial: %v", err)
	assert.Contains(t, err.Error(), `ValidatingAdmissionPolicy 'need-team' with binding 'need-team' denied request: a ConfigMap needs a team`)
}

func TestAdmissionPluginFlagsTakeEffect(t *testing.T) {
	cases := []struct {
		name     string
		flags    func(*envtest.Arguments)
		enforced bool
	}{
		{name: "enabling ValidatingAdmissionPolicy enforces policies", enforced: true,
			flags: func(a *envtest.Arguments) {
				a.Append("enable-admission-plugins", "NamespaceLifecycle,ValidatingAdmissionPolicy")
			}},
		{name: "disabling ValidatingAdmissionPolicy leaves policies stored and not enforced", enforced: false,
			flags: func(a *envtest.Arguments) { a.Append("disable-admission-plugins", "ValidatingAdmissionPolicy") }},
		{name: "a feature gate at its default is accepted", enforced: true,
			flags: func(a *envtest.Arguments) {
				a.Append("feature-gates", "WatchList=true,APIServingWithRoutine=false")
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			te, err := startWithFlags(t, c.flags)
			require.NoError(t, err)
			cl, err := client.New(te.Config, client.Options{})
			require.NoError(t, err)
			err = createUnlabelledConfigMap(t, cl)
			if c.enforced {
				assert.True(t, apierrors.IsInvalid(err), "want the policy's denial, got %v", err)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

func TestTheAuthorizationModeFlagDecidesWhatAUserMay(t *testing.T) {
	cases := []struct {
		mode    string
		allowed bool
	}{
		{mode: "RBAC", allowed: false},
		{mode: "AlwaysAllow", allowed: true},
		{mode: "RBAC,AlwaysAllow", allowed: true},
		{mode: "AlwaysDeny", allowed: false},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			te, err := startWithFlags(t, func(a *envtest.Arguments) { a.Set("authorization-mode", c.mode) })
			require.NoError(t, err)
			user, err := te.AddUser(envtest.User{Name: "alice"}, nil)
			require.NoError(t, err)
			_, err = kubernetes.NewForConfigOrDie(user.Config()).CoreV1().ConfigMaps("default").List(context.Background(), metav1.ListOptions{})
			if c.allowed {
				assert.NoError(t, err)
			} else {
				assert.True(t, apierrors.IsForbidden(err), "want 403, got %v", err)
			}
		})
	}
}

func TestTheServiceRangeIsEnvtestsUnlessAFlagSetsIt(t *testing.T) {
	cases := []struct {
		name      string
		flags     func(*envtest.Arguments)
		clusterIP string
	}{
		{name: "envtest's default range", clusterIP: "10.0.0.1"},
		{name: "the range the flag sets", clusterIP: "10.11.0.1",
			flags: func(a *envtest.Arguments) { a.Set("service-cluster-ip-range", "10.11.0.0/16") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			te, err := startWithFlags(t, c.flags)
			require.NoError(t, err)
			svc, err := kubernetes.NewForConfigOrDie(te.Config).CoreV1().Services("default").Get(context.Background(), "kubernetes", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, c.clusterIP, svc.Spec.ClusterIP)
		})
	}
}

func TestRuntimeConfigTurnsGroupVersionsOnAndOff(t *testing.T) {
	served := func(t *testing.T, te *envtest.Environment, groupVersion string) bool {
		_, err := kubernetes.NewForConfigOrDie(te.Config).Discovery().ServerResourcesForGroupVersion(groupVersion)
		if apierrors.IsNotFound(err) {
			return false
		}
		require.NoError(t, err)
		return true
	}
	t.Run("a group version turned off is not served", func(t *testing.T) {
		te, err := startWithFlags(t, func(a *envtest.Arguments) { a.Append("runtime-config", "batch/v1=false") })
		require.NoError(t, err)
		assert.False(t, served(t, te, "batch/v1"))
		assert.True(t, served(t, te, "apps/v1"))
	})
	t.Run("flowcontrol v1beta3 turned on is served", func(t *testing.T) {
		te, err := startWithFlags(t, func(a *envtest.Arguments) {
			a.Append("runtime-config", "flowcontrol.apiserver.k8s.io/v1beta3=true")
		})
		require.NoError(t, err)
		assert.True(t, served(t, te, "flowcontrol.apiserver.k8s.io/v1beta3"))
	})
}

func TestAFlagKapiCannotHonourFailsStartNamingIt(t *testing.T) {
	cases := []struct {
		name  string
		flags func(*envtest.Arguments)
		want  string
	}{
		{name: "an admission plugin off by default",
			flags: func(a *envtest.Arguments) { a.Append("enable-admission-plugins", "AlwaysPullImages") },
			want:  "--enable-admission-plugins: kapi does not have the admission plugin AlwaysPullImages"},
		{name: "an admission plugin kapi always applies, disabled",
			flags: func(a *envtest.Arguments) { a.Append("disable-admission-plugins", "NamespaceLifecycle") },
			want:  "--disable-admission-plugins: kapi always applies the admission plugin NamespaceLifecycle"},
		{name: "an unknown admission plugin",
			flags: func(a *envtest.Arguments) { a.Append("enable-admission-plugins", "NoSuchPlugin") },
			want:  `--enable-admission-plugins: unknown admission plugin "NoSuchPlugin"`},
		{name: "a plugin both enabled and disabled",
			flags: func(a *envtest.Arguments) {
				a.Append("enable-admission-plugins", "ServiceAccount")
			},
			want: "--enable-admission-plugins and --disable-admission-plugins both name ServiceAccount"},
		{name: "a feature gate away from its default",
			flags: func(a *envtest.Arguments) { a.Append("feature-gates", "APIServingWithRoutine=true") },
			want:  "--feature-gates: kapi serves as kube-apiserver 1.37 with APIServingWithRoutine=false and cannot set APIServingWithRoutine=true"},
		{name: "a feature gate away from the default of the release emulated",
			flags: func(a *envtest.Arguments) {
				a.Set("emulated-version", "1.33").Append("feature-gates", "WatchList=true")
			},
			want: "--feature-gates: kapi serves as kube-apiserver 1.33 with WatchList=false and cannot set WatchList=true"},
		{name: "an emulated version kapi does not serve",
			flags: func(a *envtest.Arguments) { a.Set("emulated-version", "1.34") },
			want:  `--emulated-version: kapi answers as kube-apiserver 1.33, 1.35, 1.36, 1.37, not "1.34"`},
		{name: "an unknown feature gate",
			flags: func(a *envtest.Arguments) { a.Append("feature-gates", "NoSuchGate=true") },
			want:  "--feature-gates: unrecognized feature gate NoSuchGate"},
		{name: "an authorizer kapi does not have",
			flags: func(a *envtest.Arguments) { a.Set("authorization-mode", "Node,RBAC") },
			want:  "--authorization-mode: kapi has no Node authorizer"},
		{name: "a group version kapi does not serve",
			flags: func(a *envtest.Arguments) { a.Append("runtime-config", "resource.k8s.io/v1alpha3=true") },
			want:  "--runtime-config: resource.k8s.io/v1alpha3=true: kapi does not serve resource.k8s.io/v1alpha3"},
		{name: "a token file",
			flags: func(a *envtest.Arguments) { a.Set("token-auth-file", "/tmp/tokens.csv") },
			want:  "--token-auth-file: kapi authenticates the users AddUser provisions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := startWithFlags(t, c.flags)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestTheDeprecatedArgsAreReadToo(t *testing.T) {
	te := &envtest.Environment{}
	te.ControlPlane.GetAPIServer().Args = []string{"--enable-admission-plugins=AlwaysPullImages"}
	_, err := te.Start()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "AlwaysPullImages")
}

func TestProcessFlagsAreAcceptedAndOutputFlagsWarned(t *testing.T) {
	var out bytes.Buffer
	restore := envtest.SetWarningOutput(&out)
	defer restore()
	_, err := startWithFlags(t, func(a *envtest.Arguments) {
		a.Set("secure-port", "0").Set("etcd-servers", "http://127.0.0.1:1").Set("v", "5")
		a.Set("audit-log-path", "/tmp/audit.log").Append("enable-admission-plugins", "ResourceQuota")
	})
	require.NoError(t, err)
	assert.Contains(t, out.String(), "--audit-log-path is not applied")
	assert.Contains(t, out.String(), "admission plugin ResourceQuota, which kube-apiserver runs by default, is not in kapi")
	assert.NotContains(t, out.String(), "secure-port")
	assert.NotContains(t, out.String(), "etcd-servers")
}
