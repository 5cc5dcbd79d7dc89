package e2e

// API Priority and Fairness through real clients: kubectl's
// tables, client-go's writes of both kinds, kube's 429 and client-go
// honouring its Retry-After, and fairness between flows over HTTP.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	flowcontrolv1beta3 "k8s.io/api/flowcontrol/v1beta3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	fcapply "k8s.io/client-go/applyconfigurations/flowcontrol/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/flowcontrol"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// startFlowControlCluster starts the example server with flow control on
// (and the given admission plugins besides its own).
func startFlowControlCluster(t *testing.T, opts flowcontrol.Options, admission ...any) (*cluster, *apiserver.Server) {
	t.Helper()
	return startFlowControlClusterWith(t, kapiserver.Config(), opts, admission...)
}

func startFlowControlClusterWith(t *testing.T, cfg apiserver.Config, opts flowcontrol.Options, admission ...any) (*cluster, *apiserver.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts.Context = ctx
	cfg.FlowControl = &opts
	cfg.Admission = append(cfg.Admission, admission...)
	srv, err := apiserver.New(cfg)
	require.NoError(t, err)
	// Until kapi authenticates, requests carrying the admin token are made
	// system:masters here, as kube's admin would be: exempt from flow
	// control, so that setting a test up never waits.
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer "+adminToken {
			r = r.WithContext(authn.WithUser(r.Context(), &authn.User{Name: "admin",
				Groups: []string{authn.SystemPrivilegedGroup, authn.AllAuthenticated}}))
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, kapiserver.WriteKubeconfig(path, ts.URL))
	return &cluster{t: t, url: ts.URL, kubeconfig: path}, srv
}

const adminToken = "admin-token"

// adminClientset is a clientset of the test's administrator.
func adminClientset(t *testing.T, c *cluster) kubernetes.Interface {
	t.Helper()
	cfg := restConfigFor(t, c, "application/json")
	cfg.BearerToken = adminToken
	return clientsetWithConfig(t, cfg)
}

func ptrTo[T any](v T) *T { return &v }

// tableFields splits kubectl's output into lines of fields, ages replaced: the
// spacing is kubectl's own, computed from the cells.
func tableFields(out string) [][]string {
	var lines [][]string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(l)
		for i, w := range f {
			if strings.HasSuffix(w, "s") && strings.Trim(w, "0123456789") == "s" || w == "<age>" {
				f[i] = "<age>"
			}
		}
		lines = append(lines, f)
	}
	return lines
}

func TestKubectlPrintsFlowControlObjectsAsKube(t *testing.T) {
	c, _ := startFlowControlCluster(t, flowcontrol.Options{})
	want, err := os.ReadFile("testdata/kube-get-flowschemas-prioritylevelconfigurations.txt")
	require.NoError(t, err)
	for _, version := range []string{"1.27", "1.30", "1.33"} {
		t.Run(version, func(t *testing.T) {
			out := c.mustKubectl(version, "get", "flowschemas,prioritylevelconfigurations")
			assert.Equal(t, tableFields(string(want)), tableFields(out))
		})
	}
	out := c.mustKubectl("1.33", "get", "flowschemas", "catch-all", "-o", "jsonpath={.spec.matchingPrecedence} {.status.conditions[0].reason}")
	assert.Equal(t, "10000 Found", out)
}

func TestClientGoWritesBothFlowControlKinds(t *testing.T) {
	c, _ := startFlowControlCluster(t, flowcontrol.Options{})
	for _, contentType := range []string{"application/json", "application/vnd.kubernetes.protobuf"} {
		t.Run(contentType, func(t *testing.T) {
			ctx := context.Background()
			cs := clientsetFor(t, c, contentType).FlowcontrolV1()
			name := "team-" + strings.ReplaceAll(strings.Split(contentType, "/")[1], ".", "-")

			// Create: kube's defaults fill what is left out.
			pl, err := cs.PriorityLevelConfigurations().Create(ctx, &flowcontrolv1.PriorityLevelConfiguration{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited,
					Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{LimitResponse: flowcontrolv1.LimitResponse{
						Type: flowcontrolv1.LimitResponseTypeQueue, Queuing: &flowcontrolv1.QueuingConfiguration{}}}},
			}, metav1.CreateOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(30), *pl.Spec.Limited.NominalConcurrencyShares)
			assert.Equal(t, int32(0), *pl.Spec.Limited.LendablePercent)
			assert.Equal(t, flowcontrolv1.QueuingConfiguration{Queues: 64, HandSize: 8, QueueLengthLimit: 50}, *pl.Spec.Limited.LimitResponse.Queuing)
			assert.Equal(t, int64(1), pl.Generation)

			// Update and patch change the spec (and the generation).
			pl.Spec.Limited.NominalConcurrencyShares = ptrTo(int32(0)) // v1 keeps a zero
			pl, err = cs.PriorityLevelConfigurations().Update(ctx, pl, metav1.UpdateOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(0), *pl.Spec.Limited.NominalConcurrencyShares)
			assert.Equal(t, int64(2), pl.Generation)
			pl, err = cs.PriorityLevelConfigurations().Patch(ctx, name, types.MergePatchType,
				[]byte(`{"spec":{"limited":{"lendablePercent":40}}}`), metav1.PatchOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(40), *pl.Spec.Limited.LendablePercent)

			// Server-side apply, as a controller would: the fields another
			// manager set stay.
			pl, err = cs.PriorityLevelConfigurations().Apply(ctx, fcapply.PriorityLevelConfiguration(name).
				WithSpec(fcapply.PriorityLevelConfigurationSpec().WithType(flowcontrolv1.PriorityLevelEnablementLimited).
					WithLimited(fcapply.LimitedPriorityLevelConfiguration().WithBorrowingLimitPercent(200).
						WithLimitResponse(fcapply.LimitResponse().WithType(flowcontrolv1.LimitResponseTypeQueue)))),
				metav1.ApplyOptions{FieldManager: "team-controller", Force: true})
			require.NoError(t, err)
			assert.Equal(t, int32(200), *pl.Spec.Limited.BorrowingLimitPercent)
			assert.Equal(t, int32(40), *pl.Spec.Limited.LendablePercent)
			assert.Equal(t, int32(64), pl.Spec.Limited.LimitResponse.Queuing.Queues)

			// The status is written through /status only.
			pl.Status.Conditions = []flowcontrolv1.PriorityLevelConfigurationCondition{{Type: "Checked", Status: flowcontrolv1.ConditionTrue, Reason: "Test"}}
			pl, err = cs.PriorityLevelConfigurations().UpdateStatus(ctx, pl, metav1.UpdateOptions{})
			require.NoError(t, err)
			require.Len(t, pl.Status.Conditions, 1)

			// A schema for the level: the server reports it found.
			_, err = cs.FlowSchemas().Create(ctx, &flowcontrolv1.FlowSchema{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: flowcontrolv1.FlowSchemaSpec{PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: name},
					Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
						Subjects:         []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindUser, User: &flowcontrolv1.UserSubject{Name: "team"}}},
						NonResourceRules: []flowcontrolv1.NonResourcePolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}},
					}}},
			}, metav1.CreateOptions{})
			require.NoError(t, err)
			require.Eventually(t, func() bool {
				fs, err := cs.FlowSchemas().Get(ctx, name, metav1.GetOptions{})
				return err == nil && len(fs.Status.Conditions) == 1 && fs.Status.Conditions[0].Reason == "Found"
			}, 5*time.Second, 10*time.Millisecond)
			fs, err := cs.FlowSchemas().Get(ctx, name, metav1.GetOptions{})
			require.NoError(t, err)
			assert.Equal(t, int32(1000), fs.Spec.MatchingPrecedence)

			// Deleting the level leaves the schema dangling.
			require.NoError(t, cs.PriorityLevelConfigurations().Delete(ctx, name, metav1.DeleteOptions{}))
			require.Eventually(t, func() bool {
				fs, err := cs.FlowSchemas().Get(ctx, name, metav1.GetOptions{})
				return err == nil && len(fs.Status.Conditions) == 1 && fs.Status.Conditions[0].Status == flowcontrolv1.ConditionTrue
			}, 5*time.Second, 10*time.Millisecond)
			list, err := cs.FlowSchemas().List(ctx, metav1.ListOptions{})
			require.NoError(t, err)
			assert.Len(t, list.Items, 14)
			require.NoError(t, cs.FlowSchemas().Delete(ctx, name, metav1.DeleteOptions{}))
		})
	}
}

func TestInvalidFlowControlObjectsAreRefusedAsKubeRefusesThem(t *testing.T) {
	c, _ := startFlowControlCluster(t, flowcontrol.Options{})
	ctx := context.Background()
	cs := clientsetFor(t, c, "application/json").FlowcontrolV1()
	_, err := cs.PriorityLevelConfigurations().Create(ctx, &flowcontrolv1.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "bad"},
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{NominalConcurrencyShares: ptrTo(int32(-1)),
				LimitResponse: flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeQueue,
					Queuing: &flowcontrolv1.QueuingConfiguration{Queues: 4, HandSize: 5}}}},
	}, metav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	st := err.(apierrors.APIStatus).Status()
	assert.Equal(t, `PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "bad" is invalid: [spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer, spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)]`, st.Message)
	assert.Equal(t, []metav1.StatusCause{
		{Type: metav1.CauseTypeFieldValueInvalid, Message: "Invalid value: -1: must be a non-negative integer", Field: "spec.limited.nominalConcurrencyShares"},
		{Type: metav1.CauseTypeFieldValueInvalid, Message: "Invalid value: 5: should not be greater than queues (4)", Field: "spec.limited.limitResponse.queuing.handSize"},
	}, st.Details.Causes)

	_, err = cs.FlowSchemas().Create(ctx, &flowcontrolv1.FlowSchema{
		ObjectMeta: metav1.ObjectMeta{Name: "first"},
		Spec: flowcontrolv1.FlowSchemaSpec{MatchingPrecedence: 1,
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: "global-default"}},
	}, metav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1")

	// The mandatory objects keep their spec.
	_, err = cs.PriorityLevelConfigurations().Patch(ctx, "catch-all", types.MergePatchType,
		[]byte(`{"spec":{"limited":{"nominalConcurrencyShares":6}}}`), metav1.PatchOptions{})
	require.True(t, apierrors.IsInvalid(err), "%v", err)
	assert.Contains(t, err.Error(), "spec of 'catch-all' must equal the fixed value")

	// And the server still serves.
	_, err = clientsetFor(t, c, "application/json").CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
}

// flowControlTestLevel creates a level and a schema sending the requests
// for objects in namespaces to it.
func flowControlTestLevel(t *testing.T, cs kubernetes.Interface, name string, limited *flowcontrolv1.LimitedPriorityLevelConfiguration,
	distinguisher *flowcontrolv1.FlowDistinguisherMethod, namespaces ...string) {
	t.Helper()
	ctx := context.Background()
	for _, ns := range namespaces {
		_, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		require.NoError(t, err)
		_, err = cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm"},
			Data: map[string]string{"k": strings.Repeat("v", 512)}}, metav1.CreateOptions{})
		require.NoError(t, err)
	}
	_, err := cs.FlowcontrolV1().PriorityLevelConfigurations().Create(ctx, &flowcontrolv1.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited, Limited: limited},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = cs.FlowcontrolV1().FlowSchemas().Create(ctx, &flowcontrolv1.FlowSchema{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: flowcontrolv1.FlowSchemaSpec{PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: name},
			MatchingPrecedence: 100, DistinguisherMethod: distinguisher,
			Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
				Subjects: []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: "system:unauthenticated"}}},
				ResourceRules: []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"},
					Namespaces: namespaces}},
			}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	require.Eventually(t, func() bool { // the schema's status is written once it is in force
		fs, err := cs.FlowcontrolV1().FlowSchemas().Get(ctx, name, metav1.GetOptions{})
		return err == nil && len(fs.Status.Conditions) > 0 && fs.Status.Conditions[0].Reason == "Found"
	}, 5*time.Second, 5*time.Millisecond)
}

// slowBackend is an admission plugin that makes writes in some
// namespaces take 5 ms, as a storage round trip would (kube's writes wait
// for etcd; kapi's memory store answers in microseconds): requests that
// hold their seat long without using the CPU, so that what is measured is
// flow control's queuing, not the two cores the test shares with its own
// clients.
type slowBackend map[string]bool

func (s slowBackend) Admit(_ context.Context, req *apiserver.AdmissionRequest) error {
	if s[req.Namespace] {
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

// slowWrite creates a ConfigMap in ns with dryRun=All (nothing stored).
func slowWrite(ctx context.Context, cs kubernetes.Interface, ns string) error {
	_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "w-"}},
		metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	return err
}

// oneSeat is a Limited level that keeps exactly its nominal seats (it
// neither lends nor borrows), queuing the rest.
func oneSeat(queues, handSize int32) *flowcontrolv1.LimitedPriorityLevelConfiguration {
	return &flowcontrolv1.LimitedPriorityLevelConfiguration{NominalConcurrencyShares: ptrTo(int32(50)),
		LendablePercent: ptrTo(int32(0)), BorrowingLimitPercent: ptrTo(int32(0)),
		LimitResponse: flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeQueue,
			Queuing: &flowcontrolv1.QueuingConfiguration{Queues: queues, HandSize: handSize, QueueLengthLimit: 50}}}
}

// TestAFloodingFlowNeverMakesACalmOneInAnotherLevelWait: with a server
// concurrency limit of 4, sixteen clients flooding one level with slow
// writes leave a client sending at a steady modest rate in another level
// its seat: none of its requests waits in a queue, none gets a 429, while
// the flood queues for its own level's seat. Flow control's own record of
// each request's wait says so; latency on two shared cores would measure
// the CPU the test's clients take, not queuing.
func TestAFloodingFlowNeverMakesACalmOneInAnotherLevelWait(t *testing.T) {
	c, srv := startFlowControlCluster(t, flowcontrol.Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2},
		slowBackend{"noisy": true})
	admin := adminClientset(t, c)
	// 4 seats over 345 shares: each of these levels gets 1.
	flowControlTestLevel(t, admin, "noisy", oneSeat(16, 4), &flowcontrolv1.FlowDistinguisherMethod{Type: flowcontrolv1.FlowDistinguisherMethodByUserType}, "noisy")
	flowControlTestLevel(t, admin, "calm", oneSeat(8, 2), nil, "calm")

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var flood atomic.Int64
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs := clientsetFor(t, c, "application/json")
			for ctx.Err() == nil {
				if err := slowWrite(ctx, cs, "noisy"); err == nil {
					flood.Add(1)
				}
			}
		}()
	}
	time.Sleep(100 * time.Millisecond)
	cs := clientsetFor(t, c, "application/json")
	tick := time.NewTicker(10 * time.Millisecond)
	const calmRequests = 200
	for range calmRequests {
		<-tick.C
		_, err := cs.CoreV1().ConfigMaps("calm").Get(context.Background(), "cm", metav1.GetOptions{})
		require.NoError(t, err, "the calm flow never gets a 429")
	}
	tick.Stop()
	stop()
	wg.Wait()
	require.Positive(t, flood.Load())

	var metrics strings.Builder
	require.NoError(t, srv.FlowControl().WritePrometheus(&metrics))
	waits := func(level, le string) int64 {
		return metricValue(t, metrics.String(), `apiserver_flowcontrol_request_wait_duration_seconds_bucket{execute="true",flow_schema="`+
			level+`",priority_level="`+level+`",le="`+le+`"}`)
	}
	assert.Equal(t, waits("calm", "+Inf"), waits("calm", "0"), "every calm request took its seat at once")
	assert.GreaterOrEqual(t, waits("calm", "+Inf"), int64(calmRequests))
	assert.Greater(t, waits("noisy", "+Inf"), waits("noisy", "0"), "the flood queued for its own seat")
	assert.NotContains(t, metrics.String(), `rejected_requests_total{flow_schema="calm"`)
}

// metricValue is the value of the exposition line that starts with
// series, failing the test if there is none.
func metricValue(t *testing.T, exposition, series string) int64 {
	t.Helper()
	for _, line := range strings.Split(exposition, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err, line)
			return n
		}
	}
	t.Fatalf("no series %s in the metrics", series)
	return 0
}

// TestTwoBackloggedFlowsOfOneLevelShareItsSeats: within one level, a flow
// of twelve clients and one of four, both always waiting (their slow
// writes hold the seat longer than the clients take to send the next),
// each get at least 0.4 of the dispatches.
func TestTwoBackloggedFlowsOfOneLevelShareItsSeats(t *testing.T) {
	c, _ := startFlowControlCluster(t, flowcontrol.Options{MaxRequestsInFlight: 2, MaxMutatingRequestsInFlight: 2},
		slowBackend{"big": true, "small": true})
	admin := adminClientset(t, c)
	// A hand of 4 queues: each flow spreads over (up to) 4 queues, and
	// fair queuing shares the seat among queues.
	flowControlTestLevel(t, admin, "shared", oneSeat(64, 4),
		&flowcontrolv1.FlowDistinguisherMethod{Type: flowcontrolv1.FlowDistinguisherMethodByNamespaceType}, "big", "small")

	var counting atomic.Bool
	counts := map[string]*atomic.Int64{"big": {}, "small": {}}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for ns, clients := range map[string]int{"big": 12, "small": 4} {
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cs := clientsetFor(t, c, "application/json")
				for ctx.Err() == nil {
					err := slowWrite(ctx, cs, ns)
					if err == nil && counting.Load() {
						counts[ns].Add(1)
					}
				}
			}()
		}
	}
	time.Sleep(100 * time.Millisecond) // both flows backlogged
	counting.Store(true)
	time.Sleep(2 * time.Second)
	counting.Store(false)
	stop()
	wg.Wait()
	big, small := counts["big"].Load(), counts["small"].Load()
	total := float64(big + small)
	t.Logf("dispatched while both were backlogged: big %d, small %d", big, small)
	require.Positive(t, total)
	assert.GreaterOrEqual(t, float64(big)/total, 0.4)
	assert.GreaterOrEqual(t, float64(small)/total, 0.4)
}

// TestClientGoHonoursTheRetryAfterOfA429: a request rejected by flow
// control is retried by client-go after the Retry-After second, and
// succeeds once the level lets it through.
func TestClientGoHonoursTheRetryAfterOfA429(t *testing.T) {
	c, _ := startFlowControlCluster(t, flowcontrol.Options{RequestWaitLimit: 200 * time.Millisecond})
	admin := adminClientset(t, c)
	jail := oneSeat(1, 1)
	jail.NominalConcurrencyShares = ptrTo(int32(0)) // no seat at all: every request waits, then 429
	flowControlTestLevel(t, admin, "jail", jail, nil, "jailed")

	var mu sync.Mutex
	var codes []int
	rejected := make(chan struct{}, 10)
	cfg := restConfigFor(t, c, "application/json")
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := rt.RoundTrip(r)
			if err == nil && strings.Contains(r.URL.Path, "/namespaces/jailed/") {
				mu.Lock()
				codes = append(codes, resp.StatusCode)
				mu.Unlock()
				if resp.StatusCode == http.StatusTooManyRequests {
					assert.Equal(t, "1", resp.Header.Get("Retry-After"))
					rejected <- struct{}{}
				}
			}
			return resp, err
		})
	}
	cs := clientsetWithConfig(t, cfg)
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		_, err := cs.CoreV1().ConfigMaps("jailed").Get(context.Background(), "cm", metav1.GetOptions{})
		done <- err
	}()
	<-rejected
	// Let the jailed namespace out: its requests go to global-default.
	require.NoError(t, admin.FlowcontrolV1().FlowSchemas().Delete(context.Background(), "jail", metav1.DeleteOptions{}))
	require.NoError(t, <-done)
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "client-go waited the Retry-After")
	mu.Lock()
	defer mu.Unlock()
	require.GreaterOrEqual(t, len(codes), 2)
	assert.Equal(t, http.StatusOK, codes[len(codes)-1])
	assert.Equal(t, http.StatusTooManyRequests, codes[0])
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestClientGoWritesV1beta3WhenServed(t *testing.T) {
	cfg := kapiserver.Config()
	kapiserver.ServeFlowControlV1beta3(&cfg)
	c, _ := startFlowControlClusterWith(t, cfg, flowcontrol.Options{})
	ctx := context.Background()
	cs := clientsetFor(t, c, "application/json")
	beta := cs.FlowcontrolV1beta3()

	pl, err := beta.PriorityLevelConfigurations().Create(ctx, &flowcontrolv1beta3.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "jail", Annotations: map[string]string{flowcontrolv1beta3.PriorityLevelPreserveZeroConcurrencySharesKey: ""}},
		Spec: flowcontrolv1beta3.PriorityLevelConfigurationSpec{Type: flowcontrolv1beta3.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1beta3.LimitedPriorityLevelConfiguration{LimitResponse: flowcontrolv1beta3.LimitResponse{
				Type: flowcontrolv1beta3.LimitResponseTypeQueue, Queuing: &flowcontrolv1beta3.QueuingConfiguration{}}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), pl.Spec.Limited.NominalConcurrencyShares, "kept at 0 by the annotation")
	assert.Equal(t, int32(64), pl.Spec.Limited.LimitResponse.Queuing.Queues)

	pl.Spec.Limited.LendablePercent = ptrTo(int32(20))
	pl, err = beta.PriorityLevelConfigurations().Update(ctx, pl, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), pl.Spec.Limited.NominalConcurrencyShares)
	pl, err = beta.PriorityLevelConfigurations().Patch(ctx, "jail", types.MergePatchType,
		[]byte(`{"spec":{"limited":{"borrowingLimitPercent":0}}}`), metav1.PatchOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), *pl.Spec.Limited.BorrowingLimitPercent)
	pl.Status.Conditions = []flowcontrolv1beta3.PriorityLevelConfigurationCondition{{Type: "Checked", Status: flowcontrolv1beta3.ConditionTrue}}
	pl, err = beta.PriorityLevelConfigurations().UpdateStatus(ctx, pl, metav1.UpdateOptions{})
	require.NoError(t, err)
	assert.Len(t, pl.Status.Conditions, 1)

	v1, err := cs.FlowcontrolV1().PriorityLevelConfigurations().Get(ctx, "jail", metav1.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(0), *v1.Spec.Limited.NominalConcurrencyShares)
	assert.NotContains(t, v1.Annotations, flowcontrolv1beta3.PriorityLevelPreserveZeroConcurrencySharesKey)
	assert.Equal(t, int32(20), *v1.Spec.Limited.LendablePercent)

	fs, err := beta.FlowSchemas().Create(ctx, &flowcontrolv1beta3.FlowSchema{
		ObjectMeta: metav1.ObjectMeta{Name: "jailed"},
		Spec: flowcontrolv1beta3.FlowSchemaSpec{PriorityLevelConfiguration: flowcontrolv1beta3.PriorityLevelConfigurationReference{Name: "jail"},
			Rules: []flowcontrolv1beta3.PolicyRulesWithSubjects{{
				Subjects:         []flowcontrolv1beta3.Subject{{Kind: flowcontrolv1beta3.SubjectKindUser, User: &flowcontrolv1beta3.UserSubject{Name: "nobody"}}},
				NonResourceRules: []flowcontrolv1beta3.NonResourcePolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/x"}}},
			}}},
	}, metav1.CreateOptions{})
	require.NoError(t, err)
	assert.Equal(t, int32(1000), fs.Spec.MatchingPrecedence)
	require.Eventually(t, func() bool {
		fs, err := beta.FlowSchemas().Get(ctx, "jailed", metav1.GetOptions{})
		return err == nil && len(fs.Status.Conditions) == 1 && fs.Status.Conditions[0].Reason == "Found"
	}, 5*time.Second, 10*time.Millisecond)
	list, err := beta.FlowSchemas().List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Len(t, list.Items, 14)
}
