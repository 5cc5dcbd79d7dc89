package requestinfo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name, method, target string
		want                 Info
	}{
		{"a namespaced object is a get", "GET", "/api/v1/namespaces/ns/configmaps/a",
			Info{IsResource: true, Verb: "get", Version: "v1", Namespace: "ns", Resource: "configmaps", Name: "a"}},
		{"a collection is a list", "GET", "/apis/apps/v1/namespaces/ns/deployments",
			Info{IsResource: true, Verb: "list", Group: "apps", Version: "v1", Namespace: "ns", Resource: "deployments"}},
		{"watch=1 on a collection is a watch", "GET", "/api/v1/pods?watch=1",
			Info{IsResource: true, Verb: "watch", Version: "v1", Resource: "pods"}},
		{"the legacy watch prefix is a watch", "GET", "/apis/apps/v1/watch/deployments",
			Info{IsResource: true, Verb: "watch", Group: "apps", Version: "v1", Resource: "deployments"}},
		{"a namespace's status is its subresource", "PUT", "/api/v1/namespaces/ns/status",
			Info{IsResource: true, Verb: "update", Version: "v1", Namespace: "ns", Resource: "namespaces", Name: "ns", Subresource: "status"}},
		{"a subresource of a namespaced object", "PATCH", "/apis/apps/v1/namespaces/ns/deployments/d/scale",
			Info{IsResource: true, Verb: "patch", Group: "apps", Version: "v1", Namespace: "ns", Resource: "deployments", Name: "d", Subresource: "scale"}},
		{"DELETE of a collection is deletecollection", "DELETE", "/api/v1/namespaces/ns/secrets",
			Info{IsResource: true, Verb: "deletecollection", Version: "v1", Namespace: "ns", Resource: "secrets"}},
		{"a proxy subresource takes a path", "GET", "/api/v1/namespaces/ns/pods/p/proxy/a/b",
			Info{IsResource: true, Verb: "get", Version: "v1", Namespace: "ns", Resource: "pods", Name: "p", Subresource: "proxy"}},
		{"another subresource takes none", "GET", "/api/v1/namespaces/ns/pods/p/log/a",
			Info{Path: []string{"api", "v1", "namespaces", "ns", "pods", "p", "log", "a"}, Version: "v1", Namespace: "ns",
				Resource: "pods", Name: "p", Subresource: "log"}},
		{"discovery is not a resource request", "GET", "/apis/apps",
			Info{Path: []string{"apis", "apps"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Parse(httptest.NewRequest(c.method, c.target, nil))
			if c.want.IsResource {
				got.Path = nil
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestFromReadsWhatWithStored(t *testing.T) {
	r := httptest.NewRequest("GET", "/api/v1/pods", nil)
	stored := Info{IsResource: true, Verb: "list", Resource: "not-pods"}
	assert.Equal(t, stored, From(r.WithContext(With(r.Context(), stored))))
	assert.Equal(t, "pods", From(r).Resource, "without a stored Info, From parses the request")
}

func TestWithKeepsTheParentsValuesAndCancellation(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "parent's"))
	ctx := With(parent, Info{Resource: "pods"})
	child, stop := context.WithCancel(ctx)
	defer stop()

	assert.Equal(t, "parent's", ctx.Value(key{}), "a value of the parent is still found")
	r := httptest.NewRequest("GET", "/api/v1/configmaps", nil)
	assert.Equal(t, "pods", From(r.WithContext(child)).Resource, "a context derived from it still carries the Info")
	cancel()
	<-child.Done()
	assert.ErrorIs(t, child.Err(), context.Canceled, "cancelling the parent cancels what is derived from it")
}

func TestQueryBool(t *testing.T) {
	for q, want := range map[string]bool{"": false, "force": true, "force=": true, "force=0": false,
		"force=False": false, "force=yes": true, "other=true": false} {
		v, _ := url.ParseQuery(q)
		assert.Equal(t, want, QueryBool(v, "force"), q)
	}
}

// FuzzParse: no path or query makes the parser panic, and resource
// requests always name a resource.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"/api/v1/namespaces/default/configmaps/x", "/apis/apps/v1/watch/deployments",
		"/api/v1/namespaces/x/status", "/apis", "//api//v1", "/api/v1/namespaces/a/b/c/d/e"} {
		f.Add("GET", p, "watch=true")
	}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		info := Parse(&http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}})
		if info.IsResource && info.Resource == "" {
			t.Fatalf("resource request without resource: %+v", info)
		}
	})
}
