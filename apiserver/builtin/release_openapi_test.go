package builtin_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
)

// liveReleases are the releases whose kube-apiserver was recorded live
// (1.35.4, 1.36.3, 1.37.2): liveReleaseDir(r) holds what it answered on
// /version and its OpenAPI documents
// (docs/kube-behaviour/19-releases/record-openapi.sh).
var liveReleases = []apiserver.Release{apiserver.Release135, apiserver.Release136, apiserver.Release137}

func liveReleaseDir(r apiserver.Release) string {
	return filepath.Join("../../docs/kube-behaviour/19-releases", string(r))
}

// readRecorded reads a recorded JSON document, gunzipping *.gz.
func readRecorded(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		require.NoError(t, err)
		b, err = io.ReadAll(zr)
		require.NoError(t, err)
	}
	var v map[string]any
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

// TestVersionIsTheLiveKubes: /version at each live-recorded release is
// what that kube-apiserver answered, apart from what belongs to a build
// (gitCommit, buildDate, goVersion).
func TestVersionIsTheLiveKubes(t *testing.T) {
	for _, rel := range liveReleases {
		t.Run(string(rel), func(t *testing.T) {
			want := readRecorded(t, filepath.Join(liveReleaseDir(rel), "version.json"))
			got := getJSON(t, releaseServer(t, rel), "/version", "application/json").(map[string]any)
			for _, k := range []string{"gitCommit", "buildDate", "goVersion"} {
				delete(got, k)
			}
			assert.Equal(t, want, got)
		})
	}
}

// openAPIKnownDifferences are the parts of kube's documents (1.35.4,
// 1.36.3, 1.37.2) kapi does not serve, at every release (kapi 1.33 differs from kube 1.33.13 in
// the same ways):
//   - the documents of a group (apis/apps), of /api, /apis, /version,
//     /.well-known/openid-configuration and /openid/v1/jwks: kapi's index
//     lists the group versions' documents only;
//   - the paths of subresources other than status (scale, proxy, log,
//     exec, attach, portforward, binding, eviction, token,
//     ephemeralcontainers, resize, finalize, approval) and the components
//     only they use: kapi serves them, its documents do not declare them;
//   - DELETE of a Namespace or a CustomResourceDefinition: kube documents a
//     Status, but answers with the object (being finalized), as kapi does
//     and documents.
var (
	subresourcePathRE         = regexp.MustCompile(`/\{name\}/([a-z]+)(/\{path\})?$`)
	subresourceOnlyComponents = []string{"io.k8s.api.autoscaling.v1.Scale", "io.k8s.api.autoscaling.v1.ScaleSpec",
		"io.k8s.api.autoscaling.v1.ScaleStatus", "io.k8s.api.policy.v1.Eviction", "io.k8s.api.authentication.v1.TokenRequest",
		"io.k8s.api.authentication.v1.TokenRequestSpec", "io.k8s.api.authentication.v1.TokenRequestStatus",
		"io.k8s.api.authentication.v1.BoundObjectReference"}
	deleteDocumentedAsStatus = []string{"/api/v1/namespaces/{name}", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}"}
)

// withoutKnownDifferences removes openAPIKnownDifferences from a v3
// document (components.schemas and paths) or the v2 one (definitions and
// paths).
func withoutKnownDifferences(doc map[string]any, components map[string]any) {
	for _, c := range subresourceOnlyComponents {
		delete(components, c)
	}
	paths, _ := doc["paths"].(map[string]any)
	for p := range paths {
		if m := subresourcePathRE.FindStringSubmatch(p); m != nil && m[1] != "status" {
			delete(paths, p)
		}
	}
	for _, p := range deleteDocumentedAsStatus {
		if item, ok := paths[p].(map[string]any); ok {
			delete(item, "delete")
		}
	}
}

// TestOpenAPIV3IsTheLiveKubes compares every group version's OpenAPI v3
// document kapi serves at each live-recorded release with the one that
// release's kube-apiserver served, whole (paths, operations, parameters,
// every component schema with its enums, defaults and x-kubernetes-*
// extensions), apart from openAPIKnownDifferences; and kapi's index with
// kube's group versions.
func TestOpenAPIV3IsTheLiveKubes(t *testing.T) {
	for _, rel := range liveReleases {
		t.Run(string(rel), func(t *testing.T) { openAPIV3IsLive(t, rel) })
	}
}

func openAPIV3IsLive(t *testing.T, rel apiserver.Release) {
	srv := releaseServer(t, rel)
	dir := filepath.Join(liveReleaseDir(rel), "openapi")
	kubeIndex := readRecorded(t, filepath.Join(dir, "index.json"))["paths"].(map[string]any)
	var want []string
	for p := range kubeIndex {
		if strings.HasPrefix(p, "api/") && strings.Count(p, "/") == 1 || strings.HasPrefix(p, "apis/") && strings.Count(p, "/") == 2 {
			want = append(want, p)
		}
	}
	sort.Strings(want)
	index := getJSON(t, srv, "/openapi/v3", "application/json").(map[string]any)["paths"].(map[string]any)
	var got []string
	for p := range index {
		got = append(got, p)
	}
	sort.Strings(got)
	require.Equal(t, want, got, "the group versions of the index")

	for _, p := range want {
		t.Run(p, func(t *testing.T) {
			kube := readRecorded(t, filepath.Join(dir, strings.ReplaceAll(p, "/", "_")+".json.gz"))
			kapi := getJSON(t, srv, "/openapi/v3/"+p, "application/json").(map[string]any)
			kubeComponents := kube["components"].(map[string]any)["schemas"].(map[string]any)
			withoutKnownDifferences(kube, kubeComponents)
			kapiComponents := kapi["components"].(map[string]any)["schemas"].(map[string]any)
			assert.Equal(t, sortedKeys(kubeComponents), sortedKeys(kapiComponents), "components")
			for name, s := range kubeComponents {
				assert.Equal(t, s, kapiComponents[name], name)
			}
			kubePaths, kapiPaths := kube["paths"].(map[string]any), kapi["paths"].(map[string]any)
			assert.Equal(t, sortedKeys(kubePaths), sortedKeys(kapiPaths), "paths")
			for path, item := range kapiPaths {
				if kubeItem, ok := kubePaths[path].(map[string]any); ok {
					for _, del := range deleteDocumentedAsStatus {
						if path == del {
							delete(item.(map[string]any), "delete")
						}
					}
					assert.Equal(t, kubeItem, item, path)
				}
			}
			delete(kube, "paths")
			delete(kube, "components")
			delete(kapi, "paths")
			delete(kapi, "components")
			assert.Equal(t, kube, kapi, "the rest (openapi, info)")
		})
	}
}

// TestOpenAPIV2DefinitionsAreTheLiveKubes compares kapi's /openapi/v2 at
// each live-recorded release with that kube-apiserver's: the same paths and the same definitions,
// apart from openAPIKnownDifferences (and the discovery types and
// version.Info only the undeclared paths use). Two more differences of
// every release: kube's v2 declares its operations' parameters once, under
// "parameters", and refers to them, where kapi writes them inline; and
// its DeleteOptions and WatchEvent name every group version kube knows,
// where kapi's name only core/v1 (v3's documents name their own).
func TestOpenAPIV2DefinitionsAreTheLiveKubes(t *testing.T) {
	for _, rel := range liveReleases {
		t.Run(string(rel), func(t *testing.T) { openAPIV2DefinitionsAreLive(t, rel) })
	}
}

func openAPIV2DefinitionsAreLive(t *testing.T, rel apiserver.Release) {
	kube := readRecorded(t, filepath.Join(liveReleaseDir(rel), "openapi", "v2.json.gz"))
	kapi := getJSON(t, releaseServer(t, rel), "/openapi/v2", "application/json").(map[string]any)
	defs := kube["definitions"].(map[string]any)
	withoutKnownDifferences(kube, defs)
	for _, d := range []string{"io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup", "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList",
		"io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions", "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
		"io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR", "io.k8s.apimachinery.pkg.version.Info"} {
		delete(defs, d)
	}
	kubePaths := kube["paths"].(map[string]any)
	groupVersionPath := regexp.MustCompile(`^/(api/v1|apis/[^/]+/[^/]+)/`)
	for p := range kubePaths {
		if !groupVersionPath.MatchString(p) {
			delete(kubePaths, p) // /api/, /apis/, /apis/<group>/, /version/, /openid/v1/jwks/...
		}
	}
	kapiDefs := kapi["definitions"].(map[string]any)
	assert.Equal(t, sortedKeys(defs), sortedKeys(kapiDefs), "definitions")
	for name, d := range defs {
		if strings.HasSuffix(name, ".DeleteOptions") || strings.HasSuffix(name, ".WatchEvent") {
			d, k := d.(map[string]any), kapiDefs[name].(map[string]any)
			delete(d, "x-kubernetes-group-version-kind")
			delete(k, "x-kubernetes-group-version-kind")
		}
		assert.Equal(t, d, kapiDefs[name], name)
	}
	assert.Equal(t, sortedKeys(kubePaths), sortedKeys(kapi["paths"].(map[string]any)), "paths")
	assert.Equal(t, kube["info"], kapi["info"])
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
