package flowcontrol

import (
	"cmp"
	"strings"

	"github.com/kapi-dev/kapi/apiserver/authn"
	"github.com/kapi-dev/kapi/apiserver/requestinfo"
	"github.com/kapi-dev/kapi/meta"
)

// digest is what classification reads of a request.
type digest struct {
	info *requestinfo.Info
	user *authn.User
	// verb is the request info's, or for a non-resource request the
	// lower-cased method, as kube's request info has it.
	verb string
	// resource is "resource" or "resource/subresource".
	resource string
	// path is the request's URL path, for non-resource rules.
	path string
}

func newDigest(info *requestinfo.Info, user *authn.User, method, path string) digest {
	d := digest{info: info, user: user, verb: info.Verb, resource: info.Resource, path: path}
	if !info.IsResource {
		d.verb = strings.ToLower(method)
	}
	if info.Subresource != "" {
		d.resource = info.Resource + "/" + info.Subresource
	}
	return d
}

// matches reports whether a request matches a flow schema: some rule
// matches both its user and what it asks for.
func (fs *FlowSchema) matches(d *digest) bool {
	for i := range fs.Spec.Rules {
		if matchesRule(d, &fs.Spec.Rules[i]) {
			return true
		}
	}
	return false
}

func matchesRule(d *digest, rule *PolicyRulesWithSubjects) bool {
	if !matchesASubject(d.user, rule.Subjects) {
		return false
	}
	if d.info.IsResource {
		for i := range rule.ResourceRules {
			if matchesResourceRule(d, &rule.ResourceRules[i]) {
				return true
			}
		}
		return false
	}
	for i := range rule.NonResourceRules {
		if matchesNonResourceRule(d, &rule.NonResourceRules[i]) {
			return true
		}
	}
	return false
}

func matchesASubject(u *authn.User, subjects []Subject) bool {
	for i := range subjects {
		if matchesSubject(u, &subjects[i]) {
			return true
		}
	}
	return false
}

const serviceAccountPrefix = "system:serviceaccount:"

func matchesSubject(u *authn.User, s *Subject) bool {
	switch s.Kind {
	case SubjectKindUser:
		return s.User != nil && (s.User.Name == NameAll || s.User.Name == u.Name)
	case SubjectKindGroup:
		if s.Group == nil {
			return false
		}
		return s.Group.Name == "*" || u.InGroup(s.Group.Name)
	case SubjectKindServiceAccount:
		sa := s.ServiceAccount
		if sa == nil {
			return false
		}
		rest, ok := strings.CutPrefix(u.Name, serviceAccountPrefix)
		if !ok {
			return false
		}
		rest, ok = strings.CutPrefix(rest, sa.Namespace)
		if !ok || !strings.HasPrefix(rest, ":") {
			return false
		}
		return sa.Name == NameAll || rest[1:] == sa.Name
	}
	return false
}

func matchesResourceRule(d *digest, r *ResourcePolicyRule) bool {
	ri := d.info
	if !containsOrAll(d.verb, r.Verbs, VerbAll) {
		return false
	}
	if !containsOrAll(d.resource, r.Resources, ResourceAll) || !containsOrAll(ri.Group, r.APIGroups, APIGroupAll) {
		return false
	}
	if ri.Namespace == "" {
		return r.ClusterScope
	}
	return containsOrAll(ri.Namespace, r.Namespaces, NamespaceEvery)
}

func matchesNonResourceRule(d *digest, r *NonResourcePolicyRule) bool {
	if !containsOrAll(d.verb, r.Verbs, VerbAll) {
		return false
	}
	for _, u := range r.NonResourceURLs {
		if u == NonResourceAll || u == d.path {
			return true
		}
		prefix := strings.TrimSuffix(u, "*")
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		if strings.HasPrefix(d.path, prefix) {
			return true
		}
	}
	return false
}

// containsOrAll reports whether list is exactly [wildcard] or contains x
// (validation keeps a wildcard alone in its list).
func containsOrAll(x string, list []string, wildcard string) bool {
	if len(list) == 1 && list[0] == wildcard {
		return true
	}
	for _, y := range list {
		if x == y {
			return true
		}
	}
	return false
}

// distinguisher is a request's flow within its schema: its user's name or
// its namespace, as the schema says.
func distinguisher(d *digest, m *FlowDistinguisherMethod) string {
	if m == nil {
		return ""
	}
	switch m.Type {
	case FlowDistinguisherMethodByUserType:
		return d.user.Name
	case FlowDistinguisherMethodByNamespaceType:
		return d.info.Namespace
	}
	return ""
}

// CompareFlowSchemas orders flow schemas as requests are matched against
// them, and as kube lists them in tables: by matchingPrecedence, then by
// name.
func CompareFlowSchemas(a, b meta.Object) int {
	pa, _ := meta.NestedField(a, "spec", "matchingPrecedence")
	pb, _ := meta.NestedField(b, "spec", "matchingPrecedence")
	na, _ := meta.AsInt64(pa)
	nb, _ := meta.AsInt64(pb)
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	return strings.Compare(a.Name(), b.Name())
}
