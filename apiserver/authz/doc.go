// Package authz decides what an authenticated user may do, with
// kube-apiserver's model: an Authorizer looks at a request's Attributes
// (user, verb, API group, resource, subresource, namespace, name, or a
// non-resource path) and answers Allow, Deny or NoOpinion with a reason.
// Authorizers chain (Union: the first Allow or Deny decides; no opinion at
// the end denies). New builds kube's chain from an --authorization-mode
// list: system:masters first (PrivilegedGroups), then AlwaysAllow,
// AlwaysDeny or RBAC (package rbac) in the order named.
//
// Filter authorizes every request from its request info and user
// (AttributesFrom: a dry run is authorized as the real request, a list or
// watch of one metadata.name is about that name) and answers a denial with
// kube's 403 Status, word for word:
//
//	pods "p" is forbidden: User "alice" cannot get resource "pods" in API group "" in the namespace "ns"
//
// The review functions answer authorization.k8s.io's create-only kinds
// (SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview,
// SelfSubjectRulesReview: `kubectl auth can-i`) from the same authorizer,
// over decoded objects, so a kind registration only calls them.
//
// Authorizers must be safe for concurrent use; they are called on every
// request, so they must be fast (RBAC answers from an index in about a
// microsecond).
package authz
