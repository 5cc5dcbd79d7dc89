package policy

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kapi-dev/kapi/meta"
)

// Rule is kube's RuleWithOperations (with the resource names of a
// NamedRuleWithOperations): which operations on which resources it
// selects.
type Rule struct {
	Operations, APIGroups, APIVersions, Resources []string
	// Scope is "*" (or ""), "Cluster" or "Namespaced".
	Scope         string
	ResourceNames []string
}

// ParseRules reads a list of JSON-shaped rules.
func ParseRules(v any) []Rule {
	var out []Rule
	for _, m := range meta.AsMaps(v) {
		out = append(out, Rule{Operations: meta.AsStrings(m["operations"]), APIGroups: meta.AsStrings(m["apiGroups"]),
			APIVersions: meta.AsStrings(m["apiVersions"]), Resources: meta.AsStrings(m["resources"]), Scope: str(m, "scope"),
			ResourceNames: meta.AsStrings(m["resourceNames"])})
	}
	return out
}

func exactOrWildcard(items []string, requested string) bool {
	return slices.Contains(items, "*") || slices.Contains(items, requested)
}

var namespacesResource = meta.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// matches reports whether the rule selects a request on resource r.
func (rule Rule) matches(a *Attributes, r meta.GroupVersionResource) bool {
	switch rule.Scope {
	case "", "*":
	case "Namespaced":
		if r == namespacesResource || a.Namespace == "" {
			return false
		}
	case "Cluster":
		if r != namespacesResource && a.Namespace != "" {
			return false
		}
	default:
		return false
	}
	if !slices.Contains(rule.Operations, "*") && !slices.Contains(rule.Operations, a.Operation) {
		return false
	}
	if !exactOrWildcard(rule.APIGroups, r.Group) || !exactOrWildcard(rule.APIVersions, r.Version) {
		return false
	}
	for _, rs := range rule.Resources {
		res, sub, _ := strings.Cut(rs, "/")
		if (res == "*" || res == r.Resource) && (sub == "*" || sub == a.Subresource) {
			return true
		}
	}
	return false
}

func (rule Rule) named(name string) bool {
	return len(rule.ResourceNames) == 0 || slices.Contains(rule.ResourceNames, name)
}

// MatchResources is kube's MatchResources: which requests a policy or a
// binding (or, without its rules, a webhook) applies to.
type MatchResources struct {
	NamespaceSelector, ObjectSelector LabelSelector
	ResourceRules, ExcludeRules       []Rule
	// Equivalent matches a request through an equivalent resource (the
	// same objects served in another version or group), as matchPolicy
	// Equivalent does; Exact does not.
	Equivalent bool
}

// ParseMatchResources reads a JSON-shaped MatchResources; nil is none.
func ParseMatchResources(v any) (*MatchResources, error) {
	m, _ := v.(map[string]any)
	if m == nil {
		return nil, nil
	}
	mr := &MatchResources{ResourceRules: ParseRules(m["resourceRules"]), ExcludeRules: ParseRules(m["excludeResourceRules"]),
		Equivalent: str(m, "matchPolicy") != "Exact"}
	var err error
	if mr.NamespaceSelector, err = ParseLabelSelector(m["namespaceSelector"]); err != nil {
		return nil, err
	}
	if mr.ObjectSelector, err = ParseLabelSelector(m["objectSelector"]); err != nil {
		return nil, err
	}
	return mr, nil
}

// Exempt reports whether a request is about the admission configuration
// itself, which policies and webhooks never see (so that they cannot lock
// themselves in).
func Exempt(a *Attributes) bool {
	if a.Kind.Group != "admissionregistration.k8s.io" {
		return false
	}
	switch a.Kind.Kind {
	case "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration", "ValidatingAdmissionPolicy",
		"ValidatingAdmissionPolicyBinding", "MutatingAdmissionPolicy", "MutatingAdmissionPolicyBinding":
		return true
	}
	return false
}

// Match is how a request matched: through its own resource, or an
// equivalent one whose version the request is seen in.
type Match struct {
	Resource meta.GroupVersionResource
	Kind     meta.GroupVersionKind
}

// Matches applies kube's matching: the namespace selector (for
// namespaced requests, and namespaces themselves), the object selector
// (new or old object), the exclusions, then the rules (any request when
// there are none), directly or, with Equivalent, through an equivalent
// resource. A namespace that cannot be read is an error, once the rules
// match.
func (mr *MatchResources) Matches(ctx context.Context, h Host, a *Attributes, ns *NamespaceCache) (bool, Match, error) {
	nsMatch, nsErr := mr.matchNamespace(ctx, a, ns)
	if !nsMatch && nsErr == nil {
		return false, Match{}, nil
	}
	if !mr.ObjectSelector.Empty() && !(a.Object != nil && mr.ObjectSelector.Matches(labelsOf(a.Object)) ||
		a.OldObject != nil && mr.ObjectSelector.Matches(labelsOf(a.OldObject))) {
		return false, Match{}, nil
	}
	if excluded, _, err := mr.matchRules(h, a, mr.ExcludeRules); excluded || err != nil {
		return false, Match{}, err
	}
	m := Match{Resource: a.Resource, Kind: a.Kind}
	if len(mr.ResourceRules) > 0 {
		ok, matched, err := mr.matchRules(h, a, mr.ResourceRules)
		if err != nil || !ok {
			return false, Match{}, err
		}
		m = matched
	}
	if nsErr != nil {
		return false, Match{}, nsErr
	}
	return true, m, nil
}

func (mr *MatchResources) matchRules(h Host, a *Attributes, rules []Rule) (bool, Match, error) {
	for _, r := range rules {
		if r.matches(a, a.Resource) && r.named(a.Name) {
			return true, Match{Resource: a.Resource, Kind: a.Kind}, nil
		}
	}
	if !mr.Equivalent || h == nil || len(rules) == 0 {
		return false, Match{}, nil
	}
	equivalents := h.Equivalents(a.Resource)
	for _, r := range rules {
		for _, eq := range equivalents {
			if eq.Resource == a.Resource || !r.matches(a, eq.Resource) {
				continue
			}
			if eq.Kind.Kind == "" {
				return false, Match{}, fmt.Errorf("unable to convert to %v: unknown kind", eq.Resource)
			}
			if r.named(a.Name) {
				return true, Match{Resource: eq.Resource, Kind: eq.Kind}, nil
			}
		}
	}
	return false, Match{}, nil
}

// NamespaceCache reads each namespace of one request once.
type NamespaceCache struct {
	Host  Host
	read  bool
	obj   map[string]any
	err   error
	label map[string]string
}

// Get is the request's namespace object (nil when it has none or it does
// not exist).
func (c *NamespaceCache) Get(ctx context.Context, name string) (map[string]any, error) {
	if !c.read {
		c.read = true
		c.obj, c.err = c.Host.Namespace(ctx, name)
		if c.obj != nil {
			c.label = labelsOf(c.obj)
		}
	}
	return c.obj, c.err
}

func (mr *MatchResources) matchNamespace(ctx context.Context, a *Attributes, ns *NamespaceCache) (bool, error) {
	if a.Namespace == "" && a.Resource.Resource != "namespaces" {
		return true, nil
	}
	if mr.NamespaceSelector.Empty() {
		return true, nil
	}
	if a.Resource.Resource == "namespaces" && a.Subresource == "" && (a.Operation == "CREATE" || a.Operation == "UPDATE") {
		return mr.NamespaceSelector.Matches(labelsOf(a.Object)), nil
	}
	obj, err := ns.Get(ctx, a.Namespace)
	if err != nil {
		return false, meta.Internal(err)
	}
	if obj == nil {
		return false, meta.NotFound(meta.GroupResource{Resource: "namespaces"}, a.Namespace)
	}
	return mr.NamespaceSelector.Matches(ns.label), nil
}
