package meta

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEqualValuesAgreesWithReflectDeepEqual(t *testing.T) {
	values := []any{
		nil, "a", "b", true, false, int64(1), int64(2), float64(1), 1, // an int is compared by reflect
		map[string]any(nil), map[string]any{}, map[string]any{"a": int64(1)}, map[string]any{"a": float64(1)},
		map[string]any{"a": int64(1), "b": nil}, map[string]any{"a": nil}, map[string]any{"b": nil},
		[]any(nil), []any{}, []any{"a"}, []any{"a", "b"}, []any{"b", "a"},
		Object{"a": int64(1)}, map[string]any{"m": map[string]any{"l": []any{int64(1), "x"}}},
		map[string]any{"m": map[string]any{"l": []any{int64(1), "y"}}}, json.Number("1"),
	}
	for _, a := range values {
		for _, b := range values {
			want := reflect.DeepEqual(a, b)
			if _, aObj := a.(Object); aObj != isObject(b) {
				// An Object and a map with the same entries are one JSON
				// object to EqualValues, not to reflect.
				if m, ok := AsMap(a); ok {
					if n, ok := AsMap(b); ok {
						want = reflect.DeepEqual(m, n)
					}
				}
			}
			assert.Equal(t, want, EqualValues(a, b), "%#v vs %#v", a, b)
		}
	}
}

func isObject(v any) bool { _, ok := v.(Object); return ok }

func TestEqualValuesDoesNotAllocate(t *testing.T) {
	a := map[string]any{"metadata": map[string]any{"name": "x", "labels": map[string]any{"a": "b"}},
		"spec": map[string]any{"list": []any{int64(1), "two", true, nil}}}
	b := DeepCopyValue(a)
	allocs := testing.AllocsPerRun(100, func() {
		if !EqualValues(a, b) {
			t.Fatal("copies differ")
		}
	})
	assert.Zero(t, allocs)
}
