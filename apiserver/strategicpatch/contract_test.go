package strategicpatch

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyResultSharesNoMemoryWithItsInputs(t *testing.T) {
	original := decodeYAML(t, patchDemo)
	patch := decodeYAML(t, `
metadata: {labels: {new: label}}
spec:
  template:
    spec:
      containers: [{name: added, image: redis, env: [{name: A, value: "1"}]}]
      tolerations: [{key: k}]`)
	originalBefore := clone(original)

	got, err := Apply(original, patch, deploymentSchema())
	require.NoError(t, err)
	assert.False(t, sharesMemory(got, original, patch))

	// The caller owns the result: changing it changes neither input.
	got["kind"] = "Changed"
	spec := got["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)
	spec["containers"].([]any)[1].(map[string]any)["image"] = "changed"
	spec["containers"].([]any)[0].(map[string]any)["env"].([]any)[0] = "changed"
	spec["tolerations"].([]any)[0].(map[string]any)["key"] = "changed"
	assert.Equal(t, originalBefore, any(original))
	assert.Equal(t, "A", patch["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)["env"].([]any)[0].(map[string]any)["name"])
}

func TestApplyIsSafeForConcurrentUseOnASharedOriginal(t *testing.T) {
	original := benchDeployment()
	schema := deploymentSchema()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			patch := podSpecPatch(map[string]any{
				"containers": []any{
					map[string]any{"name": fmt.Sprintf("ctr-%d", g), "image": fmt.Sprintf("img-%d", g)},
					map[string]any{"name": "ctr-0", "$patch": "delete"},
				},
				"$setElementOrder/volumes": []any{map[string]any{"name": "vol-2"}},
			})
			for range 20 {
				got, err := Apply(original, patch, schema)
				if !assert.NoError(t, err) {
					return
				}
				got["spec"].(map[string]any)["replicas"] = int64(g)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, benchDeployment(), original)
}

func TestApplyAcceptsANilPatch(t *testing.T) {
	original := decodeYAML(t, patchDemo)
	got, err := Apply(original, nil, deploymentSchema())
	require.NoError(t, err)
	assert.Equal(t, original, got)
	assert.False(t, sharesMemory(got, original))
}

func TestApplyTreatsValuesOfOtherGoTypesAsScalars(t *testing.T) {
	original := map[string]any{"a": []string{"x"}, "b": map[string]string{"k": "v"}, "c": int(1)}
	patch := map[string]any{"a": []string{"y"}, "b": map[string]string{"k": "w"}, "c": int(2),
		"metadata": map[string]any{"finalizers": []any{[]string{"x"}}}}
	got, err := Apply(original, patch, deploymentSchema())
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": []string{"y"}, "b": map[string]string{"k": "w"}, "c": int(2),
		"metadata": map[string]any{"finalizers": []any{[]string{"x"}}}}, got)

	// In a merged primitive list, they compare deeply.
	original = map[string]any{"metadata": map[string]any{"finalizers": []any{int(1), int(2)}}}
	patch = map[string]any{"metadata": map[string]any{"finalizers": []any{int(2), int(3)}}}
	got, err = Apply(original, patch, deploymentSchema())
	require.NoError(t, err)
	assert.Equal(t, []any{int(1), int(2), int(3)}, got["metadata"].(map[string]any)["finalizers"])
}

// largeListSize is large enough for quadratic lookups to take minutes.
var largeListSize = 20000

func TestApplyMergesLargeListsInLinearTime(t *testing.T) {
	n := largeListSize
	containers := func(f func(i int) map[string]any) []any {
		l := make([]any, n)
		for i := range l {
			l[i] = f(i)
		}
		return l
	}
	wrap := func(l []any) map[string]any {
		return map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": l}}}}
	}
	result := func(got map[string]any) []any {
		return got["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
	}

	t.Run("half deleted, half added, with $setElementOrder", func(t *testing.T) {
		var patch, order []any
		for i := range n {
			if i%2 == 0 {
				patch = append(patch, map[string]any{"name": fmt.Sprintf("c%d", i), "$patch": "delete"})
			} else {
				patch = append(patch, map[string]any{"name": fmt.Sprintf("n%d", i)})
				order = append(order, map[string]any{"name": fmt.Sprintf("n%d", i)})
			}
		}
		original := wrap(containers(func(i int) map[string]any { return map[string]any{"name": fmt.Sprintf("c%d", i)} }))
		got, err := Apply(original, podSpecPatch(map[string]any{"containers": patch, "$setElementOrder/containers": order}), deploymentSchema())
		require.NoError(t, err)
		assert.Len(t, result(got), n)
	})
	t.Run("every item deleted by repeated directives", func(t *testing.T) {
		original := wrap(containers(func(int) map[string]any { return map[string]any{"name": "same"} }))
		patch := wrap(containers(func(int) map[string]any { return map[string]any{"name": "same", "$patch": "delete"} }))
		got, err := Apply(original, patch, deploymentSchema())
		require.NoError(t, err)
		assert.Empty(t, result(got))
	})
	t.Run("null merge keys that merging removes", func(t *testing.T) {
		original := wrap(containers(func(i int) map[string]any { return map[string]any{"name": nil, "i": int64(i)} }))
		patch := wrap(containers(func(int) map[string]any { return map[string]any{"name": nil} }))
		_, err := Apply(original, patch, deploymentSchema())
		require.EqualError(t, err, "map: map[i:0] does not contain declared merge key: name")
	})
	t.Run("objects as merge keys", func(t *testing.T) {
		original := wrap(containers(func(i int) map[string]any { return map[string]any{"name": map[string]any{"i": int64(i)}} }))
		patch := wrap(containers(func(i int) map[string]any {
			return map[string]any{"name": map[string]any{"i": int64(n - 1 - i)}, "image": "x"}
		}))
		got, err := Apply(original, patch, deploymentSchema())
		require.NoError(t, err)
		assert.Len(t, result(got), n)
		assert.Equal(t, map[string]any{"name": map[string]any{"i": int64(n - 1)}, "image": "x"}, result(got)[0])
	})
}

func TestStatusCodeMirrorsKubeAPIServer(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"no error is OK", nil, http.StatusOK},
		{"a malformed $deleteFromPrimitiveList key is a bad request", ErrBadPatchFormatForPrimitiveList, http.StatusBadRequest},
		{"a malformed $retainKeys is a bad request", ErrBadPatchFormatForRetainKeys, http.StatusBadRequest},
		{"a malformed $setElementOrder key is a bad request", ErrBadPatchFormatForSetElementOrderList, http.StatusBadRequest},
		{"a list of lists is unprocessable", ErrNoListOfLists, http.StatusUnprocessableEntity},
		{"a wrapped sentinel keeps its status", fmt.Errorf("patch: %w", ErrNoListOfLists), http.StatusUnprocessableEntity},
		{"any other error is an internal error", errors.New("map: map[] does not contain declared merge key: name"), http.StatusInternalServerError},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, StatusCode(c.err))
		})
	}
}

func TestApplyReturnsTheSentinelsUnwrapped(t *testing.T) {
	for _, c := range []struct {
		name, original, patch string
		want                  error
	}{
		{"for a bad $deleteFromPrimitiveList key", `{metadata: {finalizers: [a]}}`, `{metadata: {$deleteFromPrimitiveList: [a]}}`, ErrBadPatchFormatForPrimitiveList},
		{"for a bad $retainKeys", `{spec: {}}`, `{spec: {$retainKeys: [a], b: 1}}`, ErrBadPatchFormatForRetainKeys},
		{"for a bad $setElementOrder key", `{}`, `{$setElementOrderfinalizers: []}`, ErrBadPatchFormatForSetElementOrderList},
		{"for a list of lists", `{metadata: {finalizers: [[a]]}}`, `{metadata: {finalizers: [b]}}`, ErrNoListOfLists},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Apply(decodeYAML(t, c.original), decodeYAML(t, c.patch), deploymentSchema())
			assert.True(t, err == c.want, "got %v", err) //nolint:errorlint // kube-apiserver compares with ==
		})
	}
}

func TestPatchStrategiesAreReadLikeKubernetes(t *testing.T) {
	for _, c := range []struct {
		strategy, want, wantErr string
	}{
		{"", "", ""},
		{"merge", "merge", ""},
		{"replace", "replace", ""},
		{"retainKeys", "", ""},
		{"merge,retainKeys", "merge", ""},
		{"retainKeys,merge", "merge", ""},
		{"retainKeys,replace", "replace", ""},
		{"merge,replace", "", "unexpected patch strategy: [merge replace]"},
		{"merge,retainKeys,replace", "", "unexpected patch strategy: [merge retainKeys replace]"},
	} {
		t.Run(fmt.Sprintf("%q is read as %q", c.strategy, c.want), func(t *testing.T) {
			got, err := strategyOf(&fakeSchema{strategy: c.strategy})
			if c.wantErr != "" {
				assert.EqualError(t, err, c.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func ExampleApply() {
	var live, patch map[string]any
	_ = json.Unmarshal([]byte(`{"spec": {"containers": [{"name": "web", "image": "nginx"}], "tolerations": [{"key": "a"}]}}`), &live)
	_ = json.Unmarshal([]byte(`{"spec": {"containers": [{"name": "log", "image": "busybox"}], "tolerations": [{"key": "b"}]}}`), &patch)
	schema := object(props{"spec": object(props{
		"containers":  keyedList("name", object(nil)),
		"tolerations": atomicList(object(nil)),
	})})

	got, err := Apply(live, patch, schema)
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(got)
	fmt.Println(string(out))
	// Output: {"spec":{"containers":[{"image":"busybox","name":"log"},{"image":"nginx","name":"web"}],"tolerations":[{"key":"b"}]}}
}
