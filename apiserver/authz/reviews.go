package authz

import (
	"context"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/meta"
)

// The review kinds of authorization.k8s.io/v1 are create-only: a create
// is answered with the object and its status, and nothing is stored. The
// functions below compute those answers from objects already decoded (and
// through the generic create pipeline: defaults, managedFields), so the
// registration of the kinds only calls them.

var reviewGroup = meta.GroupKind{Group: "authorization.k8s.io"}

// SubjectAccessReview answers a SubjectAccessReview: may spec.user (with
// spec.groups, spec.uid, spec.extra) do what spec.resourceAttributes or
// spec.nonResourceAttributes describe, according to a.
func SubjectAccessReview(ctx context.Context, a Authorizer, obj meta.Object) (meta.Object, error) {
	spec, _ := obj["spec"].(map[string]any)
	errs := validateReviewSpec(spec, true)
	if len(errs) > 0 {
		return nil, meta.Invalid(reviewGroup, "", errs)
	}
	return answerAccessReview(ctx, a, obj, specUser(spec))
}

// LocalSubjectAccessReview answers a LocalSubjectAccessReview created in
// namespace: a SubjectAccessReview about that namespace only.
func LocalSubjectAccessReview(ctx context.Context, a Authorizer, namespace string, obj meta.Object) (meta.Object, error) {
	if namespace == "" {
		return nil, meta.BadRequest("namespace is required on this type: ")
	}
	spec, _ := obj["spec"].(map[string]any)
	errs := validateReviewSpec(spec, true)
	if _, ok := spec["nonResourceAttributes"].(map[string]any); ok {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.nonResourceAttributes",
			Value: nonResourceAttributesValue(spec), Detail: "disallowed on this kind of request"})
	}
	if ra, ok := spec["resourceAttributes"].(map[string]any); ok {
		if ns, _ := ra["namespace"].(string); ns != namespace {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.resourceAttributes.namespace",
				Value: ns, Detail: "must match metadata.namespace"})
		}
	}
	if len(errs) > 0 {
		return nil, meta.Invalid(reviewGroup, "", errs)
	}
	return answerAccessReview(ctx, a, obj, specUser(spec))
}

// SelfSubjectAccessReview answers a SelfSubjectAccessReview (`kubectl auth
// can-i`): may the request's own user do what the spec describes.
func SelfSubjectAccessReview(ctx context.Context, a Authorizer, obj meta.Object) (meta.Object, error) {
	spec, _ := obj["spec"].(map[string]any)
	if errs := validateReviewSpec(spec, false); len(errs) > 0 {
		return nil, meta.Invalid(reviewGroup, "", errs)
	}
	return answerAccessReview(ctx, a, obj, userOf(ctx))
}

// SelfSubjectRulesReview answers a SelfSubjectRulesReview (`kubectl auth
// can-i --list`): every rule the request's user holds in spec.namespace.
// The answer is a new object, as kube's, with an empty spec.
func SelfSubjectRulesReview(ctx context.Context, r RuleResolver, obj meta.Object) (meta.Object, error) {
	u := userOf(ctx)
	spec, _ := obj["spec"].(map[string]any)
	namespace, _ := spec["namespace"].(string)
	if namespace == "" {
		return nil, meta.BadRequest("no namespace on request")
	}
	var (
		rr         []ResourceRule
		nr         []NonResourceRule
		incomplete bool
		err        error
	)
	if r != nil {
		rr, nr, incomplete, err = r.RulesFor(ctx, u, namespace)
	}
	resources := make([]any, 0, len(rr))
	for _, x := range rr {
		m := map[string]any{"verbs": anyStrings(x.Verbs)}
		putList(m, "apiGroups", x.APIGroups)
		putList(m, "resources", x.Resources)
		putList(m, "resourceNames", x.ResourceNames)
		resources = append(resources, m)
	}
	nonResources := make([]any, 0, len(nr))
	for _, x := range nr {
		m := map[string]any{"verbs": anyStrings(x.Verbs)}
		putList(m, "nonResourceURLs", x.NonResourceURLs)
		nonResources = append(nonResources, m)
	}
	status := map[string]any{"resourceRules": resources, "nonResourceRules": nonResources, "incomplete": incomplete}
	if err != nil {
		status["evaluationError"] = err.Error()
	}
	return meta.Object{
		"kind": "SelfSubjectRulesReview", "apiVersion": "authorization.k8s.io/v1",
		"metadata": map[string]any{"creationTimestamp": nil},
		"spec":     map[string]any{},
		"status":   status,
	}, nil
}

// userOf is the request's user; a server without authentication serves
// everyone as system:anonymous.
func userOf(ctx context.Context) *authn.User {
	if u, ok := authn.UserFrom(ctx); ok {
		return u
	}
	return authn.AnonymousResponse().User
}

// answerAccessReview authorizes the attributes of obj's spec for u and
// returns obj with its status.
func answerAccessReview(ctx context.Context, a Authorizer, obj meta.Object, u *authn.User) (meta.Object, error) {
	out := obj.DeepCopy()
	spec, _ := out["spec"].(map[string]any)
	attrs := Attributes{User: u}
	if ra, ok := spec["resourceAttributes"].(map[string]any); ok {
		str := func(k string) string { s, _ := ra[k].(string); return s }
		attrs.ResourceRequest = true
		attrs.Verb, attrs.Namespace, attrs.APIGroup = str("verb"), str("namespace"), str("group")
		attrs.APIVersion, attrs.Resource, attrs.Subresource, attrs.Name = str("version"), str("resource"), str("subresource"), str("name")
		if attrs.APIVersion == "" {
			attrs.APIVersion = "*"
		}
	} else if nra, ok := spec["nonResourceAttributes"].(map[string]any); ok {
		attrs.Path, _ = nra["path"].(string)
		attrs.Verb, _ = nra["verb"].(string)
	}
	d, reason, err := a.Authorize(ctx, attrs)
	status := map[string]any{"allowed": d == Allow}
	if d == Deny {
		status["denied"] = true
	}
	if reason != "" {
		status["reason"] = reason
	}
	if err != nil {
		status["evaluationError"] = err.Error()
	}
	out["status"] = status
	return out, nil
}

// validateReviewSpec checks what every access review spec needs, with
// kube's messages; withUser adds the user-or-groups rule of the reviews
// about someone else.
func validateReviewSpec(spec map[string]any, withUser bool) meta.FieldErrors {
	var errs meta.FieldErrors
	_, hasRA := spec["resourceAttributes"].(map[string]any)
	_, hasNRA := spec["nonResourceAttributes"].(map[string]any)
	if hasRA && hasNRA {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.nonResourceAttributes",
			Value: nonResourceAttributesValue(spec), Detail: "cannot be specified in combination with resourceAttributes"})
	}
	if !hasRA && !hasNRA {
		errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.resourceAttributes",
			Value: "null", Detail: "exactly one of nonResourceAttributes or resourceAttributes must be specified"})
	}
	if withUser {
		user, _ := spec["user"].(string)
		groups, _ := spec["groups"].([]any)
		if user == "" && len(groups) == 0 {
			errs = append(errs, meta.FieldError{Type: meta.ErrorInvalid, Field: "spec.user",
				Value: user, Detail: "at least one of user or group must be specified"})
		}
	}
	return errs
}

// goValue prints as kube prints a Go value in a field error.
type goValue string

func (v goValue) String() string { return string(v) }

func nonResourceAttributesValue(spec map[string]any) goValue {
	nra, _ := spec["nonResourceAttributes"].(map[string]any)
	path, _ := nra["path"].(string)
	verb, _ := nra["verb"].(string)
	return goValue(fmt.Sprintf("&authorization.NonResourceAttributes{Path:%q, Verb:%q}", path, verb))
}

// specUser is the user a SubjectAccessReview asks about.
func specUser(spec map[string]any) *authn.User {
	u := &authn.User{}
	u.Name, _ = spec["user"].(string)
	u.UID, _ = spec["uid"].(string)
	for _, g := range meta.AsList(spec["groups"]) {
		if s, ok := g.(string); ok {
			u.Groups = append(u.Groups, s)
		}
	}
	if extra, ok := spec["extra"].(map[string]any); ok {
		u.Extra = map[string][]string{}
		for k, v := range extra {
			for _, e := range meta.AsList(v) {
				if s, ok := e.(string); ok {
					u.Extra[k] = append(u.Extra[k], s)
				}
			}
		}
	}
	return u
}

func anyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func putList(m map[string]any, key string, s []string) {
	if len(s) > 0 {
		m[key] = anyStrings(s)
	}
}
