package builtin_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestWritesThroughScaleAreTrackedAsKubeTracksThem replays, at 1.33 and
// 1.37, what kube-apiserver 1.33.13 and 1.37.2 answered alike to writes
// of deployments/scale (docs/kube-behaviour/20-controller-runtime-suites.md):
// server-side apply of a Scale (controller-runtime's SubResource("scale").
// Apply) conflicts with the owner of the replica count "using
// autoscaling/v1", and the entries written through /scale carry no time.
func TestWritesThroughScaleAreTrackedAsKubeTracksThem(t *testing.T) {
	const (
		d        = "/apis/apps/v1/namespaces/default/deployments"
		apply    = "application/apply-patch+yaml"
		replicas = `{"f:spec":{"f:replicas":{}}}`
	)
	deployment := func(name string) string {
		return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"` + name + `"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`
	}
	scale := func(n string) string {
		return `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":` + n + `}}`
	}
	// entries lists managedFields as "manager operation subresource
	// time?", with the fields of those that own only the replica count.
	entries := func(t *testing.T, srv http.Handler, name string) []string {
		code, dep := serve(t, srv, "GET", d+"/"+name, "", "")
		require.Equal(t, http.StatusOK, code, dep)
		var out []string
		for _, e := range dep["metadata"].(map[string]any)["managedFields"].([]any) {
			m := e.(map[string]any)
			s := strings.TrimSpace(strings.Join([]string{m["manager"].(string), m["operation"].(string), str(m["subresource"])}, " "))
			if _, ok := m["time"]; ok {
				s += " timed"
			}
			if f, _ := json.Marshal(m["fieldsV1"]); string(f) == replicas {
				s += " " + replicas
			}
			out = append(out, s)
		}
		return out
	}
	for _, release := range []apiserver.Release{apiserver.Release133, apiserver.Release137} {
		t.Run(string(release), func(t *testing.T) {
			srv, err := apiserver.New(apiserver.Config{Resources: builtin.ResourcesFor(release), Release: release})
			require.NoError(t, err)
			for _, name := range []string{"d1", "d2"} {
				code, out := serve(t, srv, "POST", d+"?fieldManager=creator", "application/json", deployment(name))
				require.Equal(t, http.StatusCreated, code, out)
			}

			code, out := serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=foo", apply, scale("3"))
			assert.Equal(t, http.StatusConflict, code, "the creator owns the replica count")
			assert.Equal(t, `Apply failed with 1 conflict: conflict with "creator" using autoscaling/v1: .spec.replicas`, out["message"])

			code, out = serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=foo&force=true", apply, scale("3"))
			require.Equal(t, http.StatusOK, code, out)
			assert.Equal(t, "Scale", out["kind"])
			assert.Equal(t, map[string]any{"replicas": float64(3)}, out["spec"])
			assert.Equal(t, []string{"foo Apply scale " + replicas, "creator Update timed"}, entries(t, srv, "d1"),
				"forced, the applier takes the replica count, and its entry has no time")

			code, out = serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=foo", apply, scale("4"))
			require.Equal(t, http.StatusOK, code, out)
			code, out = serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=bar", "application/merge-patch+json", `{"spec":{"replicas":5}}`)
			require.Equal(t, http.StatusOK, code, out)
			assert.Equal(t, []string{"bar Update scale " + replicas, "creator Update timed"}, entries(t, srv, "d1"),
				"a merge patch takes the replica count from the applier, whose entry goes")
			code, out = serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=foo", apply, scale("6"))
			assert.Equal(t, http.StatusConflict, code)
			assert.Equal(t, `Apply failed with 1 conflict: conflict with "bar" with subresource "scale" using autoscaling/v1: .spec.replicas`, out["message"])

			code, out = serve(t, srv, "PATCH", d+"/d2/scale?fieldManager=bar", "application/merge-patch+json", `{"spec":{"replicas":2}}`)
			require.Equal(t, http.StatusOK, code, out)
			assert.Equal(t, []string{"creator Update " + replicas, "creator Update timed"}, entries(t, srv, "d2"),
				"a write leaving the replica count splits the creator's entry in two, as kube's")
			code, out = serve(t, srv, "PATCH", d+"/d2/scale?fieldManager=foo", apply, scale("2"))
			require.Equal(t, http.StatusOK, code, out)
			assert.Equal(t, []string{"foo Apply scale " + replicas, "before-first-apply Update scale " + replicas, "creator Update timed"}, entries(t, srv, "d2"),
				"the two creator entries decode as the last, so the Scale looks untracked: before-first-apply")

			code, out = serve(t, srv, "PATCH", d+"/missing/scale?fieldManager=foo", apply, scale("1"))
			assert.Equal(t, http.StatusNotFound, code, out)
			code, out = serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=foo", apply, `{"spec":{"replicas":1}}`)
			assert.Equal(t, http.StatusBadRequest, code)
			assert.Equal(t, "invalid object type: /, Kind=", out["message"])
			code, out = serve(t, srv, "PATCH", d+"/d1/scale?fieldManager=foo&force=true", apply, `{"apiVersion":"autoscaling/v1","kind":"Scale","spec":{"replicas":9,"x":1}}`)
			assert.Equal(t, http.StatusInternalServerError, code)
			assert.Equal(t, "failed to create typed patch object (/; autoscaling/v1, Kind=Scale): .spec.x: field not declared in schema", out["message"])
			code, out = serve(t, srv, "PATCH", d+"/d1/scale", apply, scale("1"))
			assert.Equal(t, http.StatusUnprocessableEntity, code)
			assert.Equal(t, `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`, out["message"])
		})
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
