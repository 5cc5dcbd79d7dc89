package builtin

import "github.com/kapi-dev/kapi/schema"

// RBAC objects are named by path segments, as kube's ValidateRBACName:
// "clusterRole-10", "Role:A_1" and "system:controller:x" are names, "a/b"
// is not (docs/kube-behaviour/10-validation.md).

// NameErrors is kube's IsValidPathSegmentName.
func (roleStrategy) NameErrors(name string) []string { return schema.PathSegmentName(name, false) }

// NameErrors is kube's IsValidPathSegmentName.
func (bindingStrategy) NameErrors(name string) []string { return schema.PathSegmentName(name, false) }
