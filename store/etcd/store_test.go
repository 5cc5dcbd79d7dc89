package etcd_test

import (
	"context"
	"testing"

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

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T, opts storetest.Options) store.Store {
		return newStore(t, etcdtest.Start(t), etcd.Config{HistoryLimit: opts.HistoryLimit})
	})
}
