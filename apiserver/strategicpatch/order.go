package strategicpatch

import "sort"

// This file holds the ordering rules of merged lists and the
// "$setElementOrder/<list>" directive. The rules are Kubernetes' (design
// proposal "preserve order in strategic merge patch"): the order of
// "$setElementOrder" wins over the order of the patch list, which wins over
// the order of the live list. In detail, a merged list is split into the
// items the patch (or the "$setElementOrder" list) names and the items
// only the server has; each part is sorted by its own reference order; then
// the server-only items are slotted in among the patch items where the live
// list had them (arrange).

// applyElementOrder applies the directive "$setElementOrder/<name>" found
// under key dkey: it merges the list name of the patch (if any) into the
// original's, then orders the result.
func applyElementOrder(original, patch map[string]any, dkey string, s Schema, done map[string]bool) error {
	done[dkey] = true
	order, ok := patch[dkey].([]any)
	if !ok {
		return errWrongType(listTypeName, patch[dkey])
	}
	name, err := directiveField(dkey, setElementOrderPrefix, ErrBadPatchFormatForSetElementOrderList)
	if err != nil {
		return err
	}

	ov, inOriginal := original[name]
	pv, inPatch := patch[name]
	if done[name] {
		inPatch = false
	}
	var ol, pl []any
	if inOriginal {
		if ol, ok = ov.([]any); !ok {
			return errWrongType(listTypeName, ov)
		}
	}
	if inPatch {
		if pl, ok = pv.([]any); !ok {
			return errWrongType(listTypeName, pv)
		}
	}
	fs := fieldSchema(s, name)
	strategy, err := strategyOf(fs)
	if err != nil {
		return err
	}
	key := mergeKeyOf(fs)
	if err := checkOrder(pl, order, key); err != nil {
		return err
	}

	var merged []any
	view := ol
	switch {
	case inOriginal && !inPatch:
		merged = ol
	case !inOriginal && inPatch:
		// A new list: the patch list without "$patch" objects (nulls stay).
		c, _ := cleanPatchValue(pl, false)
		merged = c.([]any)
	case inOriginal && inPatch:
		if strategy == mergeDirective {
			merged, view, err = mergeList(ol, pl, itemSchema(fs), key, false, true)
			if err != nil {
				return err
			}
		} else {
			merged = copyList(pl)
		}
	default:
		return nil
	}

	var named, serverOnly []any
	if key == "" {
		named, serverOnly = splitItems(merged, order)
	} else if named, serverOnly, err = splitByKey(merged, order, key); err != nil {
		return err
	}
	t, err := elementType(view, pl)
	if err != nil {
		return err
	}
	out, err := arrange(named, serverOnly, order, view, key, t == objectType)
	if err != nil {
		return err
	}
	original[name] = out
	done[name] = true
	return nil
}

// checkOrder checks that the patch list's items come in the order of the
// "$setElementOrder" list, ignoring "$patch" items: each must match a later
// element of the order list (by merge key, or by value for primitives).
func checkOrder(patchList, order []any, key string) error {
	if len(order) == 0 || len(patchList) == 0 {
		return nil
	}
	items := patchList
	if key != "" {
		items = make([]any, 0, len(patchList))
		for _, v := range patchList {
			m, ok := v.(map[string]any)
			if !ok {
				return errWrongType(mapTypeName, v)
			}
			if d, ok := m[directiveMarker]; !ok || d != deleteDirective {
				items = append(items, v)
			}
		}
	}
	i, j := 0, 0
	for i < len(items) && j < len(order) {
		if m, ok := items[i].(map[string]any); ok {
			if _, ok := m[directiveMarker]; ok {
				i++
				continue
			}
		}
		same, err := sameItem(items[i], order[j], key)
		if err != nil {
			return err
		}
		if same {
			i++
		}
		j++
	}
	if i < len(items) && j >= len(order) {
		return errOrderMismatch(patchList, order)
	}
	return nil
}

// sameItem reports whether two items are the same: equal primitives, or
// objects with equal merge-key values.
func sameItem(a, b any, key string) (bool, error) {
	if key == "" {
		return equal(a, b), nil
	}
	am, ok := a.(map[string]any)
	if !ok {
		return false, errWrongType(mapTypeName, a)
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false, errWrongType(mapTypeName, b)
	}
	ak, ok := am[key]
	if !ok {
		return false, errMissingMergeKey(am, key)
	}
	bk, ok := bm[key]
	if !ok {
		return false, errMissingMergeKey(bm, key)
	}
	return equal(ak, bk), nil
}

// splitByKey partitions objects into those whose merge-key value an object
// of by has, and the others. Every item must be an object with the merge
// key; by is searched as Kubernetes searches it, from the start, failing at
// the first item that is not an object.
func splitByKey(items, by []any, key string) (present, others []any, err error) {
	badAt := -1
	keys := make([]any, len(by))
	for i, v := range by {
		m, ok := v.(map[string]any)
		if !ok {
			if badAt < 0 {
				badAt = i
			}
			keys[i] = absent
			continue
		}
		keys[i] = keyOf(m, key)
	}
	index := newFirstIndex(keys)
	present = make([]any, 0, len(items))
	others = make([]any, 0, len(items))
	for _, v := range items {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, nil, errWrongType(mapTypeName, v)
		}
		kv, ok := m[key]
		if !ok {
			return nil, nil, errMissingMergeKey(m, key)
		}
		i := index.find(kv)
		if badAt >= 0 && (i < 0 || badAt < i) {
			return nil, nil, errNotAMap(badAt)
		}
		if i >= 0 {
			present = append(present, v)
		} else {
			others = append(others, v)
		}
	}
	return present, others, nil
}

// arrange orders a merged list: named (the items the patch names) sorted
// by patchOrder, serverOnly sorted by serverOrder (the live list), then
// merged: a server-only item goes before a named item when the live list
// has both and has it first; otherwise the named item goes first. For
// lists of objects (objects) items are identified by their merge key and
// must all have it, in both lists and their orders.
func arrange(named, serverOnly, patchOrder, serverOrder []any, key string, objects bool) ([]any, error) {
	named, _, err := sortByOrder(named, patchOrder, key, objects)
	if err != nil {
		return nil, err
	}
	serverOnly, live, err := sortByOrder(serverOnly, serverOrder, key, objects)
	if err != nil {
		return nil, err
	}

	out := make([]any, 0, len(named)+len(serverOnly))
	pos := func(v any) int { return live.find(identity(v, key, objects)) }
	i, j := 0, 0
	for i < len(serverOnly) || j < len(named) {
		switch {
		case i >= len(serverOnly):
			out = append(out, named[j])
			j++
		case j >= len(named):
			out = append(out, serverOnly[i])
			i++
		default:
			pi, pj := pos(serverOnly[i]), pos(named[j])
			if pi >= 0 && pj >= 0 && pi < pj {
				out = append(out, serverOnly[i])
				i++
			} else {
				out = append(out, named[j])
				j++
			}
		}
	}
	return out, nil
}

// identity returns what identifies an item in an order: its merge-key value
// (null if it has none), or the item itself for primitives.
func identity(v any, key string, objects bool) any {
	if !objects {
		return v
	}
	if m, ok := v.(map[string]any); ok {
		return m[key]
	}
	return nil
}

// sortByOrder sorts items by their positions in order, stably. For objects,
// every item of both lists must be an object with the merge key, and items
// marked "$patch: delete" go last. It also returns the index of order.
//
// The comparison is Kubernetes': an item goes before another when both are
// in order and it comes first there, and also whenever either is missing
// from order. Sorting with sort.SliceStable, as Kubernetes does, gives the
// same result even when that comparison is not a consistent ordering.
func sortByOrder(items, order []any, key string, objects bool) ([]any, *firstIndex, error) {
	var last []any
	if objects {
		for _, l := range [][]any{items, order} {
			for _, v := range l {
				m, ok := v.(map[string]any)
				if !ok {
					return nil, nil, errWrongType(mapTypeName, v)
				}
				if _, ok := m[key]; !ok {
					return nil, nil, errMissingMergeKey(m, key)
				}
			}
		}
		kept := make([]any, 0, len(items))
		for _, v := range items {
			if d, ok := v.(map[string]any)[directiveMarker]; ok && d == deleteDirective {
				last = append(last, v)
			} else {
				kept = append(kept, v)
			}
		}
		items = kept
	}

	ids := make([]any, len(order))
	for i, v := range order {
		ids[i] = identity(v, key, objects)
	}
	index := newFirstIndex(ids)

	type ranked struct {
		item any
		pos  int
	}
	rs := make([]ranked, len(items))
	for i, v := range items {
		rs[i] = ranked{v, index.find(identity(v, key, objects))}
	}
	sort.SliceStable(rs, func(a, b int) bool {
		pa, pb := rs[a].pos, rs[b].pos
		if pa >= 0 && pb >= 0 {
			return pa < pb
		}
		return true
	})
	out := make([]any, 0, len(rs)+len(last))
	for _, r := range rs {
		out = append(out, r.item)
	}
	return append(out, last...), index, nil
}
