package impersonation

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	admin = &authn.User{Name: "root", Groups: []string{"system:masters", authn.AllAuthenticated}}
	alice = &authn.User{Name: "alice", Groups: []string{authn.AllAuthenticated}}
)

// mastersOnly lets system:masters impersonate anyone, alice the user bob
// only, and records what it was asked.
type mastersOnly struct{ asked []authz.Attributes }

func (m *mastersOnly) Authorize(_ context.Context, a authz.Attributes) (authz.Decision, string, error) {
	m.asked = append(m.asked, a)
	if a.User.InGroup("system:masters") || a.User.Name == "alice" && a.Resource == "users" && a.Name == "bob" {
		return authz.Allow, "", nil
	}
	return authz.NoOpinion, "", nil
}

func serve(t *testing.T, a authz.Authorizer, as *authn.User, headers map[string][]string) (*httptest.ResponseRecorder, *authn.User, http.Header) {
	t.Helper()
	r := httptest.NewRequest("GET", "/api/v1/namespaces/default/configmaps", nil)
	for k, vs := range headers {
		for _, v := range vs {
			r.Header.Add(k, v)
		}
	}
	r = r.WithContext(authn.WithUser(r.Context(), as))
	var seen *authn.User
	var seenHeader http.Header
	w := httptest.NewRecorder()
	Filter(a, nil)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		seen, _ = authn.UserFrom(r.Context())
		seenHeader = r.Header
	})).ServeHTTP(w, r)
	return w, seen, seenHeader
}

// TestImpersonatedUsers holds the users to what kube-apiserver 1.33's
// SelfSubjectReview answered under the same headers.
func TestImpersonatedUsers(t *testing.T) {
	cases := []struct {
		name    string
		headers map[string][]string
		want    *authn.User
	}{
		{"a user is authenticated", map[string][]string{"Impersonate-User": {"bob"}},
			&authn.User{Name: "bob", Groups: []string{"system:authenticated"}}},
		{"groups, uid and extras come along", map[string][]string{"Impersonate-User": {"bob"}, "Impersonate-Group": {"g1", "g2"},
			"Impersonate-Uid": {"u9"}, "Impersonate-Extra-Scopes": {"a", "b"}, "Impersonate-Extra-foo%2Fbar": {"c"}},
			&authn.User{Name: "bob", UID: "u9", Groups: []string{"g1", "g2", "system:authenticated"},
				Extra: map[string][]string{"scopes": {"a", "b"}, "foo/bar": {"c"}}}},
		{"a ServiceAccount gets its groups", map[string][]string{"Impersonate-User": {"system:serviceaccount:ns1:sa1"}},
			&authn.User{Name: "system:serviceaccount:ns1:sa1", Groups: []string{"system:serviceaccounts", "system:serviceaccounts:ns1", "system:authenticated"}}},
		{"a ServiceAccount with groups gets only those", map[string][]string{"Impersonate-User": {"system:serviceaccount:ns1:sa1"}, "Impersonate-Group": {"g1"}},
			&authn.User{Name: "system:serviceaccount:ns1:sa1", Groups: []string{"g1", "system:authenticated"}}},
		{"system:anonymous is unauthenticated", map[string][]string{"Impersonate-User": {"system:anonymous"}},
			&authn.User{Name: "system:anonymous", Groups: []string{"system:unauthenticated"}}},
		{"system:anonymous keeps a group it is given", map[string][]string{"Impersonate-User": {"system:anonymous"}, "Impersonate-Group": {"system:authenticated"}},
			&authn.User{Name: "system:anonymous", Groups: []string{"system:authenticated", "system:unauthenticated"}}},
		{"a user given system:unauthenticated is not authenticated", map[string][]string{"Impersonate-User": {"bob"}, "Impersonate-Group": {"system:unauthenticated"}},
			&authn.User{Name: "bob", Groups: []string{"system:unauthenticated"}}},
		{"an empty user header is no impersonation", map[string][]string{"Impersonate-User": {""}}, admin},
		{"an unknown Impersonate- header is ignored", map[string][]string{"Impersonate-Foo": {"x"}}, admin},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, seen, h := serve(t, &mastersOnly{}, admin, c.headers)
			require.Equal(t, http.StatusOK, w.Code, w.Body.String())
			assert.Equal(t, c.want, seen)
			if seen == admin {
				return // nothing impersonated: headers left as they came, as kube does
			}
			for k := range h {
				assert.False(t, isImpersonationHeader(k), "the handler sees no impersonation header (%s)", k)
			}
		})
	}
}

func TestImpersonationIsAuthorizedHeaderByHeader(t *testing.T) {
	m := &mastersOnly{}
	_, _, _ = serve(t, m, admin, map[string][]string{"Impersonate-User": {"system:serviceaccount:ns1:sa1"},
		"Impersonate-Group": {"g"}, "Impersonate-Uid": {"u"}, "Impersonate-Extra-Scopes": {"s"}})
	strip := func(a authz.Attributes) authz.Attributes { a.User = nil; return a }
	var got []authz.Attributes
	for _, a := range m.asked {
		got = append(got, strip(a))
	}
	assert.Equal(t, []authz.Attributes{
		{Verb: "impersonate", ResourceRequest: true, Resource: "serviceaccounts", Namespace: "ns1", Name: "sa1"},
		{Verb: "impersonate", ResourceRequest: true, Resource: "groups", Name: "g"},
		{Verb: "impersonate", ResourceRequest: true, APIGroup: "authentication.k8s.io", APIVersion: "v1", Resource: "userextras", Subresource: "scopes", Name: "s"},
		{Verb: "impersonate", ResourceRequest: true, APIGroup: "authentication.k8s.io", APIVersion: "v1", Resource: "uids", Name: "u"},
	}, got)
}

// TestImpersonationRefusals holds the answers to kube-apiserver 1.33's.
func TestImpersonationRefusals(t *testing.T) {
	cases := []struct {
		name    string
		headers map[string][]string
		code    int
		body    string
	}{
		{"a user alice may not impersonate", map[string][]string{"Impersonate-User": {"carol"}}, 403,
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"users \"carol\" is forbidden: User \"alice\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"name":"carol","kind":"users"},"code":403}` + "\n"},
		{"a ServiceAccount alice may not impersonate", map[string][]string{"Impersonate-User": {"system:serviceaccount:ns1:sa1"}}, 403,
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"serviceaccounts \"sa1\" is forbidden: User \"alice\" cannot impersonate resource \"serviceaccounts\" in API group \"\" in the namespace \"ns1\"","reason":"Forbidden","details":{"name":"sa1","kind":"serviceaccounts"},"code":403}` + "\n"},
		{"a group alice may not add to a user she may impersonate", map[string][]string{"Impersonate-User": {"bob"}, "Impersonate-Group": {"system:masters"}}, 403,
			`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"groups \"system:masters\" is forbidden: User \"alice\" cannot impersonate resource \"groups\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"name":"system:masters","kind":"groups"},"code":403}` + "\n"},
		{"a group without a user", map[string][]string{"Impersonate-Group": {"g1"}}, 500,
			"Internal Server Error: \"/api/v1/namespaces/default/configmaps\": requested [{Group  g1    }] without impersonating a user\n"},
		{"a uid without a user", map[string][]string{"Impersonate-Uid": {"u1"}}, 500,
			"Internal Server Error: \"/api/v1/namespaces/default/configmaps\": requested [{UID  u1  authentication.k8s.io/v1  }] without impersonating a user\n"},
		{"an extra without a user", map[string][]string{"Impersonate-Extra-scopes": {"s"}}, 500,
			"Internal Server Error: \"/api/v1/namespaces/default/configmaps\": requested [{UserExtra  s  authentication.k8s.io/v1  scopes}] without impersonating a user\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, seen, _ := serve(t, &mastersOnly{}, alice, c.headers)
			assert.Nil(t, seen, "the request goes no further")
			assert.Equal(t, c.code, w.Code)
			assert.Equal(t, c.body, w.Body.String())
		})
	}
}

// FuzzImpersonationHeaders: any header values are refused or accepted
// without panicking.
func FuzzImpersonationHeaders(f *testing.F) {
	f.Add("bob", "g", "u", "scopes", "v")
	f.Add("system:serviceaccount:ns:sa", "", "", "", "")
	f.Add("", "g", "", "a%zz", "x")
	f.Add("system:serviceaccount::", "system:masters", "", "%2F", "")
	f.Fuzz(func(t *testing.T, user, group, uid, extraKey, extraValue string) {
		h := map[string][]string{}
		for k, v := range map[string]string{UserHeader: user, GroupHeader: group, UIDHeader: uid, ExtraHeaderPrefix + extraKey: extraValue} {
			if v != "" && !strings.ContainsAny(k+v, "\r\n\x00") {
				h[k] = []string{v}
			}
		}
		w, seen, _ := serve(t, &mastersOnly{}, admin, h)
		if w.Code == http.StatusOK && seen == nil {
			t.Fatal("served without a user")
		}
	})
}
