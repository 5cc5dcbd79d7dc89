package rbac

import (
	"sync"

	"github.com/kapi-dev/kapi/apiserver/authz"
)

// decisions remembers the decisions made on one state of the RBAC objects
// (a snapshot), by the attributes RBAC reads: the user's name and groups and
// what the request asks for. A snapshot whose RBAC objects change gets a new,
// empty set (see source.build), so a decision is never older than the
// snapshot it is read from, and every decision reads the current snapshot
// first: a remembered decision sees every RBAC write that finished before
// the request, as an evaluated one does. A client repeating a request, or
// many clients of one user, pays one map lookup instead of walking its
// bindings and their rules.
type decisions struct {
	mu sync.RWMutex
	m  map[decisionKey]decided
}

// decisionsMax bounds the decisions remembered per snapshot; beyond it
// decisions are evaluated every time until the RBAC objects change.
const decisionsMax = 8192

// decisionGroups is the number of groups a user may have for its
// decisions to be remembered (kube's users have one to four).
const decisionGroups = 4

// decisionKey is everything Authorize reads of a request.
type decisionKey struct {
	user                                                   string
	groups                                                 [decisionGroups]string
	nGroups                                                int
	resourceRequest                                        bool
	verb, apiGroup, resource, subresource, namespace, name string
	path                                                   string
}

type decided struct {
	decision authz.Decision
	reason   string
}

func newDecisions() *decisions { return &decisions{m: map[decisionKey]decided{}} }

// keyOf returns the key of attrs, false when its user has too many groups
// to be remembered.
func keyOf(attrs *authz.Attributes) (decisionKey, bool) {
	u := attrs.User
	if len(u.Groups) > decisionGroups {
		return decisionKey{}, false
	}
	k := decisionKey{user: u.Name, nGroups: len(u.Groups), resourceRequest: attrs.ResourceRequest, verb: attrs.Verb}
	copy(k.groups[:], u.Groups)
	if attrs.ResourceRequest {
		k.apiGroup, k.resource, k.subresource, k.namespace, k.name = attrs.APIGroup, attrs.Resource, attrs.Subresource, attrs.Namespace, attrs.Name
	} else {
		k.path = attrs.Path
	}
	return k, true
}

func (d *decisions) get(k *decisionKey) (decided, bool) {
	d.mu.RLock()
	v, ok := d.m[*k]
	d.mu.RUnlock()
	return v, ok
}

func (d *decisions) put(k *decisionKey, v decided) {
	d.mu.Lock()
	if len(d.m) < decisionsMax {
		d.m[*k] = v
	}
	d.mu.Unlock()
}
