package strategicpatch

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/kapi-dev/kapi/codec"
)

// fuzzSchema is the Deployment schema with shortcuts at the root to its
// lists, so that short fuzz inputs reach the list merges.
func fuzzSchema() *fakeSchema {
	d := deploymentSchema()
	pod := d.props["spec"].props["template"].props["spec"]
	container := pod.props["containers"].items
	d.props["c"] = pod.props["containers"]
	d.props["v"] = pod.props["volumes"]
	d.props["t"] = pod.props["tolerations"]
	d.props["f"] = d.props["metadata"].props["finalizers"]
	d.props["e"] = container.props["env"]
	d.props["p"] = container.props["ports"]
	d.props["a"] = container.props["args"]
	d.props["s"] = d.props["spec"].props["strategy"]
	d.props["bad"] = withStrategy(keyedList("k", nil), "merge,replace")
	d.props["nokey"] = withStrategy(atomicList(nil), "merge")
	return d
}

// decodeJSON decodes a JSON object as kapi does (int64 or float64 numbers);
// ok is false for anything else.
func decodeJSON(b []byte) (map[string]any, bool) {
	v, err := codec.DecodeValue(b)
	if err != nil {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// addresses collects the identities of the maps and list arrays in v.
func addresses(v any, into map[uintptr]bool) {
	switch t := v.(type) {
	case map[string]any:
		if t != nil {
			into[reflect.ValueOf(t).Pointer()] = true
		}
		for _, e := range t {
			addresses(e, into)
		}
	case []any:
		if cap(t) > 0 {
			into[reflect.ValueOf(t[:cap(t)]).Pointer()] = true
		}
		for _, e := range t {
			addresses(e, into)
		}
	}
}

// sharesMemory reports whether result holds a map or list array of inputs.
func sharesMemory(result any, inputs ...any) bool {
	in := map[uintptr]bool{}
	for _, v := range inputs {
		addresses(v, in)
	}
	out := map[uintptr]bool{}
	addresses(result, out)
	for p := range out {
		if in[p] {
			return true
		}
	}
	return false
}

var fuzzSeeds = [][2]string{
	{`{"c":[{"name":"a","image":"x"},{"name":"b"}]}`, `{"c":[{"name":"b","image":"y"},{"name":"n"}]}`},
	{`{"c":[{"name":"a"},{"name":"b"},{"name":"c"},{"name":"s"}]}`, `{"$setElementOrder/c":[{"name":"d"},{"name":"a"},{"name":"b"}],"c":[{"name":"c","$patch":"delete"},{"name":"d"}]}`},
	{`{"c":[{"name":"a"}]}`, `{"c":[{"name":"a"},{"$patch":"replace"}]}`},
	{`{"f":["a","b","c"]}`, `{"$deleteFromPrimitiveList/f":["b"],"$setElementOrder/f":["c","a"],"f":["d"]}`},
	{`{"s":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}`, `{"s":{"$retainKeys":["type"],"type":"Recreate"}}`},
	{`{"v":[{"name":"d","emptyDir":{}}]}`, `{"v":[{"name":"d","$retainKeys":["name","hostPath"],"hostPath":{"path":"/x"}}]}`},
	{`{"e":[{"name":"A","value":"1"}],"p":[{"containerPort":80}]}`, `{"e":[{"name":"A","$patch":"delete"},{"name":"B"}],"p":[{"containerPort":80.5}]}`},
	{`{"f":[null,"a"],"t":[{"key":"a"}]}`, `{"f":[null],"t":[{"$patch":"delete"}],"$setElementOrder/t":[{"a":1}]}`},
	{`{"c":[{"name":{"x":1}},{"name":[1]}]}`, `{"c":[{"name":{"x":1},"image":"i"},{"$patch":"delete","name":[1]}],"$setElementOrder/c":[{"name":[1]},{"name":{"x":1}}]}`},
	{`{"f":[{"a":1}]}`, `{"f":[{"a":1}],"$setElementOrder/f":[{"a":1}],"$retainKeys":["f",{"a":1}]}`},
	{`{"bad":[{"k":1}],"nokey":[{"a":1}]}`, `{"bad":[{"k":2}],"nokey":[{"a":2}]}`},
	{`{"a":["x",["y"]]}`, `{"$deleteFromPrimitiveList/a":[["y"]],"$patch":"replace"}`},
}

// FuzzApply applies arbitrary JSON patches to arbitrary JSON objects with a
// fixed schema: Apply must not panic, must leave its inputs unchanged, must
// return a result sharing no memory with them, and must be deterministic.
func FuzzApply(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	for _, c := range [][2]string{{patchDemo, `{spec: {template: {spec: {containers: [{name: x, image: redis}]}}}}`}} {
		o, _ := json.Marshal(decodeYAML(f, c[0]))
		p, _ := json.Marshal(decodeYAML(f, c[1]))
		f.Add(o, p)
	}
	schema := fuzzSchema()
	f.Fuzz(func(t *testing.T, originalJSON, patchJSON []byte) {
		original, ok := decodeJSON(originalJSON)
		if !ok {
			return
		}
		patch, ok := decodeJSON(patchJSON)
		if !ok {
			return
		}
		originalBefore, patchBefore := clone(original), clone(patch)

		// apply, not Apply: a panic must fail the fuzz target.
		got, err := apply(original, patch, schema)
		_ = AfterMerge(original, patch, schema) // reads both, never panics

		if !reflect.DeepEqual(originalBefore, any(original)) {
			t.Fatalf("original modified:\nbefore %v\nafter  %v", originalBefore, original)
		}
		if !reflect.DeepEqual(patchBefore, any(patch)) {
			t.Fatalf("patch modified:\nbefore %v\nafter  %v", patchBefore, patch)
		}
		if err != nil {
			if got != nil {
				t.Fatalf("a result with an error: %v", err)
			}
		} else if sharesMemory(got, original, patch) {
			t.Fatalf("the result shares memory with the inputs")
		}
		again, err2 := apply(original, patch, schema)
		if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) || !reflect.DeepEqual(got, again) {
			t.Fatalf("not deterministic: %v / %v", err, err2)
		}
	})
}
