// Package require is package check's assertions that end the test when
// they fail, as testify's require does, for package storetest.
package require

import (
	"cmp"

	"github.com/kapi-dev/kapi/store/storetest/internal/check"
)

// T is what a check reports to and stops (a *testing.T).
type T interface {
	check.T
	FailNow()
}

// Equal is check.Equal, ending the test when it fails.
func Equal(t T, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	if !check.Equal(t, expected, actual, msgAndArgs...) {
		t.FailNow()
	}
}

// ErrorAs is check.ErrorAs, ending the test when it fails.
func ErrorAs(t T, err error, target any, msgAndArgs ...any) {
	t.Helper()
	if !check.ErrorAs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

// ErrorIs is check.ErrorIs, ending the test when it fails.
func ErrorIs(t T, err, target error, msgAndArgs ...any) {
	t.Helper()
	if !check.ErrorIs(t, err, target, msgAndArgs...) {
		t.FailNow()
	}
}

// False is check.False, ending the test when it fails.
func False(t T, v bool, msgAndArgs ...any) {
	t.Helper()
	if !check.False(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

// True is check.True, ending the test when it fails.
func True(t T, v bool, msgAndArgs ...any) {
	t.Helper()
	if !check.True(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

// Len is check.Len, ending the test when it fails.
func Len(t T, v any, n int, msgAndArgs ...any) {
	t.Helper()
	if !check.Len(t, v, n, msgAndArgs...) {
		t.FailNow()
	}
}

// NoError is check.NoError, ending the test when it fails.
func NoError(t T, err error, msgAndArgs ...any) {
	t.Helper()
	if !check.NoError(t, err, msgAndArgs...) {
		t.FailNow()
	}
}

// NotEmpty is check.NotEmpty, ending the test when it fails.
func NotEmpty(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !check.NotEmpty(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

// NotNil is check.NotNil, ending the test when it fails.
func NotNil(t T, v any, msgAndArgs ...any) {
	t.Helper()
	if !check.NotNil(t, v, msgAndArgs...) {
		t.FailNow()
	}
}

// Less is check.Less, ending the test when it fails.
func Less[N cmp.Ordered](t T, a, b N, msgAndArgs ...any) {
	t.Helper()
	if !check.Less(t, a, b, msgAndArgs...) {
		t.FailNow()
	}
}

// LessOrEqual is check.LessOrEqual, ending the test when it fails.
func LessOrEqual[N cmp.Ordered](t T, a, b N, msgAndArgs ...any) {
	t.Helper()
	if !check.LessOrEqual(t, a, b, msgAndArgs...) {
		t.FailNow()
	}
}
