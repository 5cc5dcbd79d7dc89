package authz

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var alice = &authn.User{Name: "alice", Groups: []string{"dev", authn.AllAuthenticated}}

func req(method, target string, u *authn.User) *http.Request {
	r := httptest.NewRequest(method, target, nil)
	if u != nil {
		r = r.WithContext(authn.WithUser(r.Context(), u))
	}
	return r
}

func TestAttributesFrom(t *testing.T) {
	cases := []struct {
		name, method, target string
		want                 Attributes
	}{
		{"a get", "GET", "/api/v1/namespaces/ns/pods/p",
			Attributes{Verb: "get", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "ns", Name: "p"}},
		{"a list across namespaces", "GET", "/apis/apps/v1/deployments",
			Attributes{Verb: "list", ResourceRequest: true, APIGroup: "apps", APIVersion: "v1", Resource: "deployments"}},
		{"a list of one name by field selector", "GET", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dx",
			Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "ns", Name: "x"}},
		{"a watch of one name by field selector", "GET", "/api/v1/namespaces/ns/pods?watch=1&fieldSelector=metadata.name%3D%3Dx,spec.nodeName%3Dn",
			Attributes{Verb: "watch", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "ns", Name: "x"}},
		{"a list excluding a name is about the collection", "GET", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name!%3Dx",
			Attributes{Verb: "list", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "ns"}},
		{"a deletecollection ignores the field selector", "DELETE", "/api/v1/namespaces/ns/pods?fieldSelector=metadata.name%3Dx",
			Attributes{Verb: "deletecollection", ResourceRequest: true, APIVersion: "v1", Resource: "pods", Namespace: "ns"}},
		{"a subresource", "PUT", "/apis/apps/v1/namespaces/ns/deployments/d/scale",
			Attributes{Verb: "update", ResourceRequest: true, APIGroup: "apps", APIVersion: "v1", Resource: "deployments", Subresource: "scale", Namespace: "ns", Name: "d"}},
		{"a non-resource path is the lower-case method", "POST", "/healthz/x",
			Attributes{Verb: "post", Path: "/healthz/x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := AttributesFrom(req(c.method, c.target, alice))
			c.want.User = alice
			assert.Equal(t, c.want, got)
		})
	}
	t.Run("a request without a user is anonymous", func(t *testing.T) {
		got := AttributesFrom(req("GET", "/version", nil))
		assert.Equal(t, &authn.User{Name: authn.Anonymous, Groups: []string{authn.AllUnauthenticated}}, got.User)
	})
}

// TestForbidden holds the 403 bodies to what kube-apiserver 1.33 sent
// (docs/kube-behaviour/08-security.md).
func TestForbidden(t *testing.T) {
	cases := []struct {
		method, target, reason string
		message                string
		details                *meta.StatusDetails
	}{
		{"GET", "/api/v1/namespaces/default/pods/foo", "",
			`pods "foo" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "default"`,
			&meta.StatusDetails{Name: "foo", Kind: "pods"}},
		{"GET", "/api/v1/pods", "",
			`pods is forbidden: User "alice" cannot list resource "pods" in API group "" at the cluster scope`,
			&meta.StatusDetails{Kind: "pods"}},
		{"GET", "/apis/apps/v1/namespaces/x/deployments/d/scale", "",
			`deployments.apps "d" is forbidden: User "alice" cannot get resource "deployments/scale" in API group "apps" in the namespace "x"`,
			&meta.StatusDetails{Name: "d", Group: "apps", Kind: "deployments"}},
		{"GET", "/api/v1/watch/namespaces/default/pods/x", "",
			`pods "x" is forbidden: User "alice" cannot watch resource "pods" in API group "" in the namespace "default"`,
			&meta.StatusDetails{Name: "x", Kind: "pods"}},
		{"DELETE", "/api/v1/namespaces/default/pods", "",
			`pods is forbidden: User "alice" cannot deletecollection resource "pods" in API group "" in the namespace "default"`,
			&meta.StatusDetails{Kind: "pods"}},
		{"GET", "/api/v1/namespaces/x", "",
			`namespaces "x" is forbidden: User "alice" cannot get resource "namespaces" in API group "" in the namespace "x"`,
			&meta.StatusDetails{Name: "x", Kind: "namespaces"}},
		{"GET", "/metrics", "",
			`forbidden: User "alice" cannot get path "/metrics"`, &meta.StatusDetails{}},
		{"GET", "/api/v1/namespaces/ns2/secrets", `RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found`,
			`secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "ns2": RBAC: clusterrole.rbac.authorization.k8s.io "missing" not found`,
			&meta.StatusDetails{Kind: "secrets"}},
	}
	for _, c := range cases {
		t.Run(c.message, func(t *testing.T) {
			deny := AuthorizerFunc(func(context.Context, Attributes) (Decision, string, error) { return NoOpinion, c.reason, nil })
			w := httptest.NewRecorder()
			Filter(deny, nil)(http.NotFoundHandler()).ServeHTTP(w, req(c.method, c.target, alice))
			assert.Equal(t, http.StatusForbidden, w.Code)
			want := &meta.Status{Kind: "Status", APIVersion: "v1", Status: "Failure", Message: c.message, Reason: meta.ReasonForbidden, Code: 403, Details: c.details}
			assert.JSONEq(t, mustJSON(t, want), w.Body.String())
		})
	}
}

func TestFilterLetsAllowedRequestsThrough(t *testing.T) {
	var seen Attributes
	allow := AuthorizerFunc(func(_ context.Context, a Attributes) (Decision, string, error) { seen = a; return Allow, "", nil })
	w := httptest.NewRecorder()
	Filter(allow, nil)(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(299) })).
		ServeHTTP(w, req("PATCH", "/api/v1/namespaces/ns/configmaps/c?dryRun=All", alice))
	assert.Equal(t, 299, w.Code)
	assert.Equal(t, "patch", seen.Verb, "a dry run is authorized as the real request")
}

func TestFilterAnswersAnAuthorizerErrorWith500(t *testing.T) {
	broken := AuthorizerFunc(func(context.Context, Attributes) (Decision, string, error) { return NoOpinion, "", errors.New("boom") })
	w := httptest.NewRecorder()
	Filter(broken, nil)(http.NotFoundHandler()).ServeHTTP(w, req("GET", "/api/v1/pods", alice))
	assert.Equal(t, http.StatusInternalServerError, w.Code)
	assert.Equal(t, "Internal Server Error: \"/api/v1/pods\": boom\n", w.Body.String())
}

func TestUnion(t *testing.T) {
	say := func(d Decision, reason string, err error) Authorizer {
		return AuthorizerFunc(func(context.Context, Attributes) (Decision, string, error) { return d, reason, err })
	}
	cases := []struct {
		name   string
		chain  []Authorizer
		d      Decision
		reason string
		err    string
	}{
		{"the first allow decides", []Authorizer{say(NoOpinion, "a", nil), say(Allow, "b", nil), say(Deny, "c", nil)}, Allow, "b", ""},
		{"the first deny decides", []Authorizer{say(Deny, "x", nil), say(Allow, "y", nil)}, Deny, "x", ""},
		{"no opinions join their reasons and errors", []Authorizer{say(NoOpinion, "a", errors.New("e1")), say(NoOpinion, "b", errors.New("e2"))}, NoOpinion, "a\nb", "[e1, e2]"},
		{"an empty chain has no opinion", nil, NoOpinion, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, reason, err := Union(c.chain...).Authorize(context.Background(), Attributes{})
			assert.Equal(t, c.d, d)
			assert.Equal(t, c.reason, reason)
			if c.err == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, c.err)
			}
		})
	}
}

func TestNew(t *testing.T) {
	rbac := AuthorizerFunc(func(context.Context, Attributes) (Decision, string, error) { return NoOpinion, "", nil })
	a, err := New("RBAC", map[string]Authorizer{ModeRBAC: rbac})
	require.NoError(t, err)
	d, _, _ := a.Authorize(context.Background(), Attributes{User: &authn.User{Name: "root", Groups: []string{"system:masters"}}, Verb: "delete"})
	assert.Equal(t, Allow, d, "system:masters is allowed whatever the modes")
	d, _, _ = a.Authorize(context.Background(), Attributes{User: alice, Verb: "get"})
	assert.Equal(t, NoOpinion, d)

	a, err = New("RBAC,AlwaysAllow", map[string]Authorizer{ModeRBAC: rbac})
	require.NoError(t, err)
	d, _, _ = a.Authorize(context.Background(), Attributes{User: alice, Verb: "get"})
	assert.Equal(t, Allow, d)

	_, err = New("Webhook", nil)
	assert.EqualError(t, err, `unknown authorization mode "Webhook" (known: AlwaysAllow, AlwaysDeny, RBAC)`)
	_, err = New("RBAC,RBAC", map[string]Authorizer{ModeRBAC: rbac})
	assert.Error(t, err)
}
