package rbac

import (
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/authz"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// Rule is an rbac.authorization.k8s.io/v1 PolicyRule.
type Rule struct {
	Verbs           []string
	APIGroups       []string
	Resources       []string
	ResourceNames   []string
	NonResourceURLs []string
}

// Subject is one subject of a binding.
type Subject struct {
	Kind, APIGroup, Name, Namespace string
}

// RoleRef is a binding's role reference.
type RoleRef struct {
	APIGroup, Kind, Name string
}

// role is a Role or ClusterRole as the authorizer needs it.
type role struct {
	namespace, name string
	labels          map[string]string
	rules           []Rule
	// selectors are a ClusterRole's aggregationRule.clusterRoleSelectors;
	// nil without an aggregationRule.
	selectors []selectors.LabelSelector
	// annotations keep what the bootstrap reconciliation reads.
	autoupdate bool
}

// binding is a RoleBinding or ClusterRoleBinding.
type binding struct {
	namespace, name string
	roleRef         RoleRef
	subjects        []Subject
	// allowed[i] is the reason of a request allowed through subjects[i],
	// built once: decisions allocate nothing.
	allowed []string
}

// parseRole reads a Role or ClusterRole object; fields of the wrong type
// read as absent (the API server validated the object before storing it).
func parseRole(obj meta.Object) *role {
	r := &role{namespace: obj.Namespace(), name: obj.Name(), labels: obj.Labels()}
	r.autoupdate = obj.Annotations()[autoupdateAnnotation] == "true"
	r.rules = parseRules(obj["rules"])
	if ar, ok := obj["aggregationRule"].(map[string]any); ok {
		r.selectors = []selectors.LabelSelector{}
		sels, _ := ar["clusterRoleSelectors"].([]any)
		for _, s := range sels {
			if m, ok := s.(map[string]any); ok {
				sel, err := selectors.LabelSelectorFromObject(m)
				if err != nil { // an invalid selector matches nothing
					sel = selectors.NothingLabels()
				}
				r.selectors = append(r.selectors, sel)
			}
		}
	}
	return r
}

func parseRules(v any) []Rule {
	list, _ := v.([]any)
	rules := make([]Rule, 0, len(list))
	for _, e := range list {
		m, _ := e.(map[string]any)
		rules = append(rules, Rule{
			Verbs:           meta.AsStrings(m["verbs"]),
			APIGroups:       meta.AsStrings(m["apiGroups"]),
			Resources:       meta.AsStrings(m["resources"]),
			ResourceNames:   meta.AsStrings(m["resourceNames"]),
			NonResourceURLs: meta.AsStrings(m["nonResourceURLs"]),
		})
	}
	return rules
}

// RulesOf reads the rules of a Role or ClusterRole object.
func RulesOf(obj meta.Object) []Rule { return parseRules(obj["rules"]) }

// ruleObject is a rule as JSON.
func (r Rule) object() map[string]any {
	m := map[string]any{"verbs": anyList(r.Verbs)}
	if r.APIGroups != nil {
		m["apiGroups"] = anyList(r.APIGroups)
	}
	if r.Resources != nil {
		m["resources"] = anyList(r.Resources)
	}
	if r.ResourceNames != nil {
		m["resourceNames"] = anyList(r.ResourceNames)
	}
	if r.NonResourceURLs != nil {
		m["nonResourceURLs"] = anyList(r.NonResourceURLs)
	}
	return m
}

func parseBinding(obj meta.Object) *binding {
	b := &binding{namespace: obj.Namespace(), name: obj.Name()}
	if ref, ok := obj["roleRef"].(map[string]any); ok {
		b.roleRef.APIGroup, _ = ref["apiGroup"].(string)
		b.roleRef.Kind, _ = ref["kind"].(string)
		b.roleRef.Name, _ = ref["name"].(string)
	}
	subs, _ := obj["subjects"].([]any)
	for _, s := range subs {
		m, _ := s.(map[string]any)
		var sub Subject
		sub.Kind, _ = m["kind"].(string)
		sub.APIGroup, _ = m["apiGroup"].(string)
		sub.Name, _ = m["name"].(string)
		sub.Namespace, _ = m["namespace"].(string)
		b.subjects = append(b.subjects, sub)
	}
	b.allowed = make([]string, len(b.subjects))
	for i := range b.subjects {
		b.allowed[i] = "RBAC: allowed by " + b.describe(&b.subjects[i])
	}
	return b
}

// RoleRefOf reads a binding object's roleRef.
func RoleRefOf(obj meta.Object) RoleRef { return parseBinding(obj).roleRef }

func anyList(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// allows reports whether rule r allows the request, by kube's matching:
// "*" matches any verb, group, resource or URL; "*/sub" matches the
// subresource sub of any resource; a URL ending in "*" matches the paths
// it prefixes; resourceNames, when set, must name the object.
func (r *Rule) allows(a *authz.Attributes) bool {
	if !has(r.Verbs, a.Verb) {
		return false
	}
	if !a.ResourceRequest {
		return nonResourceURLMatches(r.NonResourceURLs, a.Path)
	}
	return has(r.APIGroups, a.APIGroup) && resourceMatches(r.Resources, a.Resource, a.Subresource) &&
		(len(r.ResourceNames) == 0 || contains(r.ResourceNames, a.Name))
}

// has reports whether list holds v or "*".
func has(list []string, v string) bool {
	for _, e := range list {
		if e == v || e == "*" {
			return true
		}
	}
	return false
}

func contains(list []string, v string) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

func resourceMatches(rules []string, resource, subresource string) bool {
	for _, r := range rules {
		if r == "*" {
			return true
		}
		if subresource == "" {
			if r == resource {
				return true
			}
			continue
		}
		// r is "resource/subresource" or "*/subresource".
		if len(r) == len(resource)+1+len(subresource) && r[len(resource)] == '/' &&
			strings.HasPrefix(r, resource) && strings.HasSuffix(r, subresource) {
			return true
		}
		if len(r) == len(subresource)+2 && strings.HasPrefix(r, "*/") && strings.HasSuffix(r, subresource) {
			return true
		}
	}
	return false
}

func nonResourceURLMatches(rules []string, path string) bool {
	for _, u := range rules {
		if u == "*" || u == path {
			return true
		}
		if strings.HasSuffix(u, "*") && strings.HasPrefix(path, strings.TrimRight(u, "*")) {
			return true
		}
	}
	return false
}

// appliesTo returns the index of the first subject of b that is user
// (kube's order), or -1. A ServiceAccount subject without a namespace means
// one in the binding's namespace.
func (b *binding) appliesTo(name string, groups []string) int {
	for i := range b.subjects {
		s := &b.subjects[i]
		switch s.Kind {
		case "User":
			if s.Name == name {
				return i
			}
		case "Group":
			if contains(groups, s.Name) {
				return i
			}
		case "ServiceAccount":
			ns := s.Namespace
			if ns == "" {
				ns = b.namespace
			}
			if ns != "" && isServiceAccount(name, ns, s.Name) {
				return i
			}
		}
	}
	return -1
}

// isServiceAccount reports name == "system:serviceaccount:ns:sa" without
// building the string.
func isServiceAccount(name, ns, sa string) bool {
	const prefix = "system:serviceaccount:"
	return len(name) == len(prefix)+len(ns)+1+len(sa) && strings.HasPrefix(name, prefix) &&
		name[len(prefix):len(prefix)+len(ns)] == ns && name[len(prefix)+len(ns)] == ':' && strings.HasSuffix(name, sa)
}

// describe is how kube names a binding in an allow reason:
// `RoleBinding "b/ns" of Role "r" to User "alice"`.
func (b *binding) describe(s *Subject) string {
	subject := fmt.Sprintf("%s %q", s.Kind, s.Name)
	if s.Kind == "ServiceAccount" {
		ns := s.Namespace
		if ns == "" {
			ns = b.namespace
		}
		subject = fmt.Sprintf("%s %q", s.Kind, s.Name+"/"+ns)
	}
	if b.namespace == "" {
		return fmt.Sprintf("ClusterRoleBinding %q of %s %q to %s", b.name, b.roleRef.Kind, b.roleRef.Name, subject)
	}
	return fmt.Sprintf("RoleBinding %q of %s %q to %s", b.name+"/"+b.namespace, b.roleRef.Kind, b.roleRef.Name, subject)
}
