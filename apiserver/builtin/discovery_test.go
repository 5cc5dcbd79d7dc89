package builtin_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// discoveryDir holds kube-apiserver 1.33's discovery documents, recorded
// from a fresh server (docs/kube-behaviour/builtin/record-discovery.sh).
const discoveryDir = "../../docs/kube-behaviour/builtin/discovery"

const aggregatedAccept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList"

// sortedDoc normalises a discovery document for comparison: every list of
// named things (groups, versions, resources, subresources) sorted, the
// server's address removed. Everything else, storageVersionHash included,
// must be equal.
func sortedDoc(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "serverAddressByClientCIDRs")
		for k, e := range x {
			x[k] = sortedDoc(e)
		}
	case []any:
		for i, e := range x {
			x[i] = sortedDoc(e)
		}
		key := func(e any) string {
			m, _ := e.(map[string]any)
			for _, k := range []string{"name", "resource", "subresource", "groupVersion"} {
				if s, ok := m[k].(string); ok {
					return s
				}
			}
			if md, ok := m["metadata"].(map[string]any); ok {
				s, _ := md["name"].(string)
				return s
			}
			return ""
		}
		sort.SliceStable(x, func(i, j int) bool { return key(x[i]) < key(x[j]) })
	}
	return v
}

func getJSON(t *testing.T, h http.Handler, path, accept string) any {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Accept", accept)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code, "%s: %s", path, rec.Body.String())
	var v any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &v))
	return v
}

// releaseDiscoveryDirs hold, per release, the discovery documents of
// that kube-apiserver, recorded from a live server (1.33.13, 1.37.2:
// record-discovery.sh; 1.37's equal what discovery-from-module.sh derives
// from its module, the aggregated /api aside, which the module lacks).
var releaseDiscoveryDirs = []struct {
	release apiserver.Release
	dir     string
}{
	{apiserver.Release133, discoveryDir},
	{apiserver.Release135, "../../docs/kube-behaviour/builtin/discovery-1.35"},
	{apiserver.Release136, "../../docs/kube-behaviour/builtin/discovery-1.36"},
	{apiserver.Release137, "../../docs/kube-behaviour/builtin/discovery-1.37"},
}

// TestDiscoveryIsKubes compares every discovery document kapi serves with
// the built-in kinds (legacy: /api, /api/v1, /apis, each group and group
// version; aggregated: /api and /apis) with what kube-apiserver served at
// each release, modulo order: names, verbs, short names, categories,
// singular names, scopes, subresources and their kinds, preferred
// versions and storage version hashes.
func TestDiscoveryIsKubes(t *testing.T) {
	for _, rel := range releaseDiscoveryDirs {
		t.Run(string(rel.release), func(t *testing.T) {
			srv, err := apiserver.New(apiserver.Config{Release: rel.release, Resources: builtin.ResourcesFor(rel.release),
				OpenAPIComponents: builtin.OpenAPIComponentsFor(rel.release)})
			require.NoError(t, err)
			files, err := filepath.Glob(filepath.Join(rel.dir, "*.json"))
			require.NoError(t, err)
			require.NotEmpty(t, files)
			for _, f := range files {
				name := strings.TrimSuffix(filepath.Base(f), ".json")
				t.Run(name, func(t *testing.T) {
					accept := "application/json"
					if strings.HasSuffix(name, ".aggregated-v2") {
						name, accept = strings.TrimSuffix(name, ".aggregated-v2"), aggregatedAccept
					}
					path := "/" + strings.ReplaceAll(name, "_", "/")
					b, err := os.ReadFile(f)
					require.NoError(t, err)
					var want any
					require.NoError(t, json.Unmarshal(b, &want))
					got := getJSON(t, srv, path, accept)
					w, _ := json.MarshalIndent(sortedDoc(want), "", " ")
					g, _ := json.MarshalIndent(sortedDoc(got), "", " ")
					assert.Equal(t, string(w), string(g))
				})
			}
		})
	}
}
