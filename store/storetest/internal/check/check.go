// Package check is the few assertions package storetest makes, so that
// storetest, which a store's own tests import, brings no assertion library
// into its users' module graphs. Each check reports through t.Errorf and
// returns whether it held; package storetest's require and assert wrap it.
package check

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"reflect"
)

// T is what a check reports to (a *testing.T).
type T interface {
	Helper()
	Errorf(format string, args ...any)
}

func fail(t T, msgAndArgs []any, format string, args ...any) bool {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if len(msgAndArgs) > 0 {
		if f, ok := msgAndArgs[0].(string); ok {
			msg += "\n\tmessage: " + fmt.Sprintf(f, msgAndArgs[1:]...)
		} else {
			msg += "\n\tmessage: " + fmt.Sprint(msgAndArgs...)
		}
	}
	t.Errorf("%s", msg)
	return false
}

// Equal holds when expected and actual are deeply equal ([]byte by content).
func Equal(t T, expected, actual any, msgAndArgs ...any) bool {
	t.Helper()
	if eb, ok := expected.([]byte); ok {
		if ab, ok := actual.([]byte); ok && bytes.Equal(eb, ab) {
			return true
		}
	} else if reflect.DeepEqual(expected, actual) {
		return true
	}
	return fail(t, msgAndArgs, "not equal:\n\texpected: %#v\n\tactual:   %#v", expected, actual)
}

// True holds when v is.
func True(t T, v bool, msgAndArgs ...any) bool {
	t.Helper()
	if v {
		return true
	}
	return fail(t, msgAndArgs, "should be true")
}

// False holds when v is not.
func False(t T, v bool, msgAndArgs ...any) bool {
	t.Helper()
	if !v {
		return true
	}
	return fail(t, msgAndArgs, "should be false")
}

// NoError holds when err is nil.
func NoError(t T, err error, msgAndArgs ...any) bool {
	t.Helper()
	if err == nil {
		return true
	}
	return fail(t, msgAndArgs, "unexpected error: %v", err)
}

// Error holds when err is not nil.
func Error(t T, err error, msgAndArgs ...any) bool {
	t.Helper()
	if err != nil {
		return true
	}
	return fail(t, msgAndArgs, "an error is expected but got nil")
}

// ErrorIs holds when errors.Is(err, target).
func ErrorIs(t T, err, target error, msgAndArgs ...any) bool {
	t.Helper()
	if errors.Is(err, target) {
		return true
	}
	return fail(t, msgAndArgs, "error %v is not %v", err, target)
}

// ErrorAs holds when errors.As(err, target).
func ErrorAs(t T, err error, target any, msgAndArgs ...any) bool {
	t.Helper()
	if errors.As(err, target) {
		return true
	}
	return fail(t, msgAndArgs, "error %v is not a %T", err, target)
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Chan, reflect.Func, reflect.Interface, reflect.Map, reflect.Pointer, reflect.Slice, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// Nil holds when v is nil (a nil pointer, map, slice… included).
func Nil(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if isNil(v) {
		return true
	}
	return fail(t, msgAndArgs, "expected nil, got %#v", v)
}

// NotNil holds when v is not nil.
func NotNil(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if !isNil(v) {
		return true
	}
	return fail(t, msgAndArgs, "expected a value, got nil")
}

// Same holds when expected and actual are the same pointer.
func Same(t T, expected, actual any, msgAndArgs ...any) bool {
	t.Helper()
	e, a := reflect.ValueOf(expected), reflect.ValueOf(actual)
	if e.Kind() == reflect.Pointer && a.Kind() == reflect.Pointer && e.Type() == a.Type() && e.Pointer() == a.Pointer() {
		return true
	}
	return fail(t, msgAndArgs, "not the same: %p and %p", expected, actual)
}

// Len holds when v (a string, slice, map, array or channel) has n elements.
func Len(t T, v any, n int, msgAndArgs ...any) bool {
	t.Helper()
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String, reflect.Slice, reflect.Map, reflect.Array, reflect.Chan:
		if rv.Len() == n {
			return true
		}
		return fail(t, msgAndArgs, "%#v should have %d item(s), has %d", v, n, rv.Len())
	}
	return fail(t, msgAndArgs, "%#v has no length", v)
}

func empty(v any) bool {
	if isNil(v) {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.String, reflect.Slice, reflect.Map, reflect.Array, reflect.Chan:
		return rv.Len() == 0
	case reflect.Pointer:
		return empty(rv.Elem().Interface())
	}
	return rv.IsZero()
}

// Empty holds when v is nil, zero or of length 0.
func Empty(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if empty(v) {
		return true
	}
	return fail(t, msgAndArgs, "should be empty: %#v", v)
}

// NotEmpty holds when v is not Empty.
func NotEmpty(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if !empty(v) {
		return true
	}
	return fail(t, msgAndArgs, "should not be empty: %#v", v)
}

// Zero holds when v is its type's zero value.
func Zero(t T, v any, msgAndArgs ...any) bool {
	t.Helper()
	if v == nil || reflect.ValueOf(v).IsZero() {
		return true
	}
	return fail(t, msgAndArgs, "should be zero: %#v", v)
}

// Greater holds when a > b.
func Greater[N cmp.Ordered](t T, a, b N, msgAndArgs ...any) bool {
	t.Helper()
	if a > b {
		return true
	}
	return fail(t, msgAndArgs, "%v is not greater than %v", a, b)
}

// GreaterOrEqual holds when a >= b.
func GreaterOrEqual[N cmp.Ordered](t T, a, b N, msgAndArgs ...any) bool {
	t.Helper()
	if a >= b {
		return true
	}
	return fail(t, msgAndArgs, "%v is not greater than or equal to %v", a, b)
}

// Less holds when a < b.
func Less[N cmp.Ordered](t T, a, b N, msgAndArgs ...any) bool {
	t.Helper()
	if a < b {
		return true
	}
	return fail(t, msgAndArgs, "%v is not less than %v", a, b)
}

// LessOrEqual holds when a <= b.
func LessOrEqual[N cmp.Ordered](t T, a, b N, msgAndArgs ...any) bool {
	t.Helper()
	if a <= b {
		return true
	}
	return fail(t, msgAndArgs, "%v is not less than or equal to %v", a, b)
}

// Positive holds when n > 0.
func Positive[N cmp.Ordered](t T, n N, msgAndArgs ...any) bool {
	t.Helper()
	var zero N
	if n > zero {
		return true
	}
	return fail(t, msgAndArgs, "%v is not positive", n)
}
