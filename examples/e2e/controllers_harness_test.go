package e2e

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/controllers"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
	"github.com/stretchr/testify/require"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// controlledCluster is the example server with its in-process controllers
// (namespace, garbage collector, default ServiceAccount, root CA), as
// `go run ./server` runs it.
type controlledCluster struct {
	*cluster
	ctrl *controllers.Manager
}

// startControlledCluster starts the example server's configuration with
// the controllers opts select; they stop, and every goroutine of theirs
// ends, when the test does.
func startControlledCluster(t *testing.T, opts controllers.Options) *controlledCluster {
	t.Helper()
	handler, err := apiserver.New(kapiserver.Config())
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	m, err := controllers.Start(ctx, handler, opts)
	require.NoError(t, err)
	srv := httptest.NewServer(handler)
	t.Cleanup(func() {
		srv.Close()
		cancel()
		select {
		case <-m.Done():
		case <-time.After(10 * time.Second):
			t.Error("the controllers did not stop")
		}
	})
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, kapiserver.WriteKubeconfig(path, srv.URL))
	c := &controlledCluster{cluster: &cluster{t: t, url: srv.URL, kubeconfig: path}, ctrl: m}
	c.settle()
	return c
}

// settle waits until the controllers have nothing left to do (the e2e
// helper of controllers.Manager.WaitIdle): no sleeps in tests.
func (c *controlledCluster) settle() {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(c.t, c.ctrl.WaitIdle(ctx))
}

// metricsOff keeps a controller-runtime manager from listening for metrics.
func metricsOff() metricsserver.Options { return metricsserver.Options{BindAddress: "0"} }

// startSecureControlledCluster is the example server as `go run ./server`
// runs it by default: HTTPS, RBAC, and the controllers, whose root CA is
// the one clients trust the serving certificate with. adjust, if any,
// change its configuration first (a shorter bookmark interval, say).
func startSecureControlledCluster(t *testing.T, adjust ...func(*apiserver.Config)) (*controlledCluster, *kapiserver.Secure) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sec, err := kapiserver.NewSecure(ctx, kapiserver.Options{})
	require.NoError(t, err)
	for _, a := range adjust {
		a(&sec.Config)
	}
	handler, err := apiserver.New(sec.Config)
	require.NoError(t, err)
	m, err := controllers.Start(ctx, handler, controllers.Options{RootCA: sec.CAData})
	require.NoError(t, err)
	srv := httptest.NewUnstartedServer(handler)
	srv.TLS = sec.TLS
	srv.StartTLS()
	t.Cleanup(func() {
		srv.Close()
		cancel()
		select {
		case <-m.Done():
		case <-time.After(10 * time.Second):
			t.Error("the controllers did not stop")
		}
	})
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, sec.WriteKubeconfig(path, srv.URL))
	c := &controlledCluster{cluster: &cluster{t: t, url: srv.URL, kubeconfig: path}, ctrl: m}
	c.settle()
	return c, sec
}
