package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// TestKubectlGetsKubesValidationOfCronJobsAndBudgets: kubectl 1.33's
// create commands get kube-apiserver 1.33's refusals, word for word
// (docs/kube-behaviour/15-validation-batch-autoscaling-policy.md).
func TestKubectlGetsKubesValidationOfCronJobsAndBudgets(t *testing.T) {
	c := startClusterWith(t, kapiserver.ConfigFor(apiserver.Release133)) // kube 1.33's answers, as recorded
	k := kubectlFor(t, c, "1.33")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"a cron job with a one-field schedule is refused",
			[]string{"create", "cronjob", "cj", "--image=busybox", "--schedule=bad"},
			`error: failed to create cronjob: CronJob.batch "cj" is invalid: spec.schedule: Invalid value: "bad": expected exactly 5 fields, found 1: [bad]`},
		{"a cron job whose pods restart always is refused",
			[]string{"create", "cronjob", "cj", "--image=busybox", "--schedule=*/5 * * * *", "--restart=Always"},
			`error: failed to create cronjob: CronJob.batch "cj" is invalid: spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"`},
		{"a budget above 100% is refused",
			[]string{"create", "pdb", "p", "--selector=app=a", "--min-available=150%"},
			`error: failed to create poddisruptionbudgets: PodDisruptionBudget.policy "p" is invalid: spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%`},
		{"an autoscaler with a zero CPU target is refused",
			[]string{"autoscale", "deployment", "d", "--max=3", "--cpu-percent=0"},
			`The HorizontalPodAutoscaler "d" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0`},
	}
	k.forTest(t).must("create", "deployment", "d", "--image=nginx")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := k.forTest(t).combined(tc.args...)
			require.Error(t, err)
			assert.Equal(t, tc.want, strings.TrimSpace(out))
		})
	}
	t.Run("a valid cron job is created", func(t *testing.T) {
		assert.Contains(t, k.forTest(t).must("create", "cronjob", "ok", "--image=busybox", "--schedule=@hourly"),
			"cronjob.batch/ok created")
	})
}

// TestClientGoGetsKubesValidationOfAutoscalers: client-go's typed
// clients get kube's 422 with its causes for both autoscaling versions;
// the v1 one names the v2 fields kube checks it through.
func TestClientGoGetsKubesValidationOfAutoscalers(t *testing.T) {
	c := startClusterWith(t, kapiserver.ConfigFor(apiserver.Release133)) // kube 1.33's answers, as recorded
	cs := clientsetFor(t, c, "application/json")
	ctx := context.Background()
	zero := int32(0)
	wantCauses := []metav1.StatusCause{
		{Type: metav1.CauseTypeFieldValueInvalid, Message: "Invalid value: 0: must be greater than or equal to 1", Field: "spec.minReplicas"},
		{Type: metav1.CauseTypeFieldValueInvalid, Message: "Invalid value: 0: must be greater than 0", Field: "spec.maxReplicas"},
		{Type: metav1.CauseTypeFieldValueRequired, Message: "Required value", Field: "spec.scaleTargetRef.kind"},
		{Type: metav1.CauseTypeFieldValueRequired, Message: "Required value", Field: "spec.scaleTargetRef.name"},
		{Type: metav1.CauseTypeForbidden, Message: "Forbidden: must specify at least one Object or External metric to support scaling to zero replicas", Field: "spec.metrics"},
	}
	const wantMessage = `HorizontalPodAutoscaler.autoscaling "h" is invalid: [spec.minReplicas: Invalid value: 0: must be greater than or equal to 1, ` +
		`spec.maxReplicas: Invalid value: 0: must be greater than 0, spec.scaleTargetRef.kind: Required value, ` +
		`spec.scaleTargetRef.name: Required value, spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas]`
	check := func(t *testing.T, err error) {
		require.True(t, apierrors.IsInvalid(err), "%v", err)
		status := err.(apierrors.APIStatus).Status()
		assert.Equal(t, wantMessage, status.Message)
		assert.Equal(t, wantCauses, status.Details.Causes)
	}
	t.Run("autoscaling/v2", func(t *testing.T) {
		_, err := cs.AutoscalingV2().HorizontalPodAutoscalers("default").Create(ctx, &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "h"},
			Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &zero, MaxReplicas: 0},
		}, metav1.CreateOptions{})
		check(t, err)
	})
	t.Run("autoscaling/v1", func(t *testing.T) {
		_, err := cs.AutoscalingV1().HorizontalPodAutoscalers("default").Create(ctx, &autoscalingv1.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "h"},
			Spec:       autoscalingv1.HorizontalPodAutoscalerSpec{MinReplicas: &zero, MaxReplicas: 0},
		}, metav1.CreateOptions{})
		check(t, err)
	})
	t.Run("a valid autoscaler is created", func(t *testing.T) {
		one := int32(1)
		_, err := cs.AutoscalingV2().HorizontalPodAutoscalers("default").Create(ctx, &autoscalingv2.HorizontalPodAutoscaler{
			ObjectMeta: metav1.ObjectMeta{Name: "ok"},
			Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: &one, MaxReplicas: 3,
				ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "d"}},
		}, metav1.CreateOptions{})
		require.NoError(t, err)
	})
}
