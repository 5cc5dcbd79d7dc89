package etcd_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
	"github.com/kapi-dev/kapi/store/storetest"
)

// newStore starts an embedded etcd and a Store over it for one test.
func newStore(t testing.TB, cluster *etcdtest.Cluster, cfg etcd.Config) *etcd.Store {
	t.Helper()
	cfg.Client = cluster.Client(t)
	s, err := etcd.New(context.Background(), cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// TestConformance runs the store contract's suite. Its writes are bounded
// by a generous WriteTimeout, not kube's 34 s: twenty goroutines updating
// one key retry on each other's conflicts, and on two cores loaded to 50 one
// Update can take longer than that (the timeout itself is faults_test's).
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, opts storetest.Options) store.Store {
		return newStore(t, etcdtest.Start(t), etcd.Config{HistoryLimit: opts.HistoryLimit, WriteTimeout: 10 * time.Minute})
	})
}
