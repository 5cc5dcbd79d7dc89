package etcd

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// OpenTimeout bounds how long Open waits for etcd's first answer: an etcd
// that is down or unreachable is an error naming it within seconds, not a
// start that hangs.
const OpenTimeout = 5 * time.Second

// Open connects to the etcd servers at endpoints (kube-apiserver's
// -etcd-servers) and returns a Store over them (cfg.Client is ignored);
// Close then closes the client too. When none of them answers a read
// within OpenTimeout, Open fails with an error that names them and, when
// it can tell, why (connection refused, no such host...).
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
		return nil, fmt.Errorf("store/etcd: etcd at %s: %w", strings.Join(endpoints, ","), err)
	}
	if err := firstAnswer(ctx, cli, endpoints); err != nil {
		_ = cli.Close()
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

// firstAnswer waits up to OpenTimeout for a read from etcd.
func firstAnswer(ctx context.Context, cli *clientv3.Client, endpoints []string) error {
	probe, cancel := context.WithTimeout(ctx, OpenTimeout)
	defer cancel()
	_, err := cli.Get(probe, "health")
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("store/etcd: connecting to etcd at %s: %w", strings.Join(endpoints, ","), ctx.Err())
	}
	return fmt.Errorf("store/etcd: etcd at %s did not answer within %v: %w%s", strings.Join(endpoints, ","), OpenTimeout, err, dialErrors(endpoints))
}

// dialErrors says why the endpoints cannot be reached, when a TCP
// connection to them fails: the gRPC client reports only its deadline.
func dialErrors(endpoints []string) string {
	var reasons []string
	for _, ep := range endpoints {
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			continue // a unix socket, or what the client says is wrong
		}
		conn, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err != nil {
			reasons = append(reasons, err.Error())
			continue
		}
		_ = conn.Close()
	}
	if len(reasons) == 0 {
		return ""
	}
	return " (" + strings.Join(reasons, "; ") + ")"
}

// Healthy reports whether etcd answers a read in time, as kube-apiserver's
// "etcd" health check: a Get of the key "health", whose absence is fine.
func (s *Store) Healthy(ctx context.Context) error {
	if _, err := s.cli.Get(ctx, "health"); err != nil {
		return fmt.Errorf("error getting data from etcd: %w", err)
	}
	return nil
}
