package authn

import (
	"context"
	"testing"
	"time"

	"github.com/kapi-dev/kapi/meta"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func tokenReview(token string, auds ...string) meta.Object {
	spec := map[string]any{"token": token}
	if len(auds) > 0 {
		spec["audiences"] = toAnyList(auds)
	}
	return meta.Object{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "metadata": map[string]any{}, "spec": spec}
}

func TestTokenReview(t *testing.T) {
	f := newFixture(t, ecKey)
	static := &StaticTokens{}
	static.Add("alice-token", User{Name: "alice", UID: "a1", Groups: []string{"dev"}})
	auds := []string{issuer}
	chain := New(false, BearerToken(TokenUnion(AudienceAgnostic(auds, static), f.tokens)))
	saToken := f.issue(t, ServiceAccountToken{})
	parts := splitToken(saToken)
	forged := parts[0] + "." + parts[1] + "." + flip(parts[2])

	cases := []struct {
		name   string
		review meta.Object
		status map[string]any
	}{
		{"a static token is its user, for the API audiences", tokenReview("alice-token"), map[string]any{
			"authenticated": true, "audiences": []any{issuer},
			"user": map[string]any{"username": "alice", "uid": "a1", "groups": []any{"dev", AllAuthenticated}}}},
		{"an unknown token is not authenticated", tokenReview("nope"), map[string]any{
			"user": map[string]any{}, "error": "invalid bearer token"}},
		{"a forged JWT says why, as kube", tokenReview(forged), map[string]any{
			"user": map[string]any{}, "error": "[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]"}},
		{"a ServiceAccount token asked for another audience", tokenReview(saToken, "zz"), map[string]any{
			"user": map[string]any{}, "error": `[invalid bearer token, token audiences ["` + issuer + `"] is invalid for the target audiences ["zz"]]`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := TokenReview(context.Background(), chain, auds, c.review)
			require.NoError(t, err)
			assert.Equal(t, c.status, out["status"])
			assert.Equal(t, c.review["spec"], out["spec"], "the spec is echoed, as kube does")
		})
	}
	t.Run("a review without a token is 400", func(t *testing.T) {
		_, err := TokenReview(context.Background(), chain, auds, tokenReview(""))
		require.Error(t, err)
		assert.Equal(t, "token is required for TokenReview in authentication", err.Error())
		assert.Equal(t, int32(400), meta.AsStatus(err).Code)
	})
}

func splitToken(tok string) []string {
	var out []string
	start := 0
	for i := 0; i < len(tok); i++ {
		if tok[i] == '.' {
			out = append(out, tok[start:i])
			start = i + 1
		}
	}
	return append(out, tok[start:])
}

func TestSelfSubjectReview(t *testing.T) {
	ctx := WithUser(context.Background(), &User{Name: "alice", Groups: []string{"dev"}, Extra: map[string][]string{"k": {"v"}}})
	out, err := SelfSubjectReview(ctx, t0)
	require.NoError(t, err)
	assert.Equal(t, meta.Object{"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
		"metadata": map[string]any{"creationTimestamp": "2026-11-24T20:00:00Z"},
		"status": map[string]any{"userInfo": map[string]any{"username": "alice", "groups": []any{"dev"},
			"extra": map[string]any{"k": []any{"v"}}}}}, out)
	out, err = SelfSubjectReview(context.Background(), t0)
	require.NoError(t, err)
	assert.Equal(t, "system:anonymous", out["status"].(map[string]any)["userInfo"].(map[string]any)["username"], "a server without authentication serves everyone as system:anonymous")
}

func tokenRequest(spec map[string]any) meta.Object {
	return meta.Object{"apiVersion": "authentication.k8s.io/v1", "kind": "TokenRequest", "spec": spec}
}

func TestTokenRequest(t *testing.T) {
	t.Run("a request without a spec gets an hour-long token for the API audiences", func(t *testing.T) {
		f := newFixture(t, ecKey)
		out, err := f.tokens.TokenRequest(context.Background(), "ns1", "sa1", tokenRequest(nil))
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"name": "sa1", "namespace": "ns1", "creationTimestamp": "2026-11-24T20:00:00Z"}, out["metadata"])
		assert.Equal(t, map[string]any{"audiences": []any{issuer}, "expirationSeconds": int64(3600), "boundObjectRef": nil}, out["spec"])
		status := out["status"].(map[string]any)
		assert.Equal(t, "2026-11-24T21:00:00Z", status["expirationTimestamp"])
		resp, ok, err := f.tokens.AuthenticateToken(context.Background(), status["token"].(string))
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, "system:serviceaccount:ns1:sa1", resp.User.Name)
	})
	t.Run("a pod-bound token carries the pod and its node", func(t *testing.T) {
		f := newFixture(t, ecKey)
		out, err := f.tokens.TokenRequest(context.Background(), "ns1", "sa1", tokenRequest(map[string]any{
			"boundObjectRef": map[string]any{"kind": "Pod", "apiVersion": "v1", "name": "p1"}}))
		require.NoError(t, err)
		resp, ok, err := f.tokens.AuthenticateToken(context.Background(), out["status"].(map[string]any)["token"].(string))
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, []string{"p1"}, resp.User.Extra[PodNameKey])
		assert.Equal(t, []string{"pod-uid"}, resp.User.Extra[PodUIDKey])
		assert.Equal(t, []string{"n1"}, resp.User.Extra[NodeNameKey])
		assert.Equal(t, []string{"node-uid"}, resp.User.Extra[NodeUIDKey])
	})
	errs := []struct {
		name    string
		ns, sa  string
		req     meta.Object
		code    int32
		message string
	}{
		{"a missing ServiceAccount is 404", "ns1", "nope", tokenRequest(nil), 404, `serviceaccounts "nope" not found`},
		{"a lifetime under ten minutes is 422", "ns1", "sa1", tokenRequest(map[string]any{"expirationSeconds": int64(599)}), 422,
			`TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes`},
		{"a body naming another account is 422", "ns1", "sa1", meta.Object{"metadata": map[string]any{"name": "x"}}, 422,
			`TokenRequest.authentication.k8s.io "sa1" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified`},
		{"a pod running as another account is 400", "ns1", "sa1", tokenRequest(map[string]any{
			"boundObjectRef": map[string]any{"kind": "Pod", "apiVersion": "v1", "name": "other"}}), 400,
			`cannot bind token for serviceaccount "sa1" to pod running with different serviceaccount name.`},
		{"a bound object whose UID changed is 409", "ns1", "sa1", tokenRequest(map[string]any{
			"boundObjectRef": map[string]any{"kind": "Secret", "apiVersion": "v1", "name": "s1", "uid": "old"}}), 409,
			`Operation cannot be fulfilled on Secret "s1": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated`},
		{"an object kind tokens cannot bind to is 400", "ns1", "sa1", tokenRequest(map[string]any{
			"boundObjectRef": map[string]any{"kind": "ConfigMap", "apiVersion": "v1", "name": "c"}}), 400,
			`cannot bind token to object of type /v1, Kind=ConfigMap`},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t, ecKey)
			_, err := f.tokens.TokenRequest(context.Background(), c.ns, c.sa, c.req)
			require.Error(t, err)
			st := meta.AsStatus(err)
			assert.Equal(t, c.code, st.Code)
			assert.Equal(t, c.message, st.Message)
		})
	}
	t.Run("a lifetime beyond the maximum is shortened with a warning", func(t *testing.T) {
		f := newFixture(t, ecKey)
		f.tokens.cfg.MaxExpiration = 2 * time.Hour
		var warnings []string
		out, err := f.tokens.TokenRequest(WithWarnings(context.Background(), &warnings), "ns1", "sa1",
			tokenRequest(map[string]any{"expirationSeconds": int64(86400)}))
		require.NoError(t, err)
		assert.Equal(t, int64(7200), out["spec"].(map[string]any)["expirationSeconds"])
		assert.Equal(t, []string{"requested expiration of 86400 seconds shortened to 7200 seconds"}, warnings)
	})
}
