package flowcontrol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAllocationIsProportionalToTargetsWithinBounds(t *testing.T) {
	for _, tc := range []struct {
		name  string
		total int
		items []allocItem
		want  []float64
		fair  float64
	}{
		{"no bound matters", 12, []allocItem{{target: 2, upper: 100}, {target: 4, upper: 100}}, []float64{4, 8}, 2},
		{"an upper bound caps one, the rest goes to the other", 12, []allocItem{{target: 2, upper: 100}, {target: 4, upper: 5}}, []float64{7, 5}, 3.5},
		{"a lower bound holds one up", 8, []allocItem{{target: 6, lower: 6, upper: 100}, {target: 4, upper: 100}}, []float64{6, 2}, 0.5},
		{"everyone at the lower bound", 6, []allocItem{{target: 3, lower: 3, upper: 9}, {target: 3, lower: 3, upper: 9}}, []float64{3, 3}, 1},
		{"everyone at the upper bound", 18, []allocItem{{target: 3, lower: 3, upper: 9}, {target: 3, lower: 3, upper: 9}}, []float64{9, 9}, 3},
		{"a zero target counts as a tiny one", 10, []allocItem{{target: 0, upper: 100}, {target: 5, lower: 1, upper: 5}}, []float64{5, 5}, 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, fair, err := allocate(tc.total, tc.items)
			require.NoError(t, err)
			require.Len(t, got, len(tc.want))
			sum := 0.0
			for i := range got {
				assert.InDelta(t, tc.want[i], got[i], 1e-6)
				sum += got[i]
			}
			assert.InDelta(t, float64(tc.total), sum, 1e-6)
			assert.InDelta(t, tc.fair, fair, 1e-6)
		})
	}
}

func TestAllocationRefusesImpossibleBounds(t *testing.T) {
	_, _, err := allocate(5, []allocItem{{target: 3, lower: 3, upper: 4}, {target: 3, lower: 3, upper: 4}})
	assert.EqualError(t, err, "lower bounds sum to 6, which is higher than the required sum of 5")
	_, _, err = allocate(9, []allocItem{{target: 3, lower: 3, upper: 4}})
	assert.EqualError(t, err, "upper bounds sum to 4, which is lower than the required sum of 9")
	_, _, err = allocate(9, []allocItem{{target: 1, lower: 3, upper: 4}})
	assert.EqualError(t, err, "target 0 is 1, which is below its lower bound of 3")
}
