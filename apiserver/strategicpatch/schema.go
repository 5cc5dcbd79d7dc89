package strategicpatch

import "strings"

// Schema tells Apply how to merge each field: it is the navigation part of
// an OpenAPI schema with Kubernetes' x-kubernetes-patch-strategy and
// x-kubernetes-patch-merge-key extensions. A nil Schema means "unknown":
// objects merge, lists are replaced.
//
// Implementations must return a nil interface (not a typed nil pointer)
// for "unknown", or make every method safe on a nil receiver.
type Schema interface {
	// Property returns the schema of the field name of an object: the
	// declared property or, for a map, the schema of its values
	// (additionalProperties); nil if unknown. When it returns nil, Apply
	// asks ItemSchema instead, so an implementation may also give a map's
	// value schema there.
	Property(name string) Schema
	// ItemSchema returns the schema of a list's items, nil if unknown.
	ItemSchema() Schema
	// PatchStrategy returns x-kubernetes-patch-strategy: "", "merge",
	// "replace", "retainKeys" or "merge,retainKeys".
	PatchStrategy() string
	// PatchMergeKey returns x-kubernetes-patch-merge-key, the field that
	// identifies the items of a list merged with strategy "merge".
	PatchMergeKey() string
}

// fieldSchema returns the schema of field name of an object described by s.
func fieldSchema(s Schema, name string) Schema {
	if s == nil {
		return nil
	}
	if f := s.Property(name); f != nil {
		return f
	}
	return s.ItemSchema()
}

// itemSchema returns the item schema of a list described by s.
func itemSchema(s Schema) Schema {
	if s == nil {
		return nil
	}
	return s.ItemSchema()
}

// mergeKeyOf returns the merge key of a list described by s.
func mergeKeyOf(s Schema) string {
	if s == nil {
		return ""
	}
	return s.PatchMergeKey()
}

// strategyOf returns the patch strategy of a field other than retainKeys
// ("merge", "replace", or "" for the default), as Kubernetes reads it: the
// value is split on commas; one strategy is taken as it is (retainKeys
// alone means the default), two must include retainKeys, more are an
// error. retainKeys itself needs no handling here: a server applies a
// "$retainKeys" directive wherever it appears.
func strategyOf(s Schema) (string, error) {
	if s == nil {
		return "", nil
	}
	v := s.PatchStrategy()
	if v == "" {
		return "", nil
	}
	parts := strings.Split(v, ",")
	switch len(parts) {
	case 1:
		if parts[0] == retainKeysStrategy {
			return "", nil
		}
		return parts[0], nil
	case 2:
		switch {
		case parts[0] == retainKeysStrategy:
			return parts[1], nil
		case parts[1] == retainKeysStrategy:
			return parts[0], nil
		}
	}
	return "", errBadStrategy(parts)
}
