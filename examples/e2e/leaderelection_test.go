package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
)

// TestLeaderElectionOverProtobufLeases runs client-go's leader election,
// which writes coordination.k8s.io Leases in protobuf (the traffic that
// breaks servers without protobuf request bodies): one candidate leads,
// and after it steps down the other takes over.
func TestLeaderElectionOverProtobufLeases(t *testing.T) {
	c := startCluster(t)
	cfg := c.restConfig()
	cfg.ContentType = "application/vnd.kubernetes.protobuf"
	cs, err := kubernetes.NewForConfig(cfg)
	require.NoError(t, err)

	leading := make(chan string, 2)
	run := func(ctx context.Context, id string) {
		lock := &resourcelock.LeaseLock{
			LeaseMeta:  metav1.ObjectMeta{Name: "controller", Namespace: "default"},
			Client:     cs.CoordinationV1(),
			LockConfig: resourcelock.ResourceLockConfig{Identity: id},
		}
		leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
			Lock: lock, LeaseDuration: 2 * time.Second, RenewDeadline: time.Second, RetryPeriod: 100 * time.Millisecond,
			ReleaseOnCancel: true,
			Callbacks: leaderelection.LeaderCallbacks{
				OnStartedLeading: func(context.Context) { leading <- id },
				OnStoppedLeading: func() {},
			},
		})
	}
	firstCtx, stopFirst := context.WithCancel(context.Background())
	go run(firstCtx, "first")
	select {
	case id := <-leading:
		assert.Equal(t, "first", id)
	case <-time.After(2 * time.Minute):
		t.Fatal("no leader within 10s")
	}
	lease, err := cs.CoordinationV1().Leases("default").Get(context.Background(), "controller", metav1.GetOptions{})
	require.NoError(t, err)
	require.NotNil(t, lease.Spec.HolderIdentity)
	assert.Equal(t, "first", *lease.Spec.HolderIdentity)

	secondCtx, stopSecond := context.WithCancel(context.Background())
	defer stopSecond()
	go run(secondCtx, "second")
	stopFirst() // releases the lease on cancel
	select {
	case id := <-leading:
		assert.Equal(t, "second", id)
	case <-time.After(2 * time.Minute):
		t.Fatal("the second candidate never took over")
	}
}
