package etcd

import (
	"context"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Open connects to the etcd servers at endpoints (kube-apiserver's
// -etcd-servers) and returns a Store over them (cfg.Client is ignored);
// Close then closes the client too.
func Open(ctx context.Context, endpoints []string, cfg Config) (*Store, error) {
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   endpoints,
		DialTimeout: 20 * time.Second,
		Logger:      zap.NewNop(),
		// As kube-apiserver: notice a dead connection within seconds.
		DialKeepAliveTime:    30 * time.Second,
		DialKeepAliveTimeout: 10 * time.Second,
		Context:              context.Background(),
	})
	if err != nil {
		return nil, err
	}
	cfg.Client = cli
	s, err := New(ctx, cfg)
	if err != nil {
		_ = cli.Close()
		return nil, err
	}
	s.ownClient = true
	return s, nil
}

// Healthy reports whether etcd answers a read in time, as kube-apiserver's
// "etcd" health check: a Get of the key "health", whose absence is fine.
func (s *Store) Healthy(ctx context.Context) error {
	if _, err := s.cli.Get(ctx, "health"); err != nil {
		return fmt.Errorf("error getting data from etcd: %w", err)
	}
	return nil
}
