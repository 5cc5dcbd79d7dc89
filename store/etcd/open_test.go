package etcd_test

import (
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/store/etcd"
	"github.com/kapi-dev/kapi/store/etcd/etcdtest"
)

// downEndpoint is the URL of a loopback port nobody listens on.
func downEndpoint(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return "http://" + addr
}

func TestOpenOnAnEtcdThatIsDownFailsWithinItsTimeoutNamingEtcdAndWhy(t *testing.T) {
	endpoint := downEndpoint(t)
	start := time.Now()
	st, err := etcd.Open(t.Context(), []string{endpoint}, etcd.Config{})
	elapsed := time.Since(start)
	require.Error(t, err)
	assert.Nil(t, st)
	assert.Contains(t, err.Error(), "etcd at "+endpoint+" did not answer within 5s")
	assert.Contains(t, err.Error(), "connection refused", "the reason a TCP connection gives")
	// The bound is OpenTimeout's; the rest is one refused connection per
	// endpoint.
	assert.Less(t, elapsed, etcd.OpenTimeout+5*time.Second, "Open gives up after OpenTimeout")
}

func TestOpenOnARunningEtcdServes(t *testing.T) {
	cluster := etcdtest.Start(t)
	st, err := etcd.Open(t.Context(), cluster.Endpoints(), etcd.Config{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	require.NoError(t, st.Healthy(t.Context()))
}
