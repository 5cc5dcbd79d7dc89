package apiserver_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/internal/benchkit"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
)

// getCounter is a memory store that counts its consistent reads (Get), the
// reads a store with a cache in front of etcd confirms with etcd.
type getCounter struct {
	*memory.Store
	gets atomic.Int64
}

func (s *getCounter) Get(ctx context.Context, key string) (*store.Object, error) {
	s.gets.Add(1)
	return s.Store.Get(ctx, key)
}

// As kube's, only a read of the most recent version is consistent: a GET
// at a resourceVersion is served from the store's snapshot (kube's watch
// cache), and a create looks its namespace up there first (kube's
// NamespaceLifecycle informer).
func TestOnlyReadsOfTheMostRecentVersionAreConsistentReads(t *testing.T) {
	st := &getCounter{Store: memory.New(memory.Config{})}
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), Store: st})
	require.NoError(t, err)
	benchkit.CreateNamespace(t, srv, "a")
	benchkit.MustServe(t, srv, http.StatusCreated, http.MethodPost, "/api/v1/namespaces/a/configmaps", "application/json",
		[]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"}}`))
	cm := func(name string) []byte {
		return []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"` + name + `"}}`)
	}
	tests := []struct {
		name, method, path string
		body               []byte
		code               int
		consistentReads    int64
	}{
		{"a GET without resourceVersion reads consistently", http.MethodGet, "/api/v1/namespaces/a/configmaps/cm", nil, http.StatusOK, 1},
		{"a GET at resourceVersion 0 reads the snapshot", http.MethodGet, "/api/v1/namespaces/a/configmaps/cm?resourceVersion=0", nil, http.StatusOK, 0},
		{"a GET at a past resourceVersion reads the snapshot", http.MethodGet, "/api/v1/namespaces/a/configmaps/cm?resourceVersion=1", nil, http.StatusOK, 0},
		{"a GET at resourceVersion 0 of a missing object is a 404 from the snapshot", http.MethodGet, "/api/v1/namespaces/a/configmaps/c?resourceVersion=0", nil, http.StatusNotFound, 0},
		{"a create finds its namespace in the snapshot", http.MethodPost, "/api/v1/namespaces/a/configmaps", cm("cm2"), http.StatusCreated, 0},
		{"a create whose namespace the snapshot lacks asks consistently", http.MethodPost, "/api/v1/namespaces/b/configmaps", cm("cm3"), http.StatusNotFound, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st.gets.Store(0)
			ctype := ""
			if tt.body != nil {
				ctype = "application/json"
			}
			benchkit.MustServe(t, srv, tt.code, tt.method, tt.path, ctype, tt.body)
			assert.Equal(t, tt.consistentReads, st.gets.Load())
		})
	}
}
