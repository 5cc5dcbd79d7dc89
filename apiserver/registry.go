package apiserver

import (
	"fmt"

	"github.com/kapi-dev/kapi/meta"
)

// registry is an immutable index of the served resource types. The server
// swaps whole registries atomically, so a request sees one consistent set
// even while types are added or removed.
type registry struct {
	byGVR map[meta.GroupVersionResource]*Resource
	// groups in discovery order: the core group (if served) first, then the
	// others in registration order; versions in registration order, the
	// first being preferred.
	groups []*apiGroup

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

func newRegistry(resources []Resource) (*registry, error) {
	reg := &registry{byGVR: map[meta.GroupVersionResource]*Resource{}}
	for _, r := range resources {
		r, err := r.withDefaults()
		if err != nil {
			return nil, err
		}
		gvr := meta.GroupVersionResource{Group: r.Group, Version: r.Version, Resource: r.Plural}
		if _, dup := reg.byGVR[gvr]; dup {
			return nil, fmt.Errorf("apiserver: resource %s/%s %s registered twice", r.Group, r.Version, r.Plural)
		}
		res := &r
		reg.byGVR[gvr] = res
		reg.versionFor(r.Group, r.Version).resources = append(reg.versionFor(r.Group, r.Version).resources, res)
	}
	return reg, nil
}

func (reg *registry) versionFor(group, version string) *apiVersion {
	var g *apiGroup
	for _, existing := range reg.groups {
		if existing.name == group {
			g = existing
		}
	}
	if g == nil {
		g = &apiGroup{name: group}
		if group == "" {
			reg.groups = append([]*apiGroup{g}, reg.groups...)
		} else {
			reg.groups = append(reg.groups, g)
		}
	}
	for _, v := range g.versions {
		if v.version == version {
			return v
		}
	}
	v := &apiVersion{version: version}
	g.versions = append(g.versions, v)
	return v
}

// lookup finds a served resource type; nil when none.
func (reg *registry) lookup(group, version, plural string) *Resource {
	return reg.byGVR[meta.GroupVersionResource{Group: group, Version: version, Resource: plural}]
}

// group finds a served API group; nil when none.
func (reg *registry) group(name string) *apiGroup {
	for _, g := range reg.groups {
		if g.name == name {
			return g
		}
	}
	return nil
}

func (g *apiGroup) version(v string) *apiVersion {
	for _, ver := range g.versions {
		if ver.version == v {
			return ver
		}
	}
	return nil
}
