package strategicpatch

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
)

// Sentinel errors. Apply returns them unwrapped, with the exact text
// kube-apiserver uses, so that a caller can both compare them with == (as
// kube-apiserver does) and use errors.Is.
var (
	// ErrBadPatchFormatForPrimitiveList: a key starting with
	// "$deleteFromPrimitiveList" that is not "$deleteFromPrimitiveList/<field>".
	ErrBadPatchFormatForPrimitiveList = errors.New("invalid patch format of primitive list")
	// ErrBadPatchFormatForRetainKeys: "$retainKeys" is not a list, or the
	// patch sets a field the list does not name.
	ErrBadPatchFormatForRetainKeys = errors.New("invalid patch format of retainKeys")
	// ErrBadPatchFormatForSetElementOrderList: a key starting with
	// "$setElementOrder" that is not "$setElementOrder/<field>".
	ErrBadPatchFormatForSetElementOrderList = errors.New("invalid patch format of setElementOrder list")
	// ErrNoListOfLists: a list to merge holds lists.
	ErrNoListOfLists = errors.New("lists of lists are not supported")
)

// StatusCode returns the HTTP status kube-apiserver answers a strategic merge
// patch failure with: 400 Bad Request for the malformed-directive sentinels,
// 422 Unprocessable Entity for [ErrNoListOfLists], and 500 for every other
// error of Apply. kube-apiserver sends those others as they are (a Status
// with code 500, no reason, and the error's text as message): for example
// "map: map[image:nginx] does not contain declared merge key: name".
func StatusCode(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, ErrBadPatchFormatForPrimitiveList),
		errors.Is(err, ErrBadPatchFormatForRetainKeys),
		errors.Is(err, ErrBadPatchFormatForSetElementOrderList):
		return http.StatusBadRequest
	case errors.Is(err, ErrNoListOfLists):
		return http.StatusUnprocessableEntity
	default:
		return http.StatusInternalServerError
	}
}

// Type names as Go's reflect prints them; Kubernetes' messages show them.
const (
	mapTypeName  = "map[string]interface {}"
	listTypeName = "[]interface {}"
)

// errWrongType reports a value that is not of the Go type a directive or a
// merge needs. got is printed the way kube-apiserver prints it (its
// reflect type, "%!s(<nil>)" for null).
func errWrongType(want string, got any) error {
	return fmt.Errorf("expected a %s, but received a %s", want, reflect.TypeOf(got))
}

// errMissingMergeKey reports a list item lacking the list's merge key.
func errMissingMergeKey(item map[string]any, key string) error {
	return fmt.Errorf("map: %v does not contain declared merge key: %s", item, key)
}

// errUnknownDirective reports a "$patch" value that is not allowed where
// it appears. The value is printed with %s, as Kubernetes does, so a
// non-string shows as e.g. "%!s(bool=true)".
func errUnknownDirective(value any, in map[string]any) error {
	return fmt.Errorf("unknown patch type: %s in map: %v", value, in)
}

// errNotAMap reports a non-object item at index i of a list searched by
// merge key.
func errNotAMap(i int) error {
	return fmt.Errorf("value for key %v is not a map", i)
}

var (
	errMergeDirectiveInList = errors.New("merging lists cannot yet be specified in the patch")
	errNoElements           = errors.New("no elements in any of the given slices")
)

// errNoMergeKeyForList reports a list of objects to merge whose schema
// declares no merge key. Kubernetes names the item type by its Go kind,
// which is "struct" for every built-in object type.
func errNoMergeKeyForList() error {
	return fmt.Errorf("cannot merge lists without merge key for %s", "struct")
}

// errMixedElements reports lists whose items are not all of one type.
func errMixedElements(lists [][]any) error {
	return fmt.Errorf("list element types are not identical: %v", fmt.Sprint(lists))
}

// errBadStrategy reports an x-kubernetes-patch-strategy with two
// strategies of which none is retainKeys, or with more than two.
func errBadStrategy(strategies []string) error {
	return fmt.Errorf("unexpected patch strategy: %v", strategies)
}

// errOrderMismatch reports a patch list whose items are not in the order
// of its "$setElementOrder" list.
func errOrderMismatch(patchList, order []any) error {
	return fmt.Errorf("The order in patch list:\n%v\n doesn't match %s list:\n%v\n", patchList, setElementOrderPrefix, order)
}
