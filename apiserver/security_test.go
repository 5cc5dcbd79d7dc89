package apiserver_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/apiserver/authz/rbac"
	"github.com/kapi-dev/kapi/apiserver/builtin"
	"github.com/kapi-dev/kapi/store"
	"github.com/kapi-dev/kapi/store/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secured is a server with static tokens, ServiceAccount tokens and RBAC,
// wired as the example server wires them.
type secured struct {
	http.Handler
	store  store.Store
	tokens *authn.ServiceAccountTokens
}

const adminToken, aliceToken = "admin-token", "alice-token"

func newSecured(tb testing.TB, mode string) *secured {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	st := memory.New(memory.Config{})
	static := &authn.StaticTokens{}
	static.Add(adminToken, authn.User{Name: "admin", Groups: []string{authn.SystemPrivilegedGroup}})
	static.Add(aliceToken, authn.User{Name: "alice", UID: "alice-uid", Groups: []string{"dev"}})
	const issuer = "https://kubernetes.default.svc.cluster.local"
	sa, err := authn.NewServiceAccountTokens(authn.ServiceAccountConfig{Issuers: []string{issuer},
		SigningKey: signingKey, Objects: authn.StoreGetter(st)})
	require.NoError(tb, err)
	authenticator := authn.New(false, authn.BearerToken(authn.TokenUnion(authn.AudienceAgnostic(sa.APIAudiences(), static), sa)))
	rbacAuthz, err := rbac.Start(ctx, st, nil)
	require.NoError(tb, err)
	chain, err := authz.New(mode, map[string]authz.Authorizer{authz.ModeRBAC: rbacAuthz})
	require.NoError(tb, err)
	resources := builtin.WithTokenRequest(builtin.Resources(), sa)
	resources = builtin.WithReviews(resources, builtin.Reviews{Authenticator: authenticator, APIAudiences: sa.APIAudiences(), Authorizer: chain})
	srv, err := apiserver.New(apiserver.Config{
		Store: st, Resources: resources, OpenAPIComponents: builtin.OpenAPIComponents(),
		Authenticator: authenticator, Authorizer: chain,
		Admission: []any{(&rbac.Escalation{Authorizer: chain, Rules: rbacAuthz}).Admission()},
	})
	require.NoError(tb, err)
	return &secured{Handler: srv, store: st, tokens: sa}
}

func (s *secured) do(token, method, path, body string) *httptest.ResponseRecorder {
	var rd io.Reader
	if body != "" {
		rd = bytes.NewBufferString(body)
	}
	r := httptest.NewRequest(method, path, rd)
	r.Header.Set("Accept", "application/json")
	r.Header.Set("Content-Type", "application/json")
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func (s *secured) must(tb testing.TB, code int, token, method, path, body string) map[string]any {
	tb.Helper()
	w := s.do(token, method, path, body)
	require.Equal(tb, code, w.Code, "%s %s: %s", method, path, w.Body.String())
	var out map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &out)
	return out
}

func TestSecurityFilters(t *testing.T) {
	s := newSecured(t, "RBAC")
	t.Run("a request without credentials gets kube's 401 without nosniff", func(t *testing.T) {
		w := s.do("", "GET", "/api/v1/namespaces", "")
		assert.Equal(t, 401, w.Code)
		assert.Equal(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}`+"\n", w.Body.String())
		assert.Empty(t, w.Header().Get("X-Content-Type-Options"))
	})
	t.Run("a forbidden request gets kube's 403", func(t *testing.T) {
		w := s.do(aliceToken, "GET", "/api/v1/namespaces/default/configmaps/c", "")
		assert.Equal(t, 403, w.Code)
		assert.Equal(t, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \"c\" is forbidden: User \"alice\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"default\"","reason":"Forbidden","details":{"name":"c","kind":"configmaps"},"code":403}`+"\n", w.Body.String())
		assert.Equal(t, "nosniff", w.Header().Get("X-Content-Type-Options"))
	})
	t.Run("RBAC objects written through the API are enforced at once", func(t *testing.T) {
		s.must(t, 201, adminToken, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
			`{"metadata":{"name":"cm-reader"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]}`)
		s.must(t, 201, adminToken, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
			`{"metadata":{"name":"alice"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"cm-reader"},"subjects":[{"kind":"User","name":"alice"}]}`)
		s.must(t, 404, aliceToken, "GET", "/api/v1/namespaces/default/configmaps/c", "")
	})
	t.Run("a Role granting more than its writer holds is refused through admission", func(t *testing.T) {
		s.must(t, 201, adminToken, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
			`{"metadata":{"name":"role-writer"},"rules":[{"apiGroups":["rbac.authorization.k8s.io"],"resources":["roles"],"verbs":["create"]}]}`)
		s.must(t, 201, adminToken, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
			`{"metadata":{"name":"alice-writer"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"role-writer"},"subjects":[{"kind":"User","name":"alice"}]}`)
		out := s.must(t, 403, aliceToken, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles?dryRun=All",
			`{"metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"]}]}`)
		assert.Equal(t, `roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" (groups=["dev" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:`+
			"\n"+`{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}`, out["message"])
		s.must(t, 201, aliceToken, "POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles",
			`{"metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get"]}]}`)
	})
	t.Run("a token from the TokenRequest subresource authenticates its ServiceAccount", func(t *testing.T) {
		s.must(t, 201, adminToken, "POST", "/api/v1/namespaces/default/serviceaccounts", `{"metadata":{"name":"robot"}}`)
		out := s.must(t, 201, adminToken, "POST", "/api/v1/namespaces/default/serviceaccounts/robot/token", `{"spec":{}}`)
		token := out["status"].(map[string]any)["token"].(string)
		review := s.must(t, 201, token, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", `{}`)
		info := review["status"].(map[string]any)["userInfo"].(map[string]any)
		assert.Equal(t, "system:serviceaccount:default:robot", info["username"])
		assert.Equal(t, []any{"system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"}, info["groups"])
		s.must(t, 200, adminToken, "DELETE", "/api/v1/namespaces/default/serviceaccounts/robot", "")
		s.must(t, 401, token, "GET", "/api", "")
	})
	t.Run("RBAC objects are validated with kube's messages", func(t *testing.T) {
		cases := []struct{ method, path, body, message string }{
			{"POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", `{"metadata":{"name":"r"},"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":[]}]}`,
				`Role.rbac.authorization.k8s.io "r" is invalid: rules[0].verbs: Required value`},
			{"POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", `{"metadata":{"name":"r3"},"rules":[{"nonResourceURLs":["/foo"],"verbs":["get"]}]}`,
				`Role.rbac.authorization.k8s.io "r3" is invalid: rules[0].nonResourceURLs: Invalid value: ["/foo"]: namespaced rules cannot apply to non-resource URLs`},
			{"POST", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings",
				`{"metadata":{"name":"rb2"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Foo","name":"view"},"subjects":[{"kind":"Robot","name":"bob"}]}`,
				`RoleBinding.rbac.authorization.k8s.io "rb2" is invalid: [roleRef.kind: Unsupported value: "Foo": supported values: "Role", "ClusterRole", subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]`},
			{"PATCH", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/alice", `{"roleRef":{"name":"edit"}}`,
				`RoleBinding.rbac.authorization.k8s.io "alice" is invalid: roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"edit"}: field is immutable`},
		}
		for _, c := range cases {
			w := s.do(adminToken, c.method, c.path, c.body)
			if c.method == "PATCH" {
				r := httptest.NewRequest("PATCH", c.path, bytes.NewBufferString(c.body))
				r.Header.Set("Content-Type", "application/merge-patch+json")
				r.Header.Set("Authorization", "Bearer "+adminToken)
				w = httptest.NewRecorder()
				s.ServeHTTP(w, r)
			}
			require.Equal(t, 422, w.Code, w.Body.String())
			var st map[string]any
			require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
			assert.Equal(t, c.message, st["message"])
		}
	})
	t.Run("a SelfSubjectAccessReview answers from RBAC", func(t *testing.T) {
		out := s.must(t, 201, aliceToken, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
			`{"spec":{"resourceAttributes":{"namespace":"default","verb":"get","resource":"configmaps"}}}`)
		assert.Equal(t, map[string]any{"allowed": true, "reason": `RBAC: allowed by RoleBinding "alice/default" of Role "cm-reader" to User "alice"`}, out["status"])
		md := out["metadata"].(map[string]any)
		assert.Nil(t, md["creationTimestamp"])
		assert.Contains(t, md, "managedFields", "kube's create handler records the writer")
	})
}

// signingKey signs the ServiceAccount tokens of every secured server.
var signingKey = func() *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return k
}()
