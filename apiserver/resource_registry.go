package apiserver

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kapi-dev/kapi/meta"
)

// registry is an immutable index of the served resource types: the
// configured ones and those of the established CRDs. The server swaps
// whole registries atomically, so a request sees one consistent set even
// while types are added or removed. A CRD write derives the next registry
// from the current one, changing that CRD's types only (withCRD); the
// groups that discovery and OpenAPI read are built on their first use.
type registry struct {
	byGVR map[meta.GroupVersionResource]*Resource
	// owner says who serves each group-resource: "" for a configured type,
	// the CRD's name for a custom resource. The first to claim one keeps
	// it.
	owner map[meta.GroupResource]string
	// static are the configured types in registration order; crds the
	// types of each established CRD, in CRD name order.
	static []*Resource
	crds   []crdTypes

	crdGVsOnce sync.Once
	crdGVs     []meta.GroupVersion

	groupsOnce sync.Once
	// groupList in discovery order: the core group (if served) first,
	// then the others in registration order (configured types, then CRDs
	// by name); versions in registration order, the first being preferred.
	// byGroup indexes it.
	groupList []*apiGroup
	byGroup   map[string]*apiGroup

	openapi openAPIDocs
}

// crdTypes are the registrations serving one CRD.
type crdTypes struct {
	name      string
	resources []*Resource
}

type apiGroup struct {
	name     string
	versions []*apiVersion
}

type apiVersion struct {
	version   string
	resources []*Resource
}

// newRegistry indexes the configured types and the CRDs' (in name order),
// all with their defaults (Resource.withDefaults). The registry keeps the
// pointers, so a type's runtime state (its field manager) lives as long as
// its registration. A CRD whose group-resource is already served is left
// out; two configured types with one group, version and resource are an
// error.
func newRegistry(static []*Resource, crds []crdTypes) (*registry, error) {
	reg := &registry{byGVR: make(map[meta.GroupVersionResource]*Resource, len(static)),
		owner: make(map[meta.GroupResource]string, len(static)), static: static}
	for _, r := range static {
		gvr := meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Plural}
		if _, dup := reg.byGVR[gvr]; dup {
			return nil, fmt.Errorf("apiserver: resource %s/%s %s registered twice", r.Group, r.Version, r.Plural)
		}
		reg.byGVR[gvr] = r
		reg.owner[r.GroupResource()] = ""
		if len(r.AsSent) > 0 {
			asSentFields.Store(r.APIVersion()+" "+r.Kind, r.AsSent)
		}
	}
	for _, c := range crds {
		if reg.claim(c) {
			reg.crds = append(reg.crds, c)
		}
	}
	return reg, nil
}

// claim adds a CRD's types unless another serves its group-resource.
func (reg *registry) claim(c crdTypes) bool {
	for _, r := range c.resources {
		if owner, taken := reg.owner[r.GroupResource()]; taken && owner != c.name {
			return false
		}
	}
	for _, r := range c.resources {
		reg.byGVR[meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Plural}] = r
		reg.owner[r.GroupResource()] = c.name
	}
	return true
}

// withCRD returns a registry like reg in which the CRD name serves
// resources (none: it serves nothing). It copies reg's indexes once and
// changes only that CRD's entries, so a CRD write costs the same however
// many CRDs are served.
func (reg *registry) withCRD(name string, resources []*Resource) *registry {
	next := &registry{byGVR: maps.Clone(reg.byGVR), owner: maps.Clone(reg.owner), static: reg.static,
		crds: slices.Clone(reg.crds)}
	i, found := slices.BinarySearchFunc(next.crds, name, func(c crdTypes, name string) int { return strings.Compare(c.name, name) })
	if found {
		for _, r := range next.crds[i].resources {
			delete(next.byGVR, meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Plural})
			if next.owner[r.GroupResource()] == name {
				delete(next.owner, r.GroupResource())
			}
		}
		next.crds = slices.Delete(next.crds, i, i+1)
	}
	if c := (crdTypes{name, resources}); len(resources) > 0 && next.claim(c) {
		next.crds = slices.Insert(next.crds, i, c)
	}
	return next
}

// crdGroupVersions are the group versions the CRDs' types are served in,
// sorted and without repeats.
func (reg *registry) crdGroupVersions() []meta.GroupVersion {
	reg.crdGVsOnce.Do(func() {
		for _, c := range reg.crds {
			for _, r := range c.resources {
				reg.crdGVs = append(reg.crdGVs, meta.GroupVersion{Group: r.Group, Version: r.Version})
			}
		}
		slices.SortFunc(reg.crdGVs, func(a, b meta.GroupVersion) int {
			return cmp.Or(strings.Compare(a.Group, b.Group), strings.Compare(a.Version, b.Version))
		})
		reg.crdGVs = slices.Compact(reg.crdGVs)
	})
	return reg.crdGVs
}

// groups are the served API groups in discovery order.
func (reg *registry) groups() []*apiGroup {
	reg.groupsOnce.Do(func() {
		reg.byGroup = map[string]*apiGroup{}
		add := func(r *Resource) {
			g := reg.byGroup[r.Group]
			if g == nil {
				g = &apiGroup{name: r.Group}
				reg.byGroup[r.Group] = g
				if r.Group == "" {
					reg.groupList = append([]*apiGroup{g}, reg.groupList...)
				} else {
					reg.groupList = append(reg.groupList, g)
				}
			}
			v := g.version(r.Version)
			if v == nil {
				v = &apiVersion{version: r.Version}
				g.versions = append(g.versions, v)
			}
			v.resources = append(v.resources, r)
		}
		for _, r := range reg.static {
			add(r)
		}
		for _, c := range reg.crds {
			for _, r := range c.resources {
				add(r)
			}
		}
		// A group served by CRDs lists its versions by kube's version
		// priority (v2 before v1, GA before beta before alpha), and
		// prefers the first, as kube's CRD discovery does.
		for _, g := range reg.groupList {
			if slices.ContainsFunc(g.versions, func(v *apiVersion) bool { return v.resources[0].customResource }) {
				slices.SortStableFunc(g.versions, func(a, b *apiVersion) int { return compareKubeAwareVersions(b.version, a.version) })
			}
		}
	})
	return reg.groupList
}

// lookup finds a served resource type; nil when none.
func (reg *registry) lookup(group, version, plural string) *Resource {
	return reg.byGVR[meta.GroupVersionResource{Group: group, Version: version, Resource: plural}]
}

// group finds a served API group; nil when none.
func (reg *registry) group(name string) *apiGroup {
	reg.groups()
	return reg.byGroup[name]
}

func (g *apiGroup) version(v string) *apiVersion {
	for _, ver := range g.versions {
		if ver.version == v {
			return ver
		}
	}
	return nil
}

// compareKubeAwareVersions orders versions as kube's version priority
// does: positive when a comes before b. Versions of the form
// v<major>[alpha|beta<minor>] come first, GA before beta before alpha,
// higher numbers first; others follow, in lexical order.
func compareKubeAwareVersions(a, b string) int {
	ma, ka, na, oka := parseKubeVersion(a)
	mb, kb, nb, okb := parseKubeVersion(b)
	switch {
	case oka && !okb:
		return 1
	case !oka && okb:
		return -1
	case !oka && !okb:
		return strings.Compare(b, a)
	case ka != kb:
		return ka - kb
	case ma != mb:
		return cmpInt(ma, mb)
	}
	return cmpInt(na, nb)
}

func cmpInt(a, b int) int {
	switch {
	case a > b:
		return 1
	case a < b:
		return -1
	}
	return 0
}

// parseKubeVersion reads v<major>[alpha|beta<minor>]: kind is 2 for GA,
// 1 for beta, 0 for alpha.
func parseKubeVersion(v string) (major, kind, minor int, ok bool) {
	if len(v) < 2 || v[0] != 'v' || v[1] < '0' || v[1] > '9' {
		return 0, 0, 0, false
	}
	i := 1
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	major, err := strconv.Atoi(v[1:i])
	if err != nil || i == 1 {
		return 0, 0, 0, false
	}
	if i == len(v) {
		return major, 2, 0, true
	}
	rest := v[i:]
	switch {
	case strings.HasPrefix(rest, "beta"):
		kind, rest = 1, rest[4:]
	case strings.HasPrefix(rest, "alpha"):
		kind, rest = 0, rest[5:]
	default:
		return 0, 0, 0, false
	}
	if rest == "" || rest[0] < '0' || rest[0] > '9' {
		return 0, 0, 0, false
	}
	minor, err = strconv.Atoi(rest)
	if err != nil || strings.ContainsAny(rest, "+-") {
		return 0, 0, 0, false
	}
	return major, kind, minor, true
}
