package strategicpatch

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The patch as Kubernetes' merge leaves it, printed as kube-apiserver
// prints it in a strict field validation error, held to its answers.
func TestAfterMergeLeavesThePatchAsKubernetesMergeLeavesIt(t *testing.T) {
	original := map[string]any{
		"data":     map[string]any{"k1": "v1", "k2": "v2"},
		"metadata": map[string]any{"name": "cm", "labels": map[string]any{"app": "web"}, "finalizers": []any{"a"}},
	}
	tests := []struct {
		name  string
		patch map[string]any
		want  string
	}{
		{"a replace directive is deleted where the merge reaches it",
			map[string]any{"data": map[string]any{"$patch": "replace", "k1": "r1"}, "metadata": map[string]any{"labels": map[string]any{"app": nil, "tier": "be"}}, "unknownTop": "x"},
			"map[data:map[k1:r1] metadata:map[labels:map[app:<nil> tier:be]] unknownTop:x]"},
		{"a delete directive stays",
			map[string]any{"data": map[string]any{"$patch": "delete"}, "unknownTop": "x"},
			"map[data:map[$patch:delete] unknownTop:x]"},
		{"retainKeys and an element order go with their list",
			map[string]any{"$retainKeys": []any{"data"}, "metadata": map[string]any{"$setElementOrder/finalizers": []any{"a", "b"}, "finalizers": []any{"b"}}},
			"map[metadata:map[]]"},
		{"an added value loses its nulls and the objects with a directive",
			map[string]any{"spec": map[string]any{"a": nil, "b": map[string]any{"$patch": "replace"}, "c": 1}},
			"map[spec:map[c:1]]"},
		{"a value merged into loses nothing but directives",
			map[string]any{"data": map[string]any{"k1": nil}},
			"map[data:map[k1:<nil>]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := fmt.Sprint(tt.patch)
			assert.Equal(t, tt.want, fmt.Sprint(AfterMerge(original, tt.patch, nil)))
			assert.Equal(t, before, fmt.Sprint(tt.patch), "the patch is not changed")
		})
	}
}
