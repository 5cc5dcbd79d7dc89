package e2e

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/examples/server/kapiserver"
)

// TestKubectlManagesConfigMapsOnTheREADMEsEmbeddingConfiguration runs the
// README's Embedding example as written (ConfigMaps under /kube/ of a
// service's own mux, default codecs) against every kubectl: kubectl sends
// built-in kinds as protobuf, which the library's own descriptors serve.
func TestKubectlManagesConfigMapsOnTheREADMEsEmbeddingConfiguration(t *testing.T) {
	kube, err := apiserver.New(apiserver.Config{
		Resources: []apiserver.Resource{{
			Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, ShortNames: []string{"cm"},
		}},
	})
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/kube/", http.StripPrefix("/kube", kube))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, kapiserver.WriteKubeconfig(kubeconfig, srv.URL+"/kube"))
	c := &cluster{t: t, url: srv.URL + "/kube", kubeconfig: kubeconfig}

	for _, v := range []string{"1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33"} {
		t.Run("kubectl "+v, func(t *testing.T) {
			c := &cluster{t: t, url: c.url, kubeconfig: c.kubeconfig}
			out := c.mustKubectl(v, "create", "configmap", "x", "--from-literal=a=b")
			assert.Contains(t, out, "configmap/x created")
			assert.Equal(t, "b", c.mustKubectl(v, "get", "cm", "x", "-o", "jsonpath={.data.a}"))
			out = c.mustKubectlStdin(v, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: c\n", "apply", "-f", "-")
			assert.Contains(t, out, "configmap/x configured")
			assert.Equal(t, "c", c.mustKubectl(v, "get", "configmap", "x", "-o", "jsonpath={.data.a}"))
			assert.Contains(t, c.mustKubectl(v, "delete", "configmap", "x"), `configmap "x" deleted`)
		})
	}
}
