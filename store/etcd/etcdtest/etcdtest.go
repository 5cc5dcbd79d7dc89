// Package etcdtest runs etcd inside a test process (go.etcd.io/etcd's
// embed package) on loopback ports chosen at random: tests of store/etcd
// and of servers built on it need no etcd binary and nothing installed.
// Members can be stopped and started again on the same ports and data, to
// test faults.
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// Member is one embedded etcd server.
type Member struct {
	name       string
	dir        string
	clientURL  url.URL
	peerURL    url.URL
	cluster    string
	clusterNew bool

	mu   sync.Mutex
	etcd *embed.Etcd
}

// Cluster is a set of members that form one etcd cluster.
type Cluster struct {
	Members []*Member
}

// startTimeout bounds a member's start and its cluster's first election.
const startTimeout = 60 * time.Second

// Start runs a one-member etcd for the test and stops it at its end.
func Start(t testing.TB) *Cluster { return StartCluster(t, 1) }

// StartCluster runs an n-member etcd cluster for the test and stops it at
// its end.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{}
	var initial []string
	for i := range n {
		m := &Member{
			name:       fmt.Sprintf("m%d", i),
			dir:        t.TempDir(),
			clientURL:  url.URL{Scheme: "http", Host: freeAddr(t)},
			peerURL:    url.URL{Scheme: "http", Host: freeAddr(t)},
			clusterNew: true,
		}
		initial = append(initial, m.name+"="+m.peerURL.String())
		c.Members = append(c.Members, m)
	}
	errs := make(chan error, n)
	for _, m := range c.Members {
		m.cluster = strings.Join(initial, ",")
		go func() { errs <- m.Start() }()
	}
	for range n {
		if err := <-errs; err != nil {
			c.Stop()
			t.Fatalf("etcdtest: %v", err)
		}
	}
	t.Cleanup(c.Stop)
	return c
}

// freeAddr returns a loopback address with a port nobody listens on now.
func freeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("etcdtest: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

// Endpoints are the members' client URLs.
func (c *Cluster) Endpoints() []string {
	var out []string
	for _, m := range c.Members {
		out = append(out, m.Endpoint())
	}
	return out
}

// Client returns a client of every member, closed at the test's end.
func (c *Cluster) Client(t testing.TB) *clientv3.Client {
	t.Helper()
	cli, err := clientv3.New(clientv3.Config{
		Endpoints:   c.Endpoints(),
		DialTimeout: 5 * time.Second,
		Logger:      zap.NewNop(),
	})
	if err != nil {
		t.Fatalf("etcdtest: %v", err)
	}
	t.Cleanup(func() { _ = cli.Close() })
	return cli
}

// Stop stops every member.
func (c *Cluster) Stop() {
	for _, m := range c.Members {
		m.Stop()
	}
}

// Endpoint is the member's client URL.
func (m *Member) Endpoint() string { return m.clientURL.String() }

// Start starts the member (again, after Stop, on the same ports and data)
// and waits until it serves.
func (m *Member) Start() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.etcd != nil {
		return nil
	}
	cfg := embed.NewConfig()
	cfg.Name = m.name
	cfg.Dir = m.dir
	cfg.ListenClientUrls = []url.URL{m.clientURL}
	cfg.AdvertiseClientUrls = []url.URL{m.clientURL}
	cfg.ListenPeerUrls = []url.URL{m.peerURL}
	cfg.AdvertisePeerUrls = []url.URL{m.peerURL}
	cfg.InitialCluster = m.cluster
	cfg.InitialClusterToken = "etcdtest"
	if m.clusterNew {
		cfg.ClusterState = embed.ClusterStateFlagNew
	} else {
		cfg.ClusterState = embed.ClusterStateFlagExisting
	}
	cfg.TickMs, cfg.ElectionMs = 10, 100
	cfg.UnsafeNoFsync = true
	cfg.Logger = "zap"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return fmt.Errorf("starting %s: %w", m.name, err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return fmt.Errorf("starting %s: %w", m.name, err)
	case <-time.After(startTimeout):
		e.Close()
		return fmt.Errorf("starting %s: not ready after %v", m.name, startTimeout)
	}
	m.etcd = e
	m.clusterNew = false
	return nil
}

// Stop stops the member, keeping its data for Start.
func (m *Member) Stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.etcd == nil {
		return
	}
	m.etcd.Close()
	m.etcd = nil
}
