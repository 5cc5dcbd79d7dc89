package apiserver

import (
	"fmt"
	"sync"

	"github.com/kapi-dev/kapi/meta"
)

// registry is an immutable index of the served resource types. The server
// swaps whole registries atomically, so a request sees one consistent set
// even while types are added or removed. A CRD write builds a new one, so
// building it costs one map of the types; the groups discovery and OpenAPI
// read are built on their first use.
type registry struct {
	byGVR map[meta.GroupVersionResource]*Resource
	// resources in registration order.
	resources []*Resource

	groupsOnce sync.Once
	// groupList in discovery order: the core group (if served) first,
	// then the others in registration order; versions in registration
	// order, the first being preferred. byGroup indexes it.
	groupList []*apiGroup
	byGroup   map[string]*apiGroup

	openapi openAPIDocs
}

type apiGroup struct {
	name     string
	versions []*apiVersion
}

type apiVersion struct {
	version   string
	resources []*Resource
}

// newRegistry indexes resources, which must already have their defaults
// (Resource.withDefaults); the registry keeps the pointers, so a type's
// runtime state (its field manager) lives as long as its registration.
func newRegistry(resources []*Resource) (*registry, error) {
	reg := &registry{byGVR: make(map[meta.GroupVersionResource]*Resource, len(resources)), resources: resources}
	for _, r := range resources {
		gvr := meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Plural}
		if _, dup := reg.byGVR[gvr]; dup {
			return nil, fmt.Errorf("apiserver: resource %s/%s %s registered twice", r.Group, r.Version, r.Plural)
		}
		reg.byGVR[gvr] = r
	}
	return reg, nil
}

// groups are the served API groups in discovery order.
func (reg *registry) groups() []*apiGroup {
	reg.groupsOnce.Do(func() {
		reg.byGroup = map[string]*apiGroup{}
		for _, r := range reg.resources {
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
