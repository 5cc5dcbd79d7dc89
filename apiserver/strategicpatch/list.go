package strategicpatch

import "reflect"

// objectType is the Go type of a JSON object.
var objectType = reflect.TypeOf(map[string]any(nil))

// elementType returns the Go type shared by the items of the lists, with
// Kubernetes' errors: the first item must not be a list, every item must
// have its type, and there must be at least one item. (Kubernetes panics
// when the first item is null; here null is a type like another.)
func elementType(lists ...[]any) (reflect.Type, error) {
	var first reflect.Type
	seen := false
	for _, l := range lists {
		for _, v := range l {
			t := reflect.TypeOf(v)
			if !seen {
				seen, first = true, t
				if t != nil && t.Kind() == reflect.Slice {
					return nil, ErrNoListOfLists
				}
				continue
			}
			if t != first {
				return nil, errMixedElements(lists)
			}
		}
	}
	if !seen {
		return nil, errNoElements
	}
	return first, nil
}

// mergeList merges a patch list into an original list (owned, changed in
// place) with strategy "merge" or as a "$deleteFromPrimitiveList" list
// (fromDeleteList), and returns the merged list.
//
// With wantView it also returns Kubernetes' view of the original list
// afterwards, which "$setElementOrder" uses to place the items that only
// the server has: Kubernetes merges in place, so the original's slots hold
// the surviving items, then the first added items, then leftovers of the
// deleted ones (see deleteItems).
func mergeList(original, patch []any, item Schema, key string, fromDeleteList, wantView bool) (merged, view []any, err error) {
	if len(original) == 0 && len(patch) == 0 {
		return original, original, nil
	}
	t, err := elementType(original, patch)
	if err != nil {
		return nil, nil, err
	}
	if t != objectType {
		if fromDeleteList {
			return removeItems(original, patch), original, nil
		}
		merged, err := unionItems(original, patch, key)
		return merged, original, err
	}
	// A deletion list of objects merges like a patch list: Kubernetes
	// does not tell them apart.
	if key == "" {
		return nil, nil, errNoMergeKeyForList()
	}
	return mergeObjectList(original, patch, item, key, wantView)
}

// removeItems returns the items of original that are not in toDelete, in
// order.
func removeItems(original, toDelete []any) []any {
	del := newFirstIndex(toDelete)
	out := make([]any, 0, len(original))
	for _, v := range original {
		if del.find(v) < 0 {
			out = append(out, v)
		}
	}
	return out
}

// unionItems merges two lists of primitives as sets: each value once, the
// patch's values in the patch's order, the others where they were (see
// arrange). A list whose schema has a merge key must hold objects: as in
// Kubernetes, its primitives are an error.
func unionItems(original, patch []any, key string) ([]any, error) {
	all := make([]any, 0, len(original)+len(patch))
	seen := newFirstIndex(nil)
	for _, l := range [][]any{original, patch} {
		for _, v := range l {
			if seen.find(v) < 0 {
				seen.add(v)
				all = append(all, v)
			}
		}
	}
	var inPatch, serverOnly []any
	if key == "" {
		inPatch, serverOnly = splitItems(all, patch)
	} else {
		var err error
		if inPatch, serverOnly, err = splitByKey(all, patch, key); err != nil {
			return nil, err
		}
	}
	return arrange(inPatch, serverOnly, patch, original, key, false)
}

// splitItems partitions primitives into those present in by and the others.
func splitItems(items, by []any) (present, others []any) {
	x := newFirstIndex(by)
	present = make([]any, 0, len(items))
	others = make([]any, 0, len(items))
	for _, v := range items {
		if x.find(v) >= 0 {
			present = append(present, v)
		} else {
			others = append(others, v)
		}
	}
	return present, others
}

// mergeObjectList merges lists of objects by merge key.
//
// Patch items carrying "$patch" are directives: "delete" removes every
// original item with the item's merge-key value, "replace" makes the
// other patch items the whole list, "merge" and anything else are errors.
// The other patch items merge into the first original item with their
// merge-key value, or are appended. The result is then ordered (arrange).
func mergeObjectList(original, patch []any, item Schema, key string, wantView bool) (merged, view []any, err error) {
	var deletes []any
	replace := false
	rest := make([]any, 0, len(patch))
	for _, v := range patch {
		p := v.(map[string]any) // elementType checked
		d, ok := p[directiveMarker]
		if !ok {
			rest = append(rest, p)
			continue
		}
		switch d {
		case deleteDirective:
			kv, ok := p[key]
			if !ok {
				return nil, nil, errMissingMergeKey(p, key)
			}
			deletes = append(deletes, kv)
		case replaceDirective:
			// The other "$patch" items are still checked.
			replace = true
		case mergeDirective:
			return nil, nil, errMergeDirectiveInList
		default:
			return nil, nil, errUnknownDirective(d, p)
		}
	}

	survivors, view := deleteItems(original, deletes, key, wantView)

	if replace {
		items := copyList(rest)
		inPatch, serverOnly, err := splitByKey(items, nil, key)
		if err != nil {
			return nil, nil, err
		}
		out, err := arrange(inPatch, serverOnly, nil, items, key, true)
		return out, view, err
	}

	merged = survivors
	keys := make([]any, len(merged))
	for i, v := range merged {
		keys[i] = keyOf(v, key)
	}
	index := newFirstIndex(keys)
	added := 0
	for _, v := range rest {
		p := v.(map[string]any)
		kv, ok := p[key]
		if !ok {
			return nil, nil, errMissingMergeKey(p, key)
		}
		if i := index.find(kv); i >= 0 {
			m, err := mergeObject(merged[i].(map[string]any), p, item)
			if err != nil {
				return nil, nil, err
			}
			merged[i] = m
			// Merging can remove the key (a patch item whose key is null),
			// or, for an object as key, change it.
			if nk := keyOf(m, key); nk == absent || !equal(nk, kv) {
				index.update(i, nk)
			}
			continue
		}
		c := copyMap(p)
		if wantView && len(survivors)+added < len(view) {
			view[len(survivors)+added] = c
		}
		added++
		merged = append(merged, c)
		index.add(kv)
	}

	inPatch, serverOnly, err := splitByKey(merged, rest, key)
	if err != nil {
		return nil, nil, err
	}
	out, err := arrange(inPatch, serverOnly, rest, survivors, key, true)
	return out, view, err
}

// keyOf returns an item's merge-key value, or absent.
func keyOf(v any, key string) any {
	if m, ok := v.(map[string]any); ok {
		if kv, ok := m[key]; ok {
			return kv
		}
	}
	return absent
}

// deleteItems removes from original every item whose merge-key value is in
// deletes, and returns the survivors in order.
//
// With wantView it also returns what Kubernetes' in-place deletion leaves in
// the original's slots: Kubernetes deletes by shifting the tail left by one,
// once per deleted item in the order of the deletion directives, so the
// survivors fill the first slots, and the slot freed by each deletion keeps
// the item that was last before it.
func deleteItems(original, deletes []any, key string, wantView bool) (survivors, view []any) {
	if len(deletes) == 0 {
		return original, original
	}
	keys := make([]any, len(original))
	for i, v := range original {
		keys[i] = keyOf(v, key)
	}
	// positions of each merge-key value, ascending.
	byKey := map[any][]int{}
	for i, k := range keys {
		if k != absent {
			b := bucketOf(k)
			byKey[b] = append(byKey[b], i)
		}
	}
	// take returns, once, the positions of the items whose key is v.
	take := func(v any) []int {
		b := bucketOf(v)
		var ps, others []int
		for _, i := range byKey[b] {
			if equal(keys[i], v) {
				ps = append(ps, i)
			} else {
				others = append(others, i)
			}
		}
		byKey[b] = others
		return ps
	}

	alive := make([]bool, len(original))
	for i := range alive {
		alive[i] = true
	}
	last := len(original) - 1
	var freed []any // freed[j]: what stays in slot len(original)-1-j
	for _, v := range deletes {
		for _, p := range take(v) {
			if wantView {
				freed = append(freed, original[last])
			}
			alive[p] = false
			for last >= 0 && !alive[last] {
				last--
			}
		}
	}

	survivors = make([]any, 0, len(original))
	for i, v := range original {
		if alive[i] {
			survivors = append(survivors, v)
		}
	}
	if !wantView {
		return survivors, nil
	}
	view = make([]any, len(original))
	copy(view, survivors)
	for j, v := range freed {
		view[len(original)-1-j] = v
	}
	return survivors, view
}
