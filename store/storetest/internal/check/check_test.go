package check

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

type recorder struct{ failed bool }

func (*recorder) Helper()                 {}
func (r *recorder) Errorf(string, ...any) { r.failed = true }

func TestChecksHoldAndFailAsTestifys(t *testing.T) {
	x, y := 1, 1
	var nilMap map[string]int
	wrapped := fmt.Errorf("wrapped: %w", fs.ErrNotExist)
	var pathErr *fs.PathError
	tests := []struct {
		name  string
		check func(T) bool
		holds bool
	}{
		{"equal values are equal", func(t T) bool { return Equal(t, []int{1}, []int{1}) }, true},
		{"different values are not", func(t T) bool { return Equal(t, 1, int64(1)) }, false},
		{"equal bytes are equal", func(t T) bool { return Equal(t, []byte("a"), []byte("a")) }, true},
		{"true is true", func(t T) bool { return True(t, true) }, true},
		{"false is not true", func(t T) bool { return True(t, false) }, false},
		{"false is false", func(t T) bool { return False(t, false) }, true},
		{"nil is no error", func(t T) bool { return NoError(t, nil) }, true},
		{"an error is one", func(t T) bool { return NoError(t, errors.New("x")) }, false},
		{"an error is an error", func(t T) bool { return Error(t, errors.New("x")) }, true},
		{"a wrapped error is its target", func(t T) bool { return ErrorIs(t, wrapped, fs.ErrNotExist) }, true},
		{"an error is not another", func(t T) bool { return ErrorIs(t, wrapped, fs.ErrExist) }, false},
		{"an error of another type is not as", func(t T) bool { return ErrorAs(t, wrapped, &pathErr) }, false},
		{"a nil map is nil", func(t T) bool { return Nil(t, nilMap) }, true},
		{"a pointer is not nil", func(t T) bool { return NotNil(t, &x) }, true},
		{"a pointer is itself", func(t T) bool { return Same(t, &x, &x) }, true},
		{"two pointers to equal values are not the same", func(t T) bool { return Same(t, &x, &y) }, false},
		{"a slice has its length", func(t T) bool { return Len(t, []int{1, 2}, 2) }, true},
		{"a slice has no other length", func(t T) bool { return Len(t, []int{1, 2}, 1) }, false},
		{"an empty string is empty", func(t T) bool { return Empty(t, "") }, true},
		{"a slice with an item is not empty", func(t T) bool { return Empty(t, []int{0}) }, false},
		{"a slice with an item is not empty, so NotEmpty", func(t T) bool { return NotEmpty(t, []int{0}) }, true},
		{"zero is zero", func(t T) bool { return Zero(t, int64(0)) }, true},
		{"2 is greater than 1", func(t T) bool { return Greater(t, 2, 1) }, true},
		{"1 is not greater than 1", func(t T) bool { return Greater(t, 1, 1) }, false},
		{"1 is greater than or equal to 1", func(t T) bool { return GreaterOrEqual(t, 1, 1) }, true},
		{"1 is less than 2", func(t T) bool { return Less(t, 1, 2) }, true},
		{"2 is not less than or equal to 1", func(t T) bool { return LessOrEqual(t, 2, 1) }, false},
		{"0 is not positive", func(t T) bool { return Positive(t, 0) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			assert.Equal(t, tt.holds, tt.check(r))
			assert.Equal(t, !tt.holds, r.failed)
		})
	}
}
