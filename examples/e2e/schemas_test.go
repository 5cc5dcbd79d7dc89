package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/dynamic"
)

var deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

const unknownContainerField = `unknown field "spec.template.spec.containers[0].bogus"`

// unstructuredDeployment is twoContainerDeployment(name) as unstructured
// data.
func unstructuredDeployment(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(twoContainerDeployment(name))
	require.NoError(t, err)
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion("apps/v1")
	u.SetKind("Deployment")
	return u
}

// deploymentWithUnknownField is twoContainerDeployment(name) as unstructured
// data with an extra field "bogus" in its first container.
func deploymentWithUnknownField(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	u := unstructuredDeployment(t, name)
	containers, found, err := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	require.NoError(t, err)
	require.True(t, found)
	containers[0].(map[string]any)["bogus"] = int64(1)
	require.NoError(t, unstructured.SetNestedSlice(u.Object, containers, "spec", "template", "spec", "containers"))
	return u
}

func firstContainer(t *testing.T, u *unstructured.Unstructured) map[string]any {
	t.Helper()
	containers, found, err := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	require.NoError(t, err)
	require.True(t, found)
	return containers[0].(map[string]any)
}

// TestFieldValidationOfAnUnknownFieldInADeploymentContainer follows
// 04-writes.md "fieldValidation": Ignore prunes silently, Warn (and no
// parameter) prunes with a warning, Strict refuses with 400.
func TestFieldValidationOfAnUnknownFieldInADeploymentContainer(t *testing.T) {
	c := startCluster(t)
	warnings := &warningRecorder{}
	cfg := restConfigFor(t, c, "application/json")
	cfg.WarningHandler = warnings
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	deploys := dc.Resource(deploymentsGVR).Namespace("default")
	ctx := context.Background()

	for _, tc := range []struct {
		name, fieldValidation string
		wantWarnings          []string
	}{
		{"Ignore prunes the field silently", "Ignore", nil},
		{"Warn prunes the field with a warning", "Warn", []string{unknownContainerField}},
		{"no fieldValidation prunes the field with a warning, like Warn", "", []string{unknownContainerField}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "unknown-" + strings.ToLower(tc.fieldValidation)
			if tc.fieldValidation == "" {
				name = "unknown-default"
			}
			warnings.reset()
			created, err := deploys.Create(ctx, deploymentWithUnknownField(t, name), metav1.CreateOptions{FieldValidation: tc.fieldValidation})
			require.NoError(t, err)
			assert.Equal(t, tc.wantWarnings, warnings.list())
			assert.NotContains(t, firstContainer(t, created), "bogus", "the answer is pruned")
			got, err := deploys.Get(ctx, name, metav1.GetOptions{})
			require.NoError(t, err)
			assert.NotContains(t, firstContainer(t, got), "bogus", "the stored object is pruned")
			assert.Equal(t, "nginx:1", firstContainer(t, got)["image"], "the known fields beside it are kept")

			// The same on update.
			warnings.reset()
			withUnknown := deploymentWithUnknownField(t, name)
			withUnknown.SetResourceVersion(got.GetResourceVersion())
			_, err = deploys.Update(ctx, withUnknown, metav1.UpdateOptions{FieldValidation: tc.fieldValidation})
			require.NoError(t, err)
			assert.Equal(t, tc.wantWarnings, warnings.list())
		})
	}

	t.Run("Strict refuses the create with 400 naming the field", func(t *testing.T) {
		warnings.reset()
		_, err := deploys.Create(ctx, deploymentWithUnknownField(t, "unknown-strict"), metav1.CreateOptions{FieldValidation: "Strict"})
		require.True(t, apierrors.IsBadRequest(err), "%v", err)
		assert.Equal(t, `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: `+unknownContainerField, err.Error())
		_, err = deploys.Get(ctx, "unknown-strict", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "nothing was stored: %v", err)
	})

	t.Run("Strict refuses the update with 400 naming the field", func(t *testing.T) {
		cur, err := deploys.Get(ctx, "unknown-ignore", metav1.GetOptions{})
		require.NoError(t, err)
		withUnknown := deploymentWithUnknownField(t, "unknown-ignore")
		withUnknown.SetResourceVersion(cur.GetResourceVersion())
		_, err = deploys.Update(ctx, withUnknown, metav1.UpdateOptions{FieldValidation: "Strict"})
		require.True(t, apierrors.IsBadRequest(err), "%v", err)
		assert.Equal(t, `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: `+unknownContainerField, err.Error())
	})

	t.Run("a JSON patch adding the field with Warn is applied pruned, with a warning", func(t *testing.T) {
		warnings.reset()
		patched, err := deploys.Patch(ctx, "unknown-warn", types.JSONPatchType,
			[]byte(`[{"op":"add","path":"/spec/template/spec/containers/0/bogus","value":1},{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:2"}]`),
			metav1.PatchOptions{FieldValidation: "Warn"})
		require.NoError(t, err)
		assert.Equal(t, []string{unknownContainerField}, warnings.list())
		assert.NotContains(t, firstContainer(t, patched), "bogus")
		assert.Equal(t, "nginx:2", firstContainer(t, patched)["image"])
	})

	// 04-writes.md "fieldValidation on patch": Strict on a merge or
	// strategic merge patch is 422 ` "" is invalid: patch: Invalid value:
	// …: strict decoding error: unknown field …`, not the 400 of create.
	for _, tc := range []struct {
		name      string
		patchType types.PatchType
	}{
		{"merge patch", types.MergePatchType},
		{"strategic merge patch", types.StrategicMergePatchType},
	} {
		t.Run("Strict refuses a "+tc.name+" adding the field with 422", func(t *testing.T) {
			before, err := deploys.Get(ctx, "unknown-warn", metav1.GetOptions{})
			require.NoError(t, err)
			_, err = deploys.Patch(ctx, "unknown-warn", tc.patchType,
				[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"nginx:3","bogus":1}]}}}}`), metav1.PatchOptions{FieldValidation: "Strict"})
			require.Error(t, err)
			after, getErr := deploys.Get(ctx, "unknown-warn", metav1.GetOptions{})
			require.NoError(t, getErr)
			assert.Equal(t, before.GetResourceVersion(), after.GetResourceVersion(), "nothing was written")
			require.True(t, apierrors.IsInvalid(err), "%v", err)
			assert.True(t, strings.HasPrefix(err.Error(), ` "" is invalid: patch: Invalid value: `), err.Error())
			assert.True(t, strings.HasSuffix(err.Error(), ": strict decoding error: "+unknownContainerField), err.Error())
			var status apierrors.APIStatus
			require.ErrorAs(t, err, &status)
			require.NotNil(t, status.Status().Details)
			require.Len(t, status.Status().Details.Causes, 1)
			assert.Equal(t, metav1.CauseTypeFieldValueInvalid, status.Status().Details.Causes[0].Type)
			assert.Equal(t, "patch", status.Status().Details.Causes[0].Field)
		})
	}
}

// TestKubectlValidateReportsAnUnknownFieldInADeploymentContainer: kubectl
// --validate maps to the fieldValidation parameter.
func TestKubectlValidateReportsAnUnknownFieldInADeploymentContainer(t *testing.T) {
	c := startCluster(t)
	cs := clientsetFor(t, c, "application/json")
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			t.Parallel()
			k := kubectlFor(t, c, version)
			name := "validate-" + strings.ReplaceAll(version, ".", "-")
			manifest := twoContainerDeploymentYAML(name, "2", "bogus: 1")

			out, errOut, err := k.withStdin(manifest).run("create", "-f", "-", "--validate=strict")
			require.Error(t, err, "--validate=strict refuses the unknown field")
			assert.Contains(t, errOut, `Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: `+unknownContainerField)
			assert.Empty(t, out)
			_, err = cs.AppsV1().Deployments("default").Get(context.Background(), name, metav1.GetOptions{})
			require.True(t, apierrors.IsNotFound(err), "nothing was created: %v", err)

			out, errOut, err = k.withStdin(manifest).run("create", "-f", "-", "--validate=warn")
			require.NoError(t, err, errOut)
			assert.Contains(t, out, "deployment.apps/"+name+" created")
			assert.Contains(t, errOut, "Warning: "+unknownContainerField)
			d, err := cs.AppsV1().Deployments("default").Get(context.Background(), name, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, "nginx:1", d.Spec.Template.Spec.Containers[0].Image)

			out, errOut, err = k.withStdin(strings.Replace(manifest, "replicas: 2", "replicas: 3", 1)).run("replace", "-f", "-", "--validate=ignore")
			require.NoError(t, err, errOut)
			assert.Contains(t, out, "deployment.apps/"+name+" replaced")
			assert.NotContains(t, errOut, "Warning", "--validate=ignore sends fieldValidation=Ignore")
		})
	}
}

func TestAWrongTypeIsRefusedNamingTheField(t *testing.T) {
	c := startCluster(t)
	cfg := restConfigFor(t, c, "application/json")
	dc, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	ctx := context.Background()

	wrongReplicas := func(t *testing.T) *unstructured.Unstructured {
		u := unstructuredDeployment(t, "two")
		require.NoError(t, unstructured.SetNestedField(u.Object, "two", "spec", "replicas"))
		return u
	}

	t.Run("a Deployment with replicas: \"two\" is refused naming spec.replicas", func(t *testing.T) {
		_, err := dc.Resource(deploymentsGVR).Namespace("default").Create(ctx, wrongReplicas(t), metav1.CreateOptions{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "spec.replicas")
		_, err = dc.Resource(deploymentsGVR).Namespace("default").Get(ctx, "two", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "nothing was stored: %v", err)
	})

	t.Run("kubectl create of a Deployment with replicas: \"two\" fails naming spec.replicas", func(t *testing.T) {
		k := kubectlFor(t, c, "1.33")
		out, err := k.withStdin(twoContainerDeploymentYAML("two", `"two"`, "")).combined("create", "-f", "-")
		require.Error(t, err)
		assert.Contains(t, out, "spec.replicas")
	})

	// A built-in kind's body is decoded into its Go type by kube-apiserver:
	// a type mismatch is a 400 decoding error (01-crud-and-errors.md, "Type
	// mismatch in a field"), not a 422 validation error.
	for _, tc := range []struct {
		name    string
		gvr     schema.GroupVersionResource
		obj     func(t *testing.T) *unstructured.Unstructured
		message string // the whole message, or a prefix ending in ": "
	}{
		{
			name: "a ConfigMap with a number in data", gvr: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"},
			obj: func(*testing.T) *unstructured.Unstructured {
				return &unstructured.Unstructured{Object: map[string]any{
					"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}, "data": map[string]any{"k": int64(1)},
				}}
			},
			message: `ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string`,
		},
		{
			name: "a Deployment with replicas: \"two\"", gvr: deploymentsGVR, obj: wrongReplicas,
			message: `Deployment in version "v1" cannot be handled as a Deployment: `,
		},
	} {
		t.Run(tc.name+" is a 400 BadRequest as kube-apiserver's decoder answers", func(t *testing.T) {
			_, err := dc.Resource(tc.gvr).Namespace("default").Create(ctx, tc.obj(t), metav1.CreateOptions{})
			require.Error(t, err)
			require.True(t, apierrors.IsBadRequest(err), "%v", err)
			if strings.HasSuffix(tc.message, ": ") {
				assert.True(t, strings.HasPrefix(err.Error(), tc.message), err.Error())
			} else {
				assert.Equal(t, tc.message, err.Error())
			}
		})
	}
}

// TestStrictFieldValidationRefusesADuplicateField sends raw JSON bodies:
// client libraries cannot produce duplicate keys.
func TestStrictFieldValidationRefusesADuplicateField(t *testing.T) {
	c := startCluster(t)
	warnings := &warningRecorder{}
	cfg := restConfigFor(t, c, "application/json")
	cfg.WarningHandler = warnings
	cs := clientsetFor(t, c, "application/json")
	rc := clientsetWithConfig(t, cfg).AppsV1().RESTClient()
	ctx := context.Background()
	body := func(name string) []byte {
		return []byte(`{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `"},"spec":{"replicas":1,"replicas":2,` +
			`"selector":{"matchLabels":{"app":"d"}},"template":{"metadata":{"labels":{"app":"d"}},"spec":{"containers":[{"name":"a","image":"nginx:1"}]}}}}`)
	}

	t.Run("Strict is 400 naming the duplicate", func(t *testing.T) {
		err := rc.Post().Namespace("default").Resource("deployments").Param("fieldValidation", "Strict").Body(body("dup-strict")).Do(ctx).Error()
		require.True(t, apierrors.IsBadRequest(err), "%v", err)
		assert.Equal(t, `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "spec.replicas"`, err.Error())
		_, err = cs.AppsV1().Deployments("default").Get(ctx, "dup-strict", metav1.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "nothing was stored: %v", err)
	})
	t.Run("Warn creates with a warning, the last value winning", func(t *testing.T) {
		warnings.reset()
		require.NoError(t, rc.Post().Namespace("default").Resource("deployments").Param("fieldValidation", "Warn").Body(body("dup-warn")).Do(ctx).Error())
		assert.Equal(t, []string{`duplicate field "spec.replicas"`}, warnings.list())
		d, err := cs.AppsV1().Deployments("default").Get(ctx, "dup-warn", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, int32(2), *d.Spec.Replicas)
	})
	t.Run("Ignore creates silently, the last value winning", func(t *testing.T) {
		warnings.reset()
		require.NoError(t, rc.Post().Namespace("default").Resource("deployments").Param("fieldValidation", "Ignore").Body(body("dup-ignore")).Do(ctx).Error())
		assert.Empty(t, warnings.list())
		d, err := cs.AppsV1().Deployments("default").Get(ctx, "dup-ignore", metav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, int32(2), *d.Spec.Replicas)
	})
}

func TestKubectlExplainDescribesADeploymentField(t *testing.T) {
	c := startCluster(t)
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			t.Parallel()
			k := kubectlFor(t, c, version)
			out := k.must("explain", "deployment.spec.replicas")
			assert.Regexp(t, `(?m)^GROUP:\s+apps$`, out)
			assert.Regexp(t, `(?m)^KIND:\s+Deployment$`, out)
			assert.Regexp(t, `(?m)^VERSION:\s+v1$`, out)
			assert.Regexp(t, `(?m)^FIELD:\s+replicas <integer>$`, out)
			assert.Contains(t, out, "Number of desired pods.")

			out = k.must("explain", "deployment.spec.template.spec.containers")
			assert.Regexp(t, `(?m)^FIELD:\s+containers <\[\]Container>$`, out)
			assert.Regexp(t, `(?m)^\s+image\s+<string>$`, out)
			assert.Regexp(t, `(?m)^\s+name\s+<string> -required-$`, out)

			out, err := k.combined("explain", "deployment.spec.nosuch")
			require.Error(t, err)
			assert.Contains(t, out, `field "nosuch" does not exist`)
		})
	}
}

// TestKubectlClientSideApplyTwiceUpdatesTheDeployment: the second apply
// sends a three-way strategic merge patch computed from the
// last-applied-configuration annotation.
func TestKubectlClientSideApplyTwiceUpdatesTheDeployment(t *testing.T) {
	c := startCluster(t)
	cs := clientsetFor(t, c, "application/json")
	for _, version := range kubectlVersions {
		t.Run("kubectl "+version, func(t *testing.T) {
			t.Parallel()
			k := kubectlFor(t, c, version)
			name := "apply-" + strings.ReplaceAll(version, ".", "-")
			first := twoContainerDeploymentYAML(name, "2", "")
			assert.Contains(t, k.withStdin(first).must("apply", "-f", "-"), "deployment.apps/"+name+" created")
			d := getDeployment(t, cs, name)
			assert.Contains(t, d.Annotations, "kubectl.kubernetes.io/last-applied-configuration")
			assert.Equal(t, int32(2), *d.Spec.Replicas)

			// Change replicas and b's image, drop container a and b's env.
			second := twoContainerDeploymentYAML(name, "3", "")
			second = second[:strings.Index(second, "      - name: a\n")] + "      - name: b\n        image: busybox:2\n"
			assert.Contains(t, k.withStdin(second).must("apply", "-f", "-"), "deployment.apps/"+name+" configured")
			d = getDeployment(t, cs, name)
			assert.Equal(t, int32(3), *d.Spec.Replicas)
			assert.Equal(t, []containerSummary{{Name: "b", Image: "busybox:2"}}, containersOf(d),
				"what the last apply no longer lists is removed")
			assert.Equal(t, int64(2), d.Generation)

			assert.Contains(t, k.withStdin(second).must("apply", "-f", "-"), "deployment.apps/"+name+" unchanged")
			assert.Equal(t, d.ResourceVersion, getDeployment(t, cs, name).ResourceVersion, "an unchanged apply writes nothing")
		})
	}
}

// TestACreatedDeploymentCarriesKubesDefaults compares with the answer to
// the same create in 04-writes.md "Create the deployment used below".
func TestACreatedDeploymentCarriesKubesDefaults(t *testing.T) {
	c := startCluster(t)
	created := createDeployment(t, clientsetFor(t, c, "application/json"), twoContainerDeployment("d1"))

	want := twoContainerDeployment("d1").Spec
	for i := range want.Template.Spec.Containers {
		want.Template.Spec.Containers[i].TerminationMessagePath = corev1.TerminationMessagePathDefault
		want.Template.Spec.Containers[i].TerminationMessagePolicy = corev1.TerminationMessageReadFile
		want.Template.Spec.Containers[i].ImagePullPolicy = corev1.PullIfNotPresent
	}
	want.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
	want.Template.Spec.TerminationGracePeriodSeconds = ptr(int64(30))
	want.Template.Spec.DNSPolicy = corev1.DNSClusterFirst
	want.Template.Spec.SecurityContext = &corev1.PodSecurityContext{}
	want.Template.Spec.SchedulerName = corev1.DefaultSchedulerName
	quarter := intstr.FromString("25%")
	want.Strategy = appsv1.DeploymentStrategy{
		Type:          appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &quarter, MaxSurge: &quarter},
	}
	want.RevisionHistoryLimit = ptr(int32(10))
	want.ProgressDeadlineSeconds = ptr(int32(600))

	assertSemanticEqual(t, want, created.Spec)
}
