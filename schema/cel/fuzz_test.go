package cel

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/kapi-dev/kapi/schema"
)

// FuzzValidFieldPath: any fieldPath is accepted or refused without
// panicking.
func FuzzValidFieldPath(f *testing.F) {
	s := schema.MustParse(map[string]any{"type": "object", "properties": map[string]any{
		"a": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		"b": map[string]any{"type": "object", "properties": map[string]any{"c": map[string]any{"type": "string"}}},
	}})
	for _, p := range []string{".a", ".a['x.y']", ".b.c", "['b']['c']", ".b[", "['", "[']'", ".a['\\n']", "x", ".", "..", ".a['\\q']"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		_, _ = ValidFieldPath(p, s)
	})
}

// FuzzRules: rules run on any JSON data without panicking, whatever its
// types against the schema.
func FuzzRules(f *testing.F) {
	s := schema.MustParse(map[string]any{"type": "object", "properties": map[string]any{
		"spec": map[string]any{"type": "object",
			"x-kubernetes-validations": []any{
				map[string]any{"rule": "self.n <= 10 && self.s.size() < 5 && self.l.all(x, x > 0)"},
				map[string]any{"rule": "has(self.m) ? self.m.all(k, self.m[k].startsWith('a')) : true"},
				map[string]any{"rule": "self.ios == oldSelf.ios"},
				map[string]any{"rule": "!has(self.t) || self.t > timestamp('2000-01-01T00:00:00Z')"},
			},
			"properties": map[string]any{
				"n":   map[string]any{"type": "integer"},
				"s":   map[string]any{"type": "string", "maxLength": int64(10)},
				"l":   map[string]any{"type": "array", "maxItems": int64(10), "items": map[string]any{"type": "number"}},
				"m":   map[string]any{"type": "object", "maxProperties": int64(5), "additionalProperties": map[string]any{"type": "string", "maxLength": int64(10)}},
				"ios": map[string]any{"x-kubernetes-int-or-string": true},
				"t":   map[string]any{"type": "string", "format": "date-time"},
				"ml": map[string]any{"type": "array", "maxItems": int64(5), "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": []any{"k"},
					"items": map[string]any{"type": "object", "required": []any{"k"}, "properties": map[string]any{"k": map[string]any{"type": "string", "maxLength": int64(5)}},
						"x-kubernetes-validations": []any{map[string]any{"rule": "self == oldSelf"}}}},
			}},
	}})
	v, errs := Compile(s, Options{})
	if len(errs) > 0 {
		f.Fatal(errs)
	}
	for _, seed := range []string{
		`{"spec":{"n":1,"s":"ab","l":[1,2.5],"m":{"a":"ab"},"ios":1,"t":"2024-01-01T00:00:00Z","ml":[{"k":"a"}]}}`,
		`{"spec":{"n":"x","s":1,"l":{"a":1},"m":[1],"ios":1.5,"t":"nope","ml":[1,{"k":null}]}}`,
		`{"spec":null}`, `{"spec":{"ml":[{"k":"a"},{"k":"a"}]}}`, `{}`,
	} {
		f.Add(seed, `{"spec":{"ios":"x","ml":[{"k":"a","x":1}]}}`)
	}
	f.Fuzz(func(t *testing.T, objJSON, oldJSON string) {
		var obj, old map[string]any
		if json.Unmarshal([]byte(objJSON), &obj) != nil || obj == nil {
			return
		}
		if json.Unmarshal([]byte(oldJSON), &old) != nil {
			old = nil
		}
		_, _ = v.Validate(context.Background(), normalize(obj).(map[string]any), asMapOrNil(normalize(old)))
		_ = Ratchet(s, nil, obj, old)
	})
}

func asMapOrNil(v any) map[string]any { m, _ := v.(map[string]any); return m }

// normalize turns JSON numbers into the int64 and float64 kapi keeps.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = normalize(e)
		}
	case []any:
		for i, e := range t {
			t[i] = normalize(e)
		}
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1<<53 {
			return int64(t)
		}
	}
	return v
}
