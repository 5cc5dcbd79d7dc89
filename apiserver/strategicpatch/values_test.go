package strategicpatch

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFirstIndexFindsWhatALinearSearchFinds checks the index against a
// linear search while keys are added and changed, with values that hash
// (strings, numbers, null), that are encoded (objects, lists), and that
// share one bucket (Go slices, compared with reflect.DeepEqual).
func TestFirstIndexFindsWhatALinearSearchFinds(t *testing.T) {
	values := []any{
		"a", "b", int64(1), float64(1), 0.0, nil, true,
		map[string]any{"k": "a"}, map[string]any{"k": int64(1)}, []any{"a"}, []any{},
		[]string{"x"}, []string{"y"}, absent,
	}
	linear := func(keys []any, v any) int {
		for i, k := range keys {
			if k != absent && equal(k, v) {
				return i
			}
		}
		return -1
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		var keys []any
		for range r.IntN(60) {
			keys = append(keys, values[r.IntN(len(values))])
		}
		x := newFirstIndex(append([]any(nil), keys...))
		for range 300 {
			switch r.IntN(3) {
			case 0:
				k := values[r.IntN(len(values))]
				keys = append(keys, k)
				x.add(k)
			case 1:
				if len(keys) > 0 {
					i, k := r.IntN(len(keys)), values[r.IntN(len(values))]
					keys[i] = k
					x.update(i, k)
				}
			default:
				v := values[r.IntN(len(values)-1)]
				require.Equal(t, linear(keys, v), x.find(v), "round %d: find(%v) in %v", round, v, keys)
			}
		}
	}
}

func TestEqualComparesLikeKubernetes(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b any
		want bool
	}{
		{"equal strings", "a", "a", true},
		{"an integer and a float of the same value differ", int64(1), 1.0, false},
		{"zero and negative zero are equal", 0.0, math.Copysign(0, -1), true},
		{"null equals null", nil, nil, true},
		{"null differs from an empty string", nil, "", false},
		{"objects compare deeply", map[string]any{"a": []any{int64(1)}}, map[string]any{"a": []any{int64(1)}}, true},
		{"objects with other values differ", map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}, false},
		{"objects with other keys differ", map[string]any{"a": nil}, map[string]any{"b": nil}, false},
		{"lists compare in order", []any{"a", "b"}, []any{"b", "a"}, false},
		{"values of other Go types compare deeply", []string{"a"}, []string{"a"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, equal(c.a, c.b))
			if c.want {
				assert.Equal(t, bucketOf(c.a), bucketOf(c.b), "equal values must share a bucket")
			}
		})
	}
}
