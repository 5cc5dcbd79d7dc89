package flowcontrol

import (
	"maps"

	"github.com/kapi-dev/kapi/meta"
)

// The configuration kinds are stored as flowcontrol.apiserver.k8s.io/v1
// and may also be served as v1beta3 (kube 1.33 serves v1 only; v1beta3 is
// what the seed documents). The two versions differ in one field: v1's
// nominalConcurrencyShares is optional (unset means 30, 0 is a level that
// only borrows), v1beta3's is a plain integer (0 means 30). v1beta3 keeps a
// 0 with the annotation flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares,
// which exists only in v1beta3: reading a level with 0 shares as v1beta3
// adds it, writing v1beta3 drops it.

// ConvertToV1 converts a defaulted object of either kind from its request
// version to v1, the storage version. It returns obj itself when there is
// nothing to convert, else a converted copy (obj is left alone).
func ConvertToV1(obj meta.Object) meta.Object {
	if obj.APIVersion() != Group+"/v1beta3" {
		return obj
	}
	out := shallowWithAPIVersion(obj, Group+"/v1")
	if obj.Kind() == "PriorityLevelConfiguration" {
		if ann, ok := meta.AsMap(obj.Metadata()["annotations"]); ok {
			if _, has := ann[PreserveZeroConcurrencySharesKey]; has {
				md := maps.Clone(obj.Metadata())
				ann = maps.Clone(ann)
				delete(ann, PreserveZeroConcurrencySharesKey)
				if len(ann) == 0 {
					delete(md, "annotations")
				} else {
					md["annotations"] = ann
				}
				out["metadata"] = md
			}
		}
		// v1beta3's shares are never unset: an absent field is a 0.
		if spec, ok := meta.AsMap(obj["spec"]); ok {
			if limited, ok := meta.AsMap(spec["limited"]); ok {
				if _, set := intField(limited, "nominalConcurrencyShares"); !set {
					spec, limited = maps.Clone(spec), maps.Clone(limited)
					limited["nominalConcurrencyShares"] = int64(0)
					spec["limited"] = limited
					out["spec"] = spec
				}
			}
		}
	}
	return out
}

// ConvertFromV1 converts a stored (v1) object of either kind to version
// ("v1" or "v1beta3"). It never changes obj; it returns obj itself when
// there is nothing to convert.
func ConvertFromV1(obj meta.Object, version string) meta.Object {
	if version != "v1beta3" {
		return obj
	}
	out := shallowWithAPIVersion(obj, Group+"/v1beta3")
	if obj.Kind() != "PriorityLevelConfiguration" {
		return out
	}
	spec, _ := meta.AsMap(obj["spec"])
	limited, _ := meta.AsMap(spec["limited"])
	if limited == nil {
		return out
	}
	ncs, set := intField(limited, "nominalConcurrencyShares")
	if set && ncs != 0 {
		return out
	}
	if !set {
		spec, limited = maps.Clone(spec), maps.Clone(limited)
		limited["nominalConcurrencyShares"] = int64(0)
		spec["limited"] = limited
		out["spec"] = spec
	}
	md := maps.Clone(obj.Metadata())
	if md == nil {
		md = map[string]any{}
	}
	ann, _ := meta.AsMap(md["annotations"])
	if _, has := ann[PreserveZeroConcurrencySharesKey]; !has {
		ann = maps.Clone(ann)
		if ann == nil {
			ann = map[string]any{}
		}
		ann[PreserveZeroConcurrencySharesKey] = ""
		md["annotations"] = ann
	}
	out["metadata"] = md
	return out
}

func shallowWithAPIVersion(obj meta.Object, apiVersion string) meta.Object {
	out := maps.Clone(obj)
	out["apiVersion"] = apiVersion
	return out
}

// ServeAsV1beta3 is ConvertFromV1 to v1beta3: how a v1beta3
// registration's stored v1 objects are read (apiserver.Storage.FromStorage;
// ConvertToV1 is its ToStorage).
func ServeAsV1beta3(obj meta.Object) meta.Object { return ConvertFromV1(obj, "v1beta3") }
