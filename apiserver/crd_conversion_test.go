package apiserver

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// kube's documented order of version priority.
func TestKubeAwareVersionOrder(t *testing.T) {
	want := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, func(a, b string) int { return compareKubeAwareVersions(b, a) })
	assert.Equal(t, want, got)
}
