package kubeproto

import (
	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// securityObjects are realistic objects of the RBAC and review kinds.
func securityObjects() []runtime.Object {
	tm := func(group, kind string) metav1.TypeMeta {
		return metav1.TypeMeta{APIVersion: group + "/v1", Kind: kind}
	}
	rules := []rbacv1.PolicyRule{
		{Verbs: []string{"get", "list", "watch"}, APIGroups: []string{""}, Resources: []string{"pods", "pods/status"}, ResourceNames: []string{"a"}},
		{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/logs/*"}},
	}
	subjects := []rbacv1.Subject{{Kind: "User", APIGroup: "rbac.authorization.k8s.io", Name: "alice"},
		{Kind: "ServiceAccount", Name: "robot", Namespace: "default"}}
	resourceAttrs := &authorizationv1.ResourceAttributes{Namespace: "default", Verb: "get", Group: "apps", Version: "v1",
		Resource: "deployments", Subresource: "scale", Name: "web"}
	return []runtime.Object{
		&rbacv1.Role{TypeMeta: tm("rbac.authorization.k8s.io", "Role"), ObjectMeta: objectMeta("reader"), Rules: rules[:1]},
		&rbacv1.ClusterRole{TypeMeta: tm("rbac.authorization.k8s.io", "ClusterRole"), ObjectMeta: metav1.ObjectMeta{Name: "view", CreationTimestamp: created},
			Rules: rules, AggregationRule: &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{
				{MatchLabels: map[string]string{"rbac.authorization.k8s.io/aggregate-to-view": "true"}}}}},
		&rbacv1.RoleBinding{TypeMeta: tm("rbac.authorization.k8s.io", "RoleBinding"), ObjectMeta: objectMeta("reader"),
			Subjects: subjects, RoleRef: rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: "reader"}},
		&rbacv1.ClusterRoleBinding{TypeMeta: tm("rbac.authorization.k8s.io", "ClusterRoleBinding"), ObjectMeta: metav1.ObjectMeta{Name: "cluster-admin"},
			Subjects: []rbacv1.Subject{{Kind: "Group", APIGroup: "rbac.authorization.k8s.io", Name: "system:masters"}},
			RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"}},
		&authorizationv1.SubjectAccessReview{TypeMeta: tm("authorization.k8s.io", "SubjectAccessReview"),
			Spec: authorizationv1.SubjectAccessReviewSpec{ResourceAttributes: resourceAttrs, User: "alice", Groups: []string{"dev"},
				Extra: map[string]authorizationv1.ExtraValue{"scopes": {"a"}}, UID: "u1"},
			Status: authorizationv1.SubjectAccessReviewStatus{Allowed: true, Reason: `RBAC: allowed by RoleBinding "b/default"`}},
		&authorizationv1.LocalSubjectAccessReview{TypeMeta: tm("authorization.k8s.io", "LocalSubjectAccessReview"),
			ObjectMeta: metav1.ObjectMeta{Namespace: "default"},
			Spec:       authorizationv1.SubjectAccessReviewSpec{ResourceAttributes: resourceAttrs, Groups: []string{"dev"}},
			Status:     authorizationv1.SubjectAccessReviewStatus{Denied: true, EvaluationError: "x"}},
		&authorizationv1.SelfSubjectAccessReview{TypeMeta: tm("authorization.k8s.io", "SelfSubjectAccessReview"),
			Spec: authorizationv1.SelfSubjectAccessReviewSpec{NonResourceAttributes: &authorizationv1.NonResourceAttributes{Path: "/api", Verb: "get"}}},
		&authorizationv1.SelfSubjectRulesReview{TypeMeta: tm("authorization.k8s.io", "SelfSubjectRulesReview"),
			Spec: authorizationv1.SelfSubjectRulesReviewSpec{Namespace: "default"},
			Status: authorizationv1.SubjectRulesReviewStatus{
				ResourceRules:    []authorizationv1.ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}},
				NonResourceRules: []authorizationv1.NonResourceRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/api/*"}}}}},
		&authenticationv1.TokenReview{TypeMeta: tm("authentication.k8s.io", "TokenReview"),
			Spec: authenticationv1.TokenReviewSpec{Token: "t", Audiences: []string{"api"}},
			Status: authenticationv1.TokenReviewStatus{Authenticated: true, Audiences: []string{"api"}, User: authenticationv1.UserInfo{
				Username: "alice", UID: "a1", Groups: []string{"dev"}, Extra: map[string]authenticationv1.ExtraValue{"k": {"v"}}}}},
		&authenticationv1.SelfSubjectReview{TypeMeta: tm("authentication.k8s.io", "SelfSubjectReview"), ObjectMeta: metav1.ObjectMeta{CreationTimestamp: created},
			Status: authenticationv1.SelfSubjectReviewStatus{UserInfo: authenticationv1.UserInfo{Username: "alice", Groups: []string{"system:authenticated"}}}},
		&authenticationv1.TokenRequest{TypeMeta: tm("authentication.k8s.io", "TokenRequest"), ObjectMeta: metav1.ObjectMeta{Name: "robot", Namespace: "default", CreationTimestamp: created},
			Spec: authenticationv1.TokenRequestSpec{Audiences: []string{"api"}, ExpirationSeconds: ptr(int64(3600)),
				BoundObjectRef: &authenticationv1.BoundObjectReference{Kind: "Pod", APIVersion: "v1", Name: "p", UID: "u"}},
			Status: authenticationv1.TokenRequestStatus{Token: "eyJ", ExpirationTimestamp: later}},
	}
}
