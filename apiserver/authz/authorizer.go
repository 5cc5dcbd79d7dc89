package authz

import (
	"context"
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/authn"
)

// Decision is an authorizer's answer.
type Decision int

const (
	// NoOpinion lets the next authorizer of a chain decide; at the end of
	// the chain it denies.
	NoOpinion Decision = iota
	// Allow allows the request; the chain stops.
	Allow
	// Deny denies the request; the chain stops.
	Deny
)

func (d Decision) String() string {
	switch d {
	case Allow:
		return "Allow"
	case Deny:
		return "Deny"
	}
	return "NoOpinion"
}

// Attributes are what authorization decides on, as kube's
// authorizer.Attributes: who (User) wants to do what (Verb) to which
// resource (API group, resource, subresource, namespace, name) or, for a
// non-resource request, which URL path.
type Attributes struct {
	User *authn.User
	// Verb is get, list, watch, create, update, patch, delete,
	// deletecollection, or a special verb (impersonate, bind, escalate,
	// use…); for non-resource requests, the lower-case HTTP method.
	Verb string
	// ResourceRequest is true for API resources, false for paths such as
	// /healthz or /api (discovery).
	ResourceRequest bool
	APIGroup        string
	APIVersion      string
	Resource        string
	Subresource     string
	// Namespace is "" for cluster-scoped resources and for requests across
	// all namespaces.
	Namespace string
	// Name is "" for collections (unless a list or watch selects one name
	// with a metadata.name field selector, as kube reads it).
	Name string
	// Path is the URL path of a non-resource request.
	Path string
}

// userName is the user's name, "" without a user.
func (a Attributes) userName() string {
	if a.User == nil {
		return ""
	}
	return a.User.Name
}

// Authorizer decides whether a request is allowed. The reason says why
// (shown in SubjectAccessReviews and, for denials, appended to the 403
// message); an error means the decision could not be made completely (a
// binding that names a missing role): an Allow still stands, anything else
// denies.
type Authorizer interface {
	Authorize(ctx context.Context, a Attributes) (Decision, string, error)
}

// AuthorizerFunc adapts a function to Authorizer.
type AuthorizerFunc func(ctx context.Context, a Attributes) (Decision, string, error)

// Authorize calls f.
func (f AuthorizerFunc) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	return f(ctx, a)
}

// ResourceRule is one rule about API resources a user holds, as a
// SelfSubjectRulesReview lists it.
type ResourceRule struct {
	Verbs         []string
	APIGroups     []string
	Resources     []string
	ResourceNames []string
}

// NonResourceRule is one rule about non-resource URLs.
type NonResourceRule struct {
	Verbs           []string
	NonResourceURLs []string
}

// RuleResolver lists what a user may do in a namespace (all its rules
// that apply there), for SelfSubjectRulesReview and `kubectl auth can-i
// --list`. incomplete says the list may miss rules (an authorizer that
// cannot enumerate its rules); err reports rules that could not be read.
type RuleResolver interface {
	RulesFor(ctx context.Context, user *authn.User, namespace string) (resource []ResourceRule, nonResource []NonResourceRule, incomplete bool, err error)
}

// Union chains authorizers as kube's union authorizer: the first Allow or
// Deny decides; when all have no opinion, their reasons are joined and
// their errors aggregated. It is also a RuleResolver, listing in order the
// rules of the authorizers that are one (PrivilegedGroups is not, as in
// kube: an admin's rules review lists what RBAC grants it).
func Union(authorizers ...Authorizer) Authorizer { return union(authorizers) }

type union []Authorizer

func (u union) Authorize(ctx context.Context, a Attributes) (Decision, string, error) {
	var reasons []string
	var errs []error
	for _, z := range u {
		d, reason, err := z.Authorize(ctx, a)
		if err != nil {
			errs = append(errs, err)
		}
		if reason != "" {
			reasons = append(reasons, reason)
		}
		if d == Allow || d == Deny {
			return d, reason, err
		}
	}
	return NoOpinion, strings.Join(reasons, "\n"), authn.Aggregate(errs)
}

func (u union) RulesFor(ctx context.Context, user *authn.User, namespace string) ([]ResourceRule, []NonResourceRule, bool, error) {
	var rr []ResourceRule
	var nr []NonResourceRule
	var errs []error
	incomplete := false
	for _, z := range u {
		r, ok := z.(RuleResolver)
		if !ok {
			continue
		}
		res, non, inc, err := r.RulesFor(ctx, user, namespace)
		rr, nr = append(rr, res...), append(nr, non...)
		incomplete = incomplete || inc
		if err != nil {
			errs = append(errs, err)
		}
	}
	return rr, nr, incomplete, authn.Aggregate(errs)
}

// AlwaysAllow allows everything (kube's --authorization-mode=AlwaysAllow).
func AlwaysAllow() Authorizer { return alwaysAllow{} }

type alwaysAllow struct{}

func (alwaysAllow) Authorize(context.Context, Attributes) (Decision, string, error) {
	return Allow, "", nil
}

func (alwaysAllow) RulesFor(context.Context, *authn.User, string) ([]ResourceRule, []NonResourceRule, bool, error) {
	return allResources(), allNonResources(), false, nil
}

// AlwaysDeny denies everything (kube's AlwaysDeny mode).
func AlwaysDeny() Authorizer { return alwaysDeny{} }

type alwaysDeny struct{}

func (alwaysDeny) Authorize(context.Context, Attributes) (Decision, string, error) {
	return NoOpinion, "Everything is forbidden.", nil
}

func (alwaysDeny) RulesFor(context.Context, *authn.User, string) ([]ResourceRule, []NonResourceRule, bool, error) {
	return nil, nil, false, nil
}

// PrivilegedGroups allows every request of a member of one of groups and
// has no opinion on others. kube-apiserver puts it first in every chain
// with system:masters, which is how that group can do anything whatever
// the authorization mode (New does the same).
func PrivilegedGroups(groups ...string) Authorizer { return privileged(groups) }

type privileged []string

func (p privileged) member(u *authn.User) bool {
	if u == nil {
		return false
	}
	for _, g := range p {
		if u.InGroup(g) {
			return true
		}
	}
	return false
}

func (p privileged) Authorize(_ context.Context, a Attributes) (Decision, string, error) {
	if p.member(a.User) {
		return Allow, "", nil
	}
	return NoOpinion, "", nil
}

func allResources() []ResourceRule {
	return []ResourceRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}
}

func allNonResources() []NonResourceRule {
	return []NonResourceRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}
}

// Modes of --authorization-mode that New knows besides RBAC (which needs a
// store: the caller passes it as an Authorizer).
const (
	ModeAlwaysAllow = "AlwaysAllow"
	ModeAlwaysDeny  = "AlwaysDeny"
	ModeRBAC        = "RBAC"
)

// New builds kube-apiserver's authorizer from a comma-separated
// --authorization-mode value: system:masters first (PrivilegedGroups), then
// each mode in order. modes maps the names of modes that need more than a
// name (RBAC) to their authorizers.
func New(modeList string, modes map[string]Authorizer) (Authorizer, error) {
	chain := union{PrivilegedGroups(authn.SystemPrivilegedGroup)}
	seen := map[string]bool{}
	for _, m := range strings.Split(modeList, ",") {
		m = strings.TrimSpace(m)
		if seen[m] {
			return nil, fmt.Errorf("authorization mode %q named twice", m)
		}
		seen[m] = true
		switch {
		case m == ModeAlwaysAllow:
			chain = append(chain, AlwaysAllow())
		case m == ModeAlwaysDeny:
			chain = append(chain, AlwaysDeny())
		case modes[m] != nil:
			chain = append(chain, modes[m])
		default:
			return nil, fmt.Errorf("unknown authorization mode %q (known: AlwaysAllow, AlwaysDeny, RBAC)", m)
		}
	}
	return chain, nil
}
