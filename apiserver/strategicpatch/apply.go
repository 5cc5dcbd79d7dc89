package strategicpatch

import (
	"fmt"
	"slices"
	"strings"
)

// Directive keys and values.
const (
	directiveMarker       = "$patch"
	deleteDirective       = "delete"
	replaceDirective      = "replace"
	mergeDirective        = "merge"
	retainKeysStrategy    = "retainKeys"
	retainKeysDirective   = "$retainKeys"
	deleteFromListPrefix  = "$deleteFromPrimitiveList"
	setElementOrderPrefix = "$setElementOrder"
)

// Apply applies the strategic merge patch patch (a decoded JSON object) to
// original and returns the patched object. schema describes original's
// type; nil means unknown everywhere (objects merge, lists are replaced).
//
// Apply modifies neither original nor patch, and its result shares no
// memory with either: the caller owns it. Apply never panics; an error is
// a client error worded as kube-apiserver words it (see [StatusCode]).
func Apply(original, patch map[string]any, schema Schema) (result map[string]any, err error) {
	defer func() {
		// A safety net: the fuzz target runs apply without it.
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("strategic merge patch: internal error: %v", r)
		}
	}()
	return apply(original, patch, schema)
}

func apply(original, patch map[string]any, schema Schema) (map[string]any, error) {
	if patch == nil {
		patch = map[string]any{}
	}
	return mergeObject(copyMap(original), patch, schema)
}

// mergeObject merges the patch object into original, which it owns and
// changes in place, and returns the result (original, or another object
// for a "$patch" directive). The patch is only read; whatever of it
// ends up in the result is copied.
//
// The steps are Kubernetes': a "$patch" directive decides alone; then
// "$retainKeys" clears the fields it does not list; then each
// "$setElementOrder/<list>" merges and orders its list; then the
// "$deleteFromPrimitiveList/<list>" directives; then the other fields.
// Kubernetes takes those last two kinds together in Go's random map order,
// which matters only when a patch both adds a value to a primitive list and
// deletes it: here the deletion comes first, so the value stays. Keys are
// taken in sorted order, so that the first of several faults is reported.
func mergeObject(original, patch map[string]any, s Schema) (map[string]any, error) {
	if d, ok := patch[directiveMarker]; ok {
		switch d {
		case replaceDirective:
			out := copyMap(patch)
			delete(out, directiveMarker)
			return out, nil
		case deleteDirective:
			return map[string]any{}, nil
		default:
			return nil, errUnknownDirective(d, patch)
		}
	}
	if original == nil {
		original = map[string]any{}
	}
	if len(patch) == 0 {
		return original, nil
	}

	keys := make([]string, 0, len(patch))
	for k := range patch {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	// done holds the patch keys already applied; Kubernetes deletes them
	// from the patch instead.
	done := map[string]bool{}

	if err := applyRetainKeys(original, patch, done); err != nil {
		return nil, err
	}
	for _, k := range keys {
		if strings.HasPrefix(k, setElementOrderPrefix) && !done[k] {
			if err := applyElementOrder(original, patch, k, s, done); err != nil {
				return nil, err
			}
		}
	}

	// Deletion lists first, then the other fields.
	for _, deletions := range []bool{true, false} {
		for _, k := range keys {
			if done[k] || strings.HasPrefix(k, deleteFromListPrefix) != deletions {
				continue
			}
			if err := mergeField(original, k, patch[k], s); err != nil {
				return nil, err
			}
		}
	}
	return original, nil
}

// applyRetainKeys applies a "$retainKeys" directive: every field of the
// patch that is not null must be listed, and the fields of original that are
// not listed are cleared. A server applies it wherever it appears,
// whatever the field's patch strategy.
func applyRetainKeys(original, patch map[string]any, done map[string]bool) error {
	v, ok := patch[retainKeysDirective]
	if !ok {
		return nil
	}
	done[retainKeysDirective] = true
	list, ok := v.([]any)
	if !ok {
		return ErrBadPatchFormatForRetainKeys
	}
	retain := make(map[string]bool, len(list))
	for _, item := range list {
		// Only strings can name fields; Kubernetes compares items with
		// field names as interface values, so other items never match.
		if name, ok := item.(string); ok {
			retain[name] = true
		}
	}
	for k, pv := range patch {
		if k == retainKeysDirective || pv == nil ||
			strings.HasPrefix(k, deleteFromListPrefix) || strings.HasPrefix(k, setElementOrderPrefix) {
			continue
		}
		if !retain[k] {
			return ErrBadPatchFormatForRetainKeys
		}
	}
	for k := range original {
		if !retain[k] {
			delete(original, k)
		}
	}
	return nil
}

// mergeField merges the patch value of key k into original.
func mergeField(original map[string]any, k string, pv any, s Schema) error {
	name, fromDeleteList := k, false
	if strings.HasPrefix(k, deleteFromListPrefix) {
		field, err := directiveField(k, deleteFromListPrefix, ErrBadPatchFormatForPrimitiveList)
		if err != nil {
			return err
		}
		fromDeleteList = true
		if field != "" {
			name = field
		}
	}

	// null deletes the field (for a deletion list too: Kubernetes deletes
	// the list itself).
	if pv == nil {
		delete(original, name)
		return nil
	}

	ov, found := original[name]
	if !found || !sameType(ov, pv) {
		// Nothing to merge with: take the patch value, without nulls and
		// "$patch" objects. A deletion list has nothing to delete from.
		if !fromDeleteList {
			setClean(original, name, pv, true)
		}
		return nil
	}

	switch o := ov.(type) {
	case map[string]any:
		fs := fieldSchema(s, name)
		strategy, err := strategyOf(fs)
		if err != nil {
			return err
		}
		if strategy == replaceDirective {
			original[name] = copyValue(pv)
			return nil
		}
		merged, err := mergeObject(o, pv.(map[string]any), fs)
		if err != nil {
			return err
		}
		original[name] = merged
	case []any:
		fs := fieldSchema(s, name)
		strategy, err := strategyOf(fs)
		if err != nil {
			return err
		}
		if strategy != mergeDirective && !fromDeleteList {
			original[name] = copyValue(pv)
			return nil
		}
		merged, _, err := mergeList(o, pv.([]any), itemSchema(fs), mergeKeyOf(fs), fromDeleteList, false)
		if err != nil {
			return err
		}
		original[name] = merged
	default:
		setClean(original, name, pv, false)
	}
	return nil
}

// setClean sets original[name] to the patch value without its directives,
// or deletes the field when the value itself is a "$patch" object.
func setClean(original map[string]any, name string, pv any, dropNulls bool) {
	if v, keep := cleanPatchValue(pv, dropNulls); keep {
		original[name] = v
	} else {
		delete(original, name)
	}
}

// sameType reports whether two non-null values have the same Go type, which
// is when Kubernetes merges them rather than taking the patch value.
func sameType(a, b any) bool {
	switch a.(type) {
	case map[string]any:
		_, ok := b.(map[string]any)
		return ok
	case []any:
		_, ok := b.([]any)
		return ok
	case string:
		_, ok := b.(string)
		return ok
	case int64:
		_, ok := b.(int64)
		return ok
	case float64:
		_, ok := b.(float64)
		return ok
	case bool:
		_, ok := b.(bool)
		return ok
	}
	// Values of other Go types are scalars to us: same type or not, the
	// patch value replaces them.
	return false
}

// directiveField returns the field a "<prefix>/<field>" key names.
func directiveField(key, prefix string, errBadFormat error) (string, error) {
	head, field, ok := strings.Cut(key, "/")
	if !ok || head != prefix {
		return "", errBadFormat
	}
	return field, nil
}
