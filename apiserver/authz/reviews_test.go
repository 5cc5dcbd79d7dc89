package authz

import (
	"context"
	"testing"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// aliceReads allows alice to get configmaps in ns1, with a reason.
var aliceReads = AuthorizerFunc(func(_ context.Context, a Attributes) (Decision, string, error) {
	if a.User.Name == "alice" && a.Verb == "get" && a.Resource == "configmaps" && a.Namespace == "ns1" {
		return Allow, "RBAC: allowed by RoleBinding \"b/ns1\" of Role \"r\" to User \"alice\"", nil
	}
	return NoOpinion, "", nil
})

func review(kind string, spec map[string]any) meta.Object {
	return meta.Object{"kind": kind, "apiVersion": "authorization.k8s.io/v1", "metadata": map[string]any{}, "spec": spec}
}

func resourceAttrs(kv ...string) map[string]any {
	m := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func TestSubjectAccessReview(t *testing.T) {
	ctx := context.Background()
	out, err := SubjectAccessReview(ctx, aliceReads, review("SubjectAccessReview", map[string]any{
		"user": "alice", "resourceAttributes": resourceAttrs("namespace", "ns1", "verb", "get", "resource", "configmaps")}))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"allowed": true, "reason": "RBAC: allowed by RoleBinding \"b/ns1\" of Role \"r\" to User \"alice\""}, out["status"])

	out, err = SubjectAccessReview(ctx, aliceReads, review("SubjectAccessReview", map[string]any{
		"user": "alice", "nonResourceAttributes": map[string]any{"path": "/api", "verb": "get"}}))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"allowed": false}, out["status"])

	invalid := []struct {
		name string
		spec map[string]any
		msg  string
	}{
		{"no attributes", map[string]any{"user": "alice"},
			`.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified`},
		{"no user nor group", map[string]any{"resourceAttributes": resourceAttrs("verb", "get")},
			`.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified`},
		{"both attributes", map[string]any{"user": "a", "resourceAttributes": resourceAttrs("verb", "get"), "nonResourceAttributes": map[string]any{"path": "/x", "verb": "get"}},
			`.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: &authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes`},
	}
	for _, c := range invalid {
		t.Run("a review with "+c.name+" is 422", func(t *testing.T) {
			_, err := SubjectAccessReview(ctx, aliceReads, review("SubjectAccessReview", c.spec))
			require.Error(t, err)
			st := meta.AsStatus(err)
			assert.Equal(t, int32(422), st.Code)
			assert.Equal(t, c.msg, st.Message)
			assert.Equal(t, "authorization.k8s.io", st.Details.Group)
		})
	}
}

func TestLocalSubjectAccessReview(t *testing.T) {
	ctx := context.Background()
	out, err := LocalSubjectAccessReview(ctx, aliceReads, "ns1", review("LocalSubjectAccessReview", map[string]any{
		"user": "alice", "resourceAttributes": resourceAttrs("namespace", "ns1", "verb", "get", "resource", "configmaps")}))
	require.NoError(t, err)
	assert.Equal(t, true, out["status"].(map[string]any)["allowed"])

	_, err = LocalSubjectAccessReview(ctx, aliceReads, "ns1", review("LocalSubjectAccessReview", map[string]any{
		"user": "alice", "resourceAttributes": resourceAttrs("namespace", "ns2", "verb", "get")}))
	require.Error(t, err)
	assert.Equal(t, `.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "ns2": must match metadata.namespace`, err.Error())
}

func TestSelfSubjectAccessReview(t *testing.T) {
	ctx := authn.WithUser(context.Background(), alice)
	out, err := SelfSubjectAccessReview(ctx, aliceReads, review("SelfSubjectAccessReview", map[string]any{
		"resourceAttributes": resourceAttrs("namespace", "ns1", "verb", "get", "resource", "configmaps", "name", "x")}))
	require.NoError(t, err)
	assert.Equal(t, true, out["status"].(map[string]any)["allowed"])
	assert.Equal(t, "x", out["spec"].(map[string]any)["resourceAttributes"].(map[string]any)["name"], "the spec is echoed")

	out, err = SelfSubjectAccessReview(ctx, aliceReads, review("SelfSubjectAccessReview", map[string]any{
		"resourceAttributes": resourceAttrs("namespace", "ns2", "verb", "get", "resource", "configmaps")}))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"allowed": false}, out["status"])
}

type fixedRules struct{}

func (fixedRules) Authorize(context.Context, Attributes) (Decision, string, error) {
	return NoOpinion, "", nil
}
func (fixedRules) RulesFor(_ context.Context, u *authn.User, ns string) ([]ResourceRule, []NonResourceRule, bool, error) {
	return []ResourceRule{{Verbs: []string{"get"}, APIGroups: []string{""}, Resources: []string{"pods"}, ResourceNames: []string{"p"}}},
		[]NonResourceRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/api"}}}, false, nil
}

func TestSelfSubjectRulesReview(t *testing.T) {
	ctx := authn.WithUser(context.Background(), alice)
	out, err := SelfSubjectRulesReview(ctx, Union(PrivilegedGroups("system:masters"), fixedRules{}).(RuleResolver), review("SelfSubjectRulesReview", map[string]any{"namespace": "ns1"}))
	require.NoError(t, err)
	assert.Equal(t, meta.Object{"kind": "SelfSubjectRulesReview", "apiVersion": "authorization.k8s.io/v1",
		"metadata": map[string]any{"creationTimestamp": nil}, "spec": map[string]any{},
		"status": map[string]any{
			"resourceRules":    []any{map[string]any{"verbs": []any{"get"}, "apiGroups": []any{""}, "resources": []any{"pods"}, "resourceNames": []any{"p"}}},
			"nonResourceRules": []any{map[string]any{"verbs": []any{"get"}, "nonResourceURLs": []any{"/api"}}},
			"incomplete":       false,
		}}, out)
	_, err = SelfSubjectRulesReview(ctx, fixedRules{}, review("SelfSubjectRulesReview", map[string]any{}))
	assert.EqualError(t, err, "no namespace on request")
}
