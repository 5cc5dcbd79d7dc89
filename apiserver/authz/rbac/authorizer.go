package rbac

import (
	"context"
	"fmt"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/store"
)

// Authorizer is kube's RBAC authorizer over the RBAC objects of a store: a
// request is allowed when a rule of a role bound to its user allows it,
// through a ClusterRoleBinding anywhere or a RoleBinding in the request's
// namespace; otherwise it has no opinion (so the chain denies). It is also
// the RuleResolver of SelfSubjectRulesReview and of the escalation check.
type Authorizer struct {
	c *cache
}

// New reads the RBAC objects of st and follows their changes. It starts no
// goroutine: every decision first catches up with the writes already in the
// store (see cache). Close releases its watchers.
func New(st store.Store) (*Authorizer, error) {
	c, err := newCache(st)
	if err != nil {
		return nil, err
	}
	return &Authorizer{c: c}, nil
}

// Close stops following the store: decisions keep the last state read.
func (a *Authorizer) Close() { a.c.close() }

// Authorize implements authz.Authorizer, with kube's reasons:
// `RBAC: allowed by RoleBinding "b/ns" of Role "r" to User "alice"` when
// allowed; when not, the bindings whose roles are missing, as
// `RBAC: role.rbac.authorization.k8s.io "r" not found`.
func (a *Authorizer) Authorize(_ context.Context, attrs authz.Attributes) (authz.Decision, string, error) {
	if attrs.User == nil {
		return authz.NoOpinion, "", nil
	}
	s := a.c.current()
	k, remember := keyOf(&attrs)
	if remember {
		if v, ok := s.decisions.get(&k); ok {
			return v.decision, v.reason, nil
		}
	}
	d, reason := s.authorize(&attrs)
	if remember {
		s.decisions.put(&k, decided{d, reason})
	}
	return d, reason, nil
}

// authorize evaluates attrs on the snapshot: the decision and its reason.
func (s *snapshot) authorize(attrs *authz.Attributes) (authz.Decision, string) {
	var missing []*binding // roles looked up in vain; errors built only for a denial
	reason := ""
	s.visitRules(attrs.User, attrs.Namespace, func(b *binding, sub int, rules []Rule, found bool) bool {
		if !found {
			missing = append(missing, b)
			return true
		}
		for i := range rules {
			if rules[i].allows(attrs) {
				reason = b.allowed[sub]
				return false
			}
		}
		return true
	})
	if reason != "" {
		return authz.Allow, reason
	}
	if len(missing) > 0 {
		errs := make([]error, len(missing))
		for i, b := range missing {
			_, errs[i] = s.rulesOf(b.roleRef, b.namespace)
		}
		return authz.NoOpinion, "RBAC: " + authn.Aggregate(errs).Error()
	}
	return authz.NoOpinion, ""
}

// visitRules calls fn with the rules of every binding that applies to u in
// namespace (cluster-wide bindings first) with the index of the subject
// that applies (found is false when the role is missing), until fn returns
// false.
func (s *snapshot) visitRules(u *authn.User, namespace string, fn func(b *binding, sub int, rules []Rule, found bool) bool) {
	visit := func(b *binding) bool {
		sub := b.appliesTo(u.Name, u.Groups)
		if sub < 0 {
			return true
		}
		rules, found := s.lookupRules(b.roleRef, b.namespace)
		return fn(b, sub, rules, found)
	}
	if !s.crbs.visit(u, visit) || namespace == "" {
		return
	}
	s.rbs[namespace].visit(u, visit)
}

// lookupRules returns the rules of a role reference, without building an
// error for a missing role.
func (s *snapshot) lookupRules(ref RoleRef, namespace string) ([]Rule, bool) {
	var r *role
	switch ref.Kind {
	case "ClusterRole":
		r = s.clusterRoles[ref.Name]
	case "Role":
		r = s.roles[namespace][ref.Name]
	}
	if r == nil {
		return nil, false
	}
	return r.rules, true
}

// rulesOf returns the rules of a role reference, or kube's error for a
// missing role.
func (s *snapshot) rulesOf(ref RoleRef, namespace string) ([]Rule, error) {
	switch ref.Kind {
	case "ClusterRole":
		if r := s.clusterRoles[ref.Name]; r != nil {
			return r.rules, nil
		}
		return nil, meta.NotFound(meta.GroupResource{Group: Group, Resource: "clusterrole"}, ref.Name)
	case "Role":
		if r := s.roles[namespace][ref.Name]; r != nil {
			return r.rules, nil
		}
		return nil, meta.NotFound(meta.GroupResource{Group: Group, Resource: "role"}, ref.Name)
	}
	return nil, fmt.Errorf("unsupported role reference kind: %q", ref.Kind)
}

// RulesFor implements authz.RuleResolver: the rules of every binding that
// applies to user in namespace, each binding once (cluster-wide bindings
// first, each group by binding name); missing roles are reported as one
// error, with the rules that could be read.
func (a *Authorizer) RulesFor(_ context.Context, user *authn.User, namespace string) ([]authz.ResourceRule, []authz.NonResourceRule, bool, error) {
	rules, err := a.rulesFor(user, namespace)
	var rr []authz.ResourceRule
	var nr []authz.NonResourceRule
	for _, r := range rules {
		if len(r.Resources) > 0 {
			rr = append(rr, authz.ResourceRule{Verbs: r.Verbs, APIGroups: r.APIGroups, Resources: r.Resources, ResourceNames: r.ResourceNames})
		}
		if len(r.NonResourceURLs) > 0 {
			nr = append(nr, authz.NonResourceRule{Verbs: r.Verbs, NonResourceURLs: r.NonResourceURLs})
		}
	}
	return rr, nr, false, err
}

// rulesFor returns the policy rules user holds in namespace ("": the
// cluster-wide ones only).
func (a *Authorizer) rulesFor(user *authn.User, namespace string) ([]Rule, error) {
	s := a.c.current()
	var rules []Rule
	var errs []error
	seen := map[*binding]bool{}
	collect := func(ix *bindingIndex) {
		var bs []*binding
		ix.visit(user, func(b *binding) bool {
			if !seen[b] && b.appliesTo(user.Name, user.Groups) >= 0 {
				seen[b] = true
				bs = append(bs, b)
			}
			return true
		})
		sortByName(bs)
		for _, b := range bs {
			r, err := s.rulesOf(b.roleRef, b.namespace)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			rules = append(rules, r...)
		}
	}
	collect(s.crbs)
	if namespace != "" {
		collect(s.rbs[namespace])
	}
	return rules, authn.Aggregate(errs)
}

func sortByName(bs []*binding) {
	for i := 1; i < len(bs); i++ {
		for j := i; j > 0 && bs[j].name < bs[j-1].name; j-- {
			bs[j], bs[j-1] = bs[j-1], bs[j]
		}
	}
}
