package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
)

// TestConcurrentTestAndReplacePatchesCountToExactlyOneThousand has 20
// goroutines each increment a counter 50 times with a JSON patch that tests
// the value it read and replaces it: the server applies each patch to the
// latest object atomically, so a patch built from a stale read fails its
// test op (422, never applied) and the client reads again and retries. The
// counter ends at exactly 1000: no increment lost, none applied twice.
func TestConcurrentTestAndReplacePatchesCountToExactlyOneThousand(t *testing.T) {
	const goroutines, perGoroutine = 20, 50
	c := startCluster(t)
	cfg := restConfigFor(t, c, "application/json")
	// One connection per goroutine: the default transport keeps two idle
	// connections per host and would dial anew for most requests.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = goroutines
	t.Cleanup(transport.CloseIdleConnections)
	cfg.Transport = transport
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)
	cms := cs.CoreV1().ConfigMaps("default")
	// 1000 increments and their retries take a second or two on a quiet
	// machine and minutes on a loaded one: fail only when no increment lands
	// for a long while.
	ctx, progressed := progressContext(t, 2*time.Minute)
	_, err = cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "counter"}, Data: map[string]string{"n": "0"}}, metav1.CreateOptions{})
	require.NoError(t, err)

	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		written = map[string]int{} // counter value → how many accepted patches wrote it
		retries atomic.Int64
	)
	errs := make(chan error, goroutines)
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range perGoroutine {
				v, err := incrementWithTestAndReplace(ctx, cms, &retries)
				if err != nil {
					errs <- fmt.Errorf("%w (%v)", err, context.Cause(ctx))
					return
				}
				progressed()
				mu.Lock()
				written[v]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}

	final, err := cms.Get(ctx, "counter", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(goroutines*perGoroutine), final.Data["n"])
	assert.Len(t, written, goroutines*perGoroutine, "every accepted patch wrote a different value")
	for v, n := range written {
		assert.Equal(t, 1, n, "value %s written by %d patches", v, n)
	}
	assert.Positive(t, retries.Load(), "the goroutines contended: some patches were refused and retried")
}

func increment(n string) string {
	i, err := strconv.Atoi(n)
	if err != nil {
		return "not a number: " + n
	}
	return strconv.Itoa(i + 1)
}

// incrementWithTestAndReplace reads the counter and patches it
// [test n, replace n+1] until a patch is accepted, retrying on 422 (a failed
// test op, 04-writes.md "json-patch failed test op") and 409. It returns
// the value written.
func incrementWithTestAndReplace(ctx context.Context, cms typedcorev1.ConfigMapInterface, retries *atomic.Int64) (string, error) {
	for attempt := range 10000 {
		cur, err := cms.Get(ctx, "counter", metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		n, next := cur.Data["n"], increment(cur.Data["n"])
		patch := fmt.Sprintf(`[{"op":"test","path":"/data/n","value":%q},{"op":"replace","path":"/data/n","value":%q}]`, n, next)
		patched, err := cms.Patch(ctx, "counter", types.JSONPatchType, []byte(patch), metav1.PatchOptions{})
		if err == nil {
			if patched.Data["n"] != next {
				return "", fmt.Errorf("patch %s answered n=%q", patch, patched.Data["n"])
			}
			return next, nil
		}
		if !apierrors.IsInvalid(err) && !apierrors.IsConflict(err) {
			return "", fmt.Errorf("patch %s: %w", patch, err)
		}
		retries.Add(1)
		// Back off a little, with jitter, as client-go's retry helpers do:
		// it leaves the CPU to the request that won.
		time.Sleep(time.Duration(rand.IntN(1<<min(attempt, 4))) * 100 * time.Microsecond)
	}
	return "", fmt.Errorf("no patch accepted in 10000 attempts")
}

// TestAPatchCarryingAStaleResourceVersionIsAConflict: a resourceVersion in
// any patch flavour is an optimistic-concurrency precondition
// (04-writes.md "patch with a stale metadata.resourceVersion").
func TestAPatchCarryingAStaleResourceVersionIsAConflict(t *testing.T) {
	c := startCluster(t)
	cms := clientsetFor(t, c, "application/json").CoreV1().ConfigMaps("default")
	ctx := context.Background()
	created, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "p1"}, Data: map[string]string{"k": "v"}}, metav1.CreateOptions{})
	require.NoError(t, err)
	stale := created.ResourceVersion
	current, err := cms.Patch(ctx, "p1", types.MergePatchType, []byte(`{"data":{"k":"v2"}}`), metav1.PatchOptions{})
	require.NoError(t, err)

	for _, tc := range []struct {
		name      string
		patchType types.PatchType
		patch     func(rv string) string
	}{
		{"merge patch", types.MergePatchType, func(rv string) string {
			return fmt.Sprintf(`{"metadata":{"resourceVersion":%q},"data":{"k":"by merge"}}`, rv)
		}},
		{"strategic merge patch", types.StrategicMergePatchType, func(rv string) string {
			return fmt.Sprintf(`{"metadata":{"resourceVersion":%q},"data":{"k":"by smp"}}`, rv)
		}},
		{"JSON patch", types.JSONPatchType, func(rv string) string {
			return fmt.Sprintf(`[{"op":"replace","path":"/metadata/resourceVersion","value":%q},{"op":"replace","path":"/data/k","value":"by json"}]`, rv)
		}},
	} {
		t.Run("a "+tc.name+" with a stale resourceVersion is refused", func(t *testing.T) {
			_, err := cms.Patch(ctx, "p1", tc.patchType, []byte(tc.patch(stale)), metav1.PatchOptions{})
			require.True(t, apierrors.IsConflict(err), "%v", err)
			assert.Equal(t, `Operation cannot be fulfilled on configmaps "p1": the object has been modified; please apply your changes to the latest version and try again`, err.Error())
			got, err := cms.Get(ctx, "p1", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, current.ResourceVersion, got.ResourceVersion)
			assert.Equal(t, current.Data, got.Data)
		})
		t.Run("a "+tc.name+" with the current resourceVersion is applied", func(t *testing.T) {
			cur, err := cms.Get(ctx, "p1", metav1.GetOptions{})
			require.NoError(t, err)
			patched, err := cms.Patch(ctx, "p1", tc.patchType, []byte(tc.patch(cur.ResourceVersion)), metav1.PatchOptions{})
			require.NoError(t, err)
			assert.Equal(t, "by "+map[types.PatchType]string{types.MergePatchType: "merge", types.StrategicMergePatchType: "smp", types.JSONPatchType: "json"}[tc.patchType], patched.Data["k"])
			assert.NotEqual(t, cur.ResourceVersion, patched.ResourceVersion)
			current = patched
		})
	}
}

func TestAnUpdateFromAStaleResourceVersionIsAConflict(t *testing.T) {
	for _, ct := range contentTypes {
		t.Run(ct, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t)
			deploys := clientsetFor(t, c, ct).AppsV1().Deployments("default")
			ctx := context.Background()
			created, err := deploys.Create(ctx, twoContainerDeployment("stale"), metav1.CreateOptions{})
			require.NoError(t, err)

			fresh := created.DeepCopy()
			fresh.Spec.Template.Spec.Containers[0].Image = "nginx:2"
			updated, err := deploys.Update(ctx, fresh, metav1.UpdateOptions{})
			require.NoError(t, err)

			stale := created.DeepCopy()
			stale.Spec.Template.Spec.Containers[0].Image = "nginx:stale"
			_, err = deploys.Update(ctx, stale, metav1.UpdateOptions{})
			require.True(t, apierrors.IsConflict(err), "%v", err)
			assert.Equal(t, `Operation cannot be fulfilled on deployments.apps "stale": the object has been modified; please apply your changes to the latest version and try again`, err.Error())

			got, err := deploys.Get(ctx, "stale", metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, "nginx:2", got.Spec.Template.Spec.Containers[0].Image)
			assert.Equal(t, updated.ResourceVersion, got.ResourceVersion, "the refused update wrote nothing")
		})
	}
}

func TestDeletePreconditionsThatDoNotMatchAreAConflict(t *testing.T) {
	c := startCluster(t)
	ctx := context.Background()
	for _, ct := range contentTypes {
		cms := clientsetFor(t, c, ct).CoreV1().ConfigMaps("default")
		for _, tc := range []struct {
			name    string
			options func(cur *corev1.ConfigMap) metav1.Preconditions
			message func(cur *corev1.ConfigMap) string
		}{
			{
				name: "a wrong uid",
				options: func(*corev1.ConfigMap) metav1.Preconditions {
					return metav1.Preconditions{UID: ptr(types.UID("wrong"))}
				},
				message: func(cur *corev1.ConfigMap) string {
					return fmt.Sprintf(`Operation cannot be fulfilled on ConfigMap "pre": the UID in the precondition (wrong) does not match the UID in record (%s). The object might have been deleted and then recreated`, cur.UID)
				},
			},
			{
				name:    "a stale resourceVersion",
				options: func(*corev1.ConfigMap) metav1.Preconditions { return metav1.Preconditions{ResourceVersion: ptr("1")} },
				message: func(cur *corev1.ConfigMap) string {
					return fmt.Sprintf(`Operation cannot be fulfilled on ConfigMap "pre": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (%s). The object might have been modified`, cur.ResourceVersion)
				},
			},
		} {
			t.Run(ct+" "+tc.name+" keeps the object", func(t *testing.T) {
				cur, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "pre"}}, metav1.CreateOptions{})
				require.NoError(t, err)
				t.Cleanup(func() { _ = cms.Delete(ctx, "pre", metav1.DeleteOptions{}) })

				err = cms.Delete(ctx, "pre", metav1.DeleteOptions{Preconditions: ptr(tc.options(cur))})
				require.True(t, apierrors.IsConflict(err), "%v", err)
				assert.Equal(t, tc.message(cur), err.Error())
				var status apierrors.APIStatus
				require.ErrorAs(t, err, &status)
				require.NotNil(t, status.Status().Details)
				assert.Equal(t, "ConfigMap", status.Status().Details.Kind, "precondition conflicts name the Kind (01-crud-and-errors.md)")
				_, err = cms.Get(ctx, "pre", metav1.GetOptions{})
				require.NoError(t, err, "the object survives")
			})
		}
		t.Run(ct+" matching uid and resourceVersion delete the object", func(t *testing.T) {
			cur, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "pre"}}, metav1.CreateOptions{})
			require.NoError(t, err)
			require.NoError(t, cms.Delete(ctx, "pre", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &cur.UID, ResourceVersion: &cur.ResourceVersion}}))
			_, err = cms.Get(ctx, "pre", metav1.GetOptions{})
			assert.True(t, apierrors.IsNotFound(err), "%v", err)
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestTheDeploymentStatusSubresourceSeparatesSpecFromStatus(t *testing.T) {
	for _, ct := range contentTypes {
		t.Run(ct, func(t *testing.T) {
			t.Parallel()
			c := startCluster(t)
			cs := clientsetFor(t, c, ct)
			deploys := cs.AppsV1().Deployments("default")
			ctx := context.Background()
			created, err := deploys.Create(ctx, twoContainerDeployment("st"), metav1.CreateOptions{})
			require.NoError(t, err)
			assert.Equal(t, appsv1.DeploymentStatus{}, created.Status)

			// UpdateStatus: status is written, spec and labels are not.
			toStatus := created.DeepCopy()
			toStatus.Spec.Replicas = ptr(int32(5))
			toStatus.Labels["new"] = "label"
			toStatus.Status = appsv1.DeploymentStatus{
				ObservedGeneration: 7, Replicas: 3, ReadyReplicas: 2,
				Conditions: []appsv1.DeploymentCondition{{
					Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "Test", Message: "m",
					LastUpdateTime: metav1.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), LastTransitionTime: metav1.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC),
				}},
			}
			statusWritten, err := deploys.UpdateStatus(ctx, toStatus, metav1.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(1), *statusWritten.Spec.Replicas, "a status write ignores spec")
			assert.Equal(t, map[string]string{"app": "st"}, statusWritten.Labels, "a status write ignores metadata")
			assert.Equal(t, created.Generation, statusWritten.Generation)
			assertSemanticEqual(t, toStatus.Status, statusWritten.Status)
			assert.NotEqual(t, created.ResourceVersion, statusWritten.ResourceVersion)
			got, err := deploys.Get(ctx, "st", metav1.GetOptions{})
			require.NoError(t, err)
			assertSemanticEqual(t, statusWritten, got, "GET reads what the status write answered")

			viaStatus := &appsv1.Deployment{}
			require.NoError(t, cs.AppsV1().RESTClient().Get().Namespace("default").Resource("deployments").Name("st").SubResource("status").Do(ctx).Into(viaStatus))
			assertSemanticEqual(t, got, viaStatus, "GET …/status returns the whole object")

			// Update: spec is written, status is not.
			toMain := got.DeepCopy()
			toMain.Spec.Replicas = ptr(int32(2))
			toMain.Status.Replicas = 99
			toMain.Status.Conditions = nil
			mainWritten, err := deploys.Update(ctx, toMain, metav1.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(2), *mainWritten.Spec.Replicas)
			assertSemanticEqual(t, got.Status, mainWritten.Status, "an update of the main resource ignores status")
			assert.Equal(t, got.Generation+1, mainWritten.Generation)

			// An update whose only change is to status is a no-op.
			onlyStatus := mainWritten.DeepCopy()
			onlyStatus.Status.Replicas = 42
			noop, err := deploys.Update(ctx, onlyStatus, metav1.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, mainWritten.ResourceVersion, noop.ResourceVersion, "nothing changed, no new resourceVersion (04-writes.md)")
			assert.Equal(t, int32(3), noop.Status.Replicas)

			// A merge patch of /status applies only the status part.
			patched, err := deploys.Patch(ctx, "st", types.MergePatchType,
				[]byte(`{"status":{"availableReplicas":1},"spec":{"replicas":7}}`), metav1.PatchOptions{}, "status")
			require.NoError(t, err)
			assert.Equal(t, int32(1), patched.Status.AvailableReplicas)
			assert.Equal(t, int32(2), *patched.Spec.Replicas)
		})
	}
}
