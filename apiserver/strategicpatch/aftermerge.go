package strategicpatch

import "strings"

// AfterMerge returns a copy of patch as Kubernetes' strategic merge leaves
// the patch it merged into original: its merge changes the patch in place
// (Go maps are not copied), and kube-apiserver quotes the patch in that
// state when the patched object fails field validation. At each object
// the merge reached it deletes a "$patch": replace directive, the
// "$retainKeys" directive, each "$setElementOrder/<list>" directive with
// its list, the nulls of values it added or put in place of another type,
// and the nested objects of those values that carry a "$patch" directive.
// Lists are not followed (the items of merged lists of objects are
// changed in place too).
//
// AfterMerge reads original and patch and changes neither. schema is as
// for [Apply].
func AfterMerge(original, patch map[string]any, schema Schema) map[string]any {
	left := copyMap(patch)
	afterMerge(original, left, schema)
	return left
}

func afterMerge(original, patch map[string]any, s Schema) {
	if d, ok := patch[directiveMarker]; ok {
		if d == replaceDirective {
			delete(patch, directiveMarker)
		}
		return
	}
	delete(patch, retainKeysDirective)
	for k := range patch {
		if list, ok := strings.CutPrefix(k, setElementOrderPrefix+"/"); ok {
			delete(patch, k)
			delete(patch, list) // merged with its order

		}
	}
	for k, pv := range patch {
		if pv == nil || strings.HasPrefix(k, deleteFromListPrefix) {
			continue
		}
		ov, inOriginal := original[k]
		om, oIsMap := ov.(map[string]any)
		pm, pIsMap := pv.(map[string]any)
		switch {
		case !inOriginal || !sameType(ov, pv):
			dropNullsInPlace(pv)
			dropDirectivesInPlace(pv)
		case oIsMap && pIsMap:
			if strategy, err := strategyOf(fieldSchema(s, k)); err == nil && strategy != replaceDirective {
				afterMerge(om, pm, fieldSchema(s, k))
			}
		}
	}
}

// dropNullsInPlace deletes the null members of the objects in v, as
// Kubernetes does to a value it adds when unmatched nulls are ignored.
func dropNullsInPlace(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
			} else {
				dropNullsInPlace(e)
			}
		}
	case []any:
		for _, e := range v {
			dropNullsInPlace(e)
		}
	}
}

// dropDirectivesInPlace deletes from the objects in v the members that are
// objects with a "$patch" directive; false when v itself is one. Lists
// are left as they are (Kubernetes copies them).
func dropDirectivesInPlace(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return true
	}
	if _, has := m[directiveMarker]; has {
		return false
	}
	for k, e := range m {
		if !dropDirectivesInPlace(e) {
			delete(m, k)
		}
	}
	return true
}
