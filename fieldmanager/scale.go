package fieldmanager

import (
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The managedFields of a /scale subresource.
//
// kube-apiserver tracks a write through /scale on the autoscaling/v1
// Scale it shows, not on the object behind it: the Scale's managedFields
// are made from the object's, the write is tracked on the Scale (an
// apply merges into it, conflicts are reported against it), and the
// result is carried back to the object (apimachinery's ScaleHandler). The
// translation has its own rules, kept here as kube has them:
//
//   - the Scale shows only the entries that own the object's replica
//     count, each owning .spec.replicas at autoscaling/v1 (so a conflict
//     names "using autoscaling/v1"), with the entry's time;
//   - back on the object, an entry that owned the replica count and is no
//     longer among the Scale's (entries are matched by identity, and the
//     Scale's Update entries are keyed at autoscaling/v1, so an Update
//     entry never matches) loses the replica count, and goes if nothing
//     is left; the Scale's entries that own .spec.replicas come back
//     owning the object's replica count at the endpoint's apiVersion,
//     with the time of the object's entry of the same identity, so
//     usually none (entries written through /scale carry no time);
//   - entries at an apiVersion the kind does not map are dropped.

// ReplicasPaths maps each apiVersion of a kind ("apps/v1") to the field
// holding its desired replica count (["spec", "replicas"]; a custom
// resource's specReplicasPath), nil for a version without a /scale
// subresource.
type ReplicasPaths map[string][]string

// scaleAPIVersion is the Scale's apiVersion, and replicasInScale its
// replica count.
const scaleAPIVersion = "autoscaling/v1"

var replicasInScale = fieldpath.MakePathOrDie("spec", "replicas")

func replicasPath(names []string) fieldpath.Path {
	if names == nil {
		return nil
	}
	p := make(fieldpath.Path, len(names))
	for i := range names {
		p[i] = fieldpath.PathElement{FieldName: &names[i]}
	}
	return p
}

// ScaleManagedFields returns the managedFields of the Scale of an object
// whose metadata.managedFields are parent: the entries that own the
// replica count, owning .spec.replicas at autoscaling/v1. nil when none
// does (the Scale is then untracked: a non-apply write through it records
// nothing). An error means parent does not decode.
func ScaleManagedFields(parent any, paths ReplicasPaths) ([]any, error) {
	mf, err := decodeManaged(parent)
	if err != nil {
		return nil, err
	}
	out := newManaged()
	for key, vs := range mf.fields {
		names, ok := paths[string(vs.APIVersion())]
		if !ok || names == nil || !vs.Set().Has(replicasPath(names)) {
			continue
		}
		out.fields[key] = fieldpath.NewVersionedSet(fieldpath.NewSet(replicasInScale), scaleAPIVersion, vs.Applied())
		out.times[key] = mf.times[key]
	}
	return encodeManaged(out)
}

// ParentManagedFields returns the object's metadata.managedFields after a
// write through its /scale at apiVersion: parent are the object's entries
// before the write, scale the Scale's after it (see the rules above). nil
// when no entry is left. An error means parent or scale does not decode.
func ParentManagedFields(parent, scale any, apiVersion string, paths ReplicasPaths) ([]any, error) {
	pm, err := decodeManaged(parent)
	if err != nil {
		return nil, err
	}
	sm, err := decodeManaged(scale)
	if err != nil {
		return nil, err
	}
	target, ok := paths[apiVersion]
	if !ok || target == nil {
		return nil, fmt.Errorf("fieldmanager: %s has no replicas path", apiVersion)
	}
	out := newManaged()
	for key, vs := range pm.fields {
		names, ok := paths[string(vs.APIVersion())]
		if !ok {
			continue
		}
		path := replicasPath(names)
		_, inScale := sm.fields[key]
		switch {
		case path == nil || !vs.Set().Has(path):
			// Kept; a Scale entry of the same identity replaces it below.
			out.fields[key] = vs
			out.times[key] = pm.times[key]
		case inScale:
			out.fields[key] = vs
			out.times[key] = pm.times[key]
			delete(sm.fields, key)
		default:
			if rest := vs.Set().Difference(fieldpath.NewSet(path)); !rest.Empty() {
				out.fields[key] = fieldpath.NewVersionedSet(rest, vs.APIVersion(), vs.Applied())
				out.times[key] = pm.times[key]
			}
		}
	}
	for key, vs := range sm.fields {
		if !vs.Set().Has(replicasInScale) {
			continue
		}
		out.fields[key] = fieldpath.NewVersionedSet(fieldpath.NewSet(replicasPath(target)), fieldpath.APIVersion(apiVersion), vs.Applied())
		out.times[key] = pm.times[key]
	}
	return encodeManaged(out)
}
