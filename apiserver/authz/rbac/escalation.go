package rbac

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
)

// Escalation is kube's privilege-escalation prevention for the RBAC kinds:
// a user may create or update a Role or ClusterRole only with rules it
// already holds (where the role applies), unless it may "escalate" roles;
// and a RoleBinding or ClusterRoleBinding only to a role whose rules it
// holds, unless it may "bind" that role. Members of system:masters are
// never checked. Changes that touch only what the garbage collector
// writes (ownerReferences, finalizers) are never checked either.
type Escalation struct {
	// Authorizer answers the escalate and bind checks: the server's whole
	// chain, as in kube.
	Authorizer authz.Authorizer
	// Rules is the RBAC authorizer whose rules a user holds.
	Rules *Authorizer
}

// Write describes one write to an RBAC object.
type Write struct {
	// Resource is roles, clusterroles, rolebindings or clusterrolebindings
	// (anything else is not checked).
	Resource string
	// Namespace of the object ("" for the cluster-scoped kinds).
	Namespace string
	// Name is the name of the request ("" for a create, as kube's request
	// info).
	Name string
	// Object is the object to be stored; OldObject the stored one (nil for
	// a create).
	Object, OldObject meta.Object
}

// Check returns kube's 403 (or the 404 of a binding to a missing role)
// when the request's user (authn.UserFrom(ctx)) may not make the write.
func (e *Escalation) Check(ctx context.Context, w Write) error {
	u, ok := authn.UserFrom(ctx)
	if !ok {
		return errors.New("no user on request")
	}
	if u.InGroup(authn.SystemPrivilegedGroup) {
		return nil
	}
	if w.OldObject != nil && onlyGCFieldsChanged(w.Object, w.OldObject) {
		return nil
	}
	gr := meta.GroupResource{Group: Group, Resource: w.Resource}
	name := w.Object.Name()
	switch w.Resource {
	case ResourceRoles, ResourceClusterRoles:
		if e.allowed(ctx, authz.Attributes{User: u, Verb: "escalate", APIGroup: Group, APIVersion: "*",
			Resource: w.Resource, Name: w.Name, Namespace: w.Namespace, ResourceRequest: true}) {
			return nil
		}
		if err := e.confirmNoEscalation(u, w.Namespace, RulesOf(w.Object)); err != nil {
			return authz.ForbiddenStatus(gr, name, err.Error())
		}
	case ResourceRoleBindings, ResourceClusterRoleBindings:
		ref := RoleRefOf(w.Object)
		attrs := authz.Attributes{User: u, Verb: "bind", Namespace: w.Namespace, APIGroup: ref.APIGroup, ResourceRequest: true, Name: ref.Name}
		switch ref.Kind {
		case "ClusterRole":
			attrs.Resource = ResourceClusterRoles
		case "Role":
			attrs.Resource = ResourceRoles
		}
		if attrs.Resource != "" && e.allowed(ctx, attrs) {
			return nil
		}
		rules, err := e.Rules.c.current().rulesOf(ref, w.Namespace)
		if err != nil {
			if meta.IsNotFound(err) {
				return meta.NotFound(gr, ref.Name) // kube names the binding's resource here
			}
			return err
		}
		if err := e.confirmNoEscalation(u, w.Namespace, rules); err != nil {
			return authz.ForbiddenStatus(gr, name, err.Error())
		}
	}
	return nil
}

func (e *Escalation) allowed(ctx context.Context, a authz.Attributes) bool {
	if e.Authorizer == nil {
		return false
	}
	d, _, _ := e.Authorizer.Authorize(ctx, a)
	return d == authz.Allow
}

// confirmNoEscalation is kube's ConfirmNoEscalation: every rule must be
// covered by the rules u holds in namespace; the error lists those not
// covered, compacted and sorted.
func (e *Escalation) confirmNoEscalation(u *authn.User, namespace string, rules []Rule) error {
	owner, resolveErr := e.Rules.rulesFor(u, namespace)
	missing := Uncovered(owner, rules)
	if len(missing) == 0 {
		return nil
	}
	var descs []string
	for _, r := range compactRules(missing) {
		descs = append(descs, r.CompactString())
	}
	slices.Sort(descs)
	descs = slices.Compact(descs)
	msg := fmt.Sprintf("user %q (groups=%q) is attempting to grant RBAC permissions not currently held:\n%s",
		u.Name, u.Groups, strings.Join(descs, "\n"))
	if resolveErr != nil {
		msg += fmt.Sprintf("; resolution errors: %v", []error{resolveErr})
	}
	return errors.New(msg)
}

// Uncovered breaks rules down to one verb, group, resource and name (or
// URL) each and returns those no owner rule covers, as kube's Covers.
func Uncovered(owner, rules []Rule) []Rule {
	var out []Rule
	for _, r := range rules {
		for _, sub := range breakdown(r) {
			covered := false
			for i := range owner {
				if covers(&owner[i], &sub) {
					covered = true
					break
				}
			}
			if !covered {
				out = append(out, sub)
			}
		}
	}
	return out
}

func breakdown(r Rule) []Rule {
	var out []Rule
	for _, g := range r.APIGroups {
		for _, res := range r.Resources {
			for _, v := range r.Verbs {
				if len(r.ResourceNames) == 0 {
					out = append(out, Rule{APIGroups: []string{g}, Resources: []string{res}, Verbs: []string{v}})
					continue
				}
				for _, n := range r.ResourceNames {
					out = append(out, Rule{APIGroups: []string{g}, Resources: []string{res}, Verbs: []string{v}, ResourceNames: []string{n}})
				}
			}
		}
	}
	for _, u := range r.NonResourceURLs {
		for _, v := range r.Verbs {
			out = append(out, Rule{NonResourceURLs: []string{u}, Verbs: []string{v}})
		}
	}
	return out
}

// covers reports whether owner covers sub (one verb, resource and name).
func covers(owner, sub *Rule) bool {
	verbs := contains(owner.Verbs, "*") || containsAll(owner.Verbs, sub.Verbs)
	groups := contains(owner.APIGroups, "*") || containsAll(owner.APIGroups, sub.APIGroups)
	names := len(owner.ResourceNames) == 0 || len(sub.ResourceNames) > 0 && containsAll(owner.ResourceNames, sub.ResourceNames)
	return verbs && groups && names && resourcesCover(owner.Resources, sub.Resources) && urlsCover(owner.NonResourceURLs, sub.NonResourceURLs)
}

func containsAll(set, want []string) bool {
	for _, w := range want {
		if !contains(set, w) {
			return false
		}
	}
	return true
}

func resourcesCover(set, want []string) bool {
	if contains(set, "*") || containsAll(set, want) {
		return true
	}
	for _, p := range want {
		if contains(set, p) {
			continue
		}
		_, sub, ok := strings.Cut(p, "/")
		if !ok || !contains(set, "*/"+sub) {
			return false
		}
	}
	return true
}

func urlsCover(set, want []string) bool {
	for _, p := range want {
		covered := false
		for _, o := range set {
			if o == p || strings.HasSuffix(o, "*") && strings.HasPrefix(p, strings.TrimRight(o, "*")) {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return true
}

// compactRules merges rules of one group, one resource and at most one
// name that differ only by verb, as kube's CompactRules.
func compactRules(rules []Rule) []Rule {
	type simple struct {
		group, resource, name string
		hasName               bool
	}
	var out []Rule
	merged := map[simple]int{}
	var order []simple
	var acc []Rule
	for _, r := range rules {
		if len(r.ResourceNames) > 1 || len(r.NonResourceURLs) > 0 || len(r.APIGroups) != 1 || len(r.Resources) != 1 {
			out = append(out, r)
			continue
		}
		k := simple{group: r.APIGroups[0], resource: r.Resources[0]}
		if len(r.ResourceNames) == 1 {
			k.name, k.hasName = r.ResourceNames[0], true
		}
		if i, ok := merged[k]; ok {
			acc[i].Verbs = append(acc[i].Verbs, r.Verbs...)
			continue
		}
		merged[k] = len(acc)
		order = append(order, k)
		c := r
		c.Verbs = slices.Clone(r.Verbs)
		acc = append(acc, c)
	}
	return append(out, acc...)
}

// CompactString is kube's PolicyRule.CompactString:
// {APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}.
func (r Rule) CompactString() string {
	var parts []string
	add := func(name string, v []string) {
		if len(v) > 0 {
			parts = append(parts, fmt.Sprintf("%s:%q", name, v))
		}
	}
	add("APIGroups", r.APIGroups)
	add("Resources", r.Resources)
	add("NonResourceURLs", r.NonResourceURLs)
	add("ResourceNames", r.ResourceNames)
	add("Verbs", r.Verbs)
	return "{" + strings.Join(parts, ", ") + "}"
}

// onlyGCFieldsChanged reports an update that changes nothing but what the
// garbage collector and the server write (ownerReferences, finalizers,
// deletion fields, and the server's own bookkeeping).
func onlyGCFieldsChanged(obj, old meta.Object) bool {
	strip := func(o meta.Object) meta.Object {
		c := make(meta.Object, len(o))
		for k, v := range o {
			c[k] = v
		}
		md, _ := o["metadata"].(map[string]any)
		m := make(map[string]any, len(md))
		for k, v := range md {
			switch k {
			case "ownerReferences", "finalizers", "deletionTimestamp", "deletionGracePeriodSeconds",
				"managedFields", "resourceVersion", "generation", "selfLink":
				continue
			}
			m[k] = v
		}
		c["metadata"] = m
		return c
	}
	return reflect.DeepEqual(map[string]any(strip(obj)), map[string]any(strip(old)))
}
