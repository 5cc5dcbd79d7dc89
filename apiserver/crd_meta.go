package apiserver

import (
	"fmt"
	"maps"
	"slices"
)

// A custom resource is decoded without a Go type, but kube-apiserver reads
// its metadata into metav1.ObjectMeta (a JSON round trip of the metadata
// alone) before anything else: a member of the wrong JSON type fails the
// decoding (400) in Go's words. objectMetaTypes are ObjectMeta's members
// as Go names their types; the timestamps, which decode themselves, are
// left out.
var objectMetaTypes = map[string]string{
	"name": "string", "generateName": "string", "namespace": "string", "selfLink": "string",
	"uid": "types.UID", "resourceVersion": "string",
	"generation": "int64", "deletionGracePeriodSeconds": "int64",
	"labels": "map[string]string", "annotations": "map[string]string",
	"finalizers": "[]string", "ownerReferences": "[]v1.OwnerReference", "managedFields": "[]v1.ManagedFieldsEntry",
}

// customMetadataFailure is Go's first error reading md into
// metav1.ObjectMeta, members in sorted order as kube re-encodes them; ""
// when md decodes.
func customMetadataFailure(md any) string {
	if md == nil {
		return ""
	}
	m, ok := md.(map[string]any)
	if !ok {
		return fmt.Sprintf("json: cannot unmarshal %s into Go value of type v1.ObjectMeta", typeErrorKind(md))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		goType, known := objectMetaTypes[k]
		if !known || m[k] == nil {
			continue
		}
		if got, bad := goTypeMismatch(m[k], goType); bad != "" {
			return fmt.Sprintf("json: cannot unmarshal %s into Go struct field ObjectMeta.%s of type %s", got, k, bad)
		}
	}
	return ""
}

// goTypeMismatch checks a JSON value against one of objectMetaTypes: the
// JSON kind Go names and the Go type it could not hold (the element's, for
// an element of a list or map), bad "" when it fits.
func goTypeMismatch(v any, goType string) (got string, bad string) {
	switch goType {
	case "string", "types.UID":
		if _, ok := v.(string); !ok {
			return typeErrorKind(v), goType
		}
	case "int64":
		switch n := v.(type) {
		case int64:
		case float64:
			if n != float64(int64(n)) {
				return fmt.Sprintf("number %v", n), goType
			}
		default:
			return typeErrorKind(v), goType
		}
	case "map[string]string":
		m, ok := v.(map[string]any)
		if !ok {
			return typeErrorKind(v), goType
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if _, ok := m[k].(string); !ok && m[k] != nil {
				return typeErrorKind(m[k]), "string"
			}
		}
	default: // lists
		l, ok := v.([]any)
		if !ok {
			return typeErrorKind(v), goType
		}
		elem := goType[2:]
		for _, e := range l {
			if e == nil {
				continue
			}
			if _, isString := e.(string); elem == "string" && !isString {
				return typeErrorKind(e), elem
			}
			if _, isMap := e.(map[string]any); elem != "string" && !isMap {
				return typeErrorKind(e), elem
			}
		}
	}
	return "", ""
}

// typeErrorKind names a JSON value's kind as Go's decoder does in a type
// error.
func typeErrorKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	}
	return "number"
}
