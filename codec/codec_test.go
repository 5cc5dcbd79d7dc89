package codec

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONDecodeNumbersAndDuplicates(t *testing.T) {
	d, err := JSONCodec{}.Decode([]byte(`{"i":42,"neg":-7,"f":1.5,"e":1e3,"big":123456789012345678901,"a":{"x":1,"x":2},"l":[{"k":1,"k":2}]}`))
	require.NoError(t, err)
	assert.Equal(t, int64(42), d.Object["i"], "integers decode as int64")
	assert.Equal(t, int64(-7), d.Object["neg"])
	assert.Equal(t, 1.5, d.Object["f"])
	assert.Equal(t, 1000.0, d.Object["e"], "an exponent makes a float")
	assert.Equal(t, 123456789012345678901.0, d.Object["big"], "integers beyond int64 fall back to float64")
	assert.Equal(t, int64(2), d.Object["a"].(map[string]any)["x"], "the last duplicate wins")
	assert.Equal(t, []Field{{Path: "a.x", Offset: 72}, {Path: "l[0].k", Offset: 91}}, d.Duplicates)
}

func TestJSONDecodeErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"an empty body", ``, "unexpected end of JSON input"},
		{"a truncated object", `{"a":`, "unexpected end of JSON input"},
		{"trailing data", `{} x`, "invalid character 'x' after top-level value"},
		{"a bad literal", `{"a":tru}`, "invalid character '}' in literal true (expecting 'e')"},
		{"a missing colon", `{"a" 1}`, "invalid character '1' after object key"},
		{"a control character in a string", "{\"a\":\"\n\"}", `invalid character '\n' in string literal`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := JSONCodec{}.Decode([]byte(tt.in))
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
	_, err := JSONCodec{}.Decode([]byte(`[1]`))
	assert.ErrorIs(t, err, ErrNotObject)
}

// A body that is not an object is worded as kube's decoder words it when it
// reads apiVersion and kind (docs/kube-behaviour/08-fidelity.md).
func TestNotAnObjectIsWordedAsKube(t *testing.T) {
	for in, typ := range map[string]string{`[]`: "array", `"x"`: "string", `5`: "number", `true`: "bool"} {
		_, err := JSONCodec{}.Decode([]byte(in))
		assert.Equal(t, `json: cannot unmarshal `+typ+` into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`,
			err.Error(), in)
	}
}

func TestFieldOffsets(t *testing.T) {
	body := []byte(`{"bar":1,"metadata":{"name":"a"},"l":[{"k":1}]}`)
	assert.Equal(t, map[string]int{"bar": 1, "metadata": 9, "metadata.name": 21, "l": 33, "l[0].k": 39}, FieldOffsets(body))
}

func TestYAMLDecodeReportsDuplicates(t *testing.T) {
	d, err := YAMLCodec{}.Decode([]byte("metadata:\n  name: a\n  name: b\nspec:\n  x: 1\n"))
	require.NoError(t, err)
	assert.Equal(t, "b", d.Object.Name())
	assert.Equal(t, []Field{{Path: "metadata.name", Offset: -1}}, d.Duplicates)
}

func TestParseAccept(t *testing.T) {
	got := ParseAccept(`application/json;as=Table;v=v1;g=meta.k8s.io;q=0.9, application/yaml, */*;q=0`)
	require.Len(t, got, 2)
	assert.Equal(t, "application/yaml", got[0].MediaType(), "higher quality first")
	assert.Equal(t, "Table", got[1].Param("as"))
	assert.True(t, MediaRange{Type: "*", Subtype: "*"}.Matches(JSON))
	assert.True(t, MediaRange{Type: "application", Subtype: "*"}.Matches(YAML))
	assert.False(t, MediaRange{Type: "text", Subtype: "*"}.Matches(JSON))
}

// normalize turns encoding/json's UseNumber output into kapi's model.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalize(e)
		}
	case []any:
		for i, e := range v {
			v[i] = normalize(e)
		}
	case json.Number:
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil && !bytes.ContainsAny([]byte(v), ".eE") {
			return n
		}
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	}
	return v
}

// FuzzDecodeJSON checks the decoder against encoding/json: the same inputs
// are accepted, into the same values.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,2.5,"x",null,true]}`, `{"a":"\u00e9\ud83d\ude00"}`, `{"a":1,"a":2}`,
		`{"a":"\xff"}`, `{"a":"\ud800"}`, `{"n":-0.0e-1}`, `[`, `{"a":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _, err := decodeJSON(data)
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		wantErr := dec.Decode(&want)
		if wantErr == nil && len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
			wantErr = errTrailing
		}
		if wantErr == nil {
			want = normalize(want)
			if hasNaNOrOverflow(want) {
				return // numbers beyond float64 are an error here, as for kube's typed decoding
			}
		}
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("decodeJSON err=%v, encoding/json err=%v for %q", err, wantErr, data)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeJSON=%#v, encoding/json=%#v for %q", got, want, data)
		}
	})
}

var errTrailing = &SyntaxError{Msg: "trailing data"}

func hasNaNOrOverflow(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			if hasNaNOrOverflow(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if hasNaNOrOverflow(e) {
				return true
			}
		}
	case float64:
		return math.IsInf(v, 0) || math.IsNaN(v)
	}
	return false
}

// FuzzEncodeJSON checks the reflection-free encoder against encoding/json on
// every value the decoder produces.
func FuzzEncodeJSON(f *testing.F) {
	for _, s := range []string{`{"a":"<b>&\u2028\n\u0001é","b":[1,-2.5,1e21,1e-7,0.000001,true,null],"c":{"z":1,"a":{}}}`,
		`{"x":"\xff\xfe"}`, `{"n":123456789012345678901,"m":-0,"f":1.5e300}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, _, err := decodeJSON(data)
		if err != nil {
			return
		}
		got, gotErr := appendJSON(nil, v)
		want, wantErr := json.Marshal(v)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("errors differ: %v vs %v", gotErr, wantErr)
		}
		if gotErr == nil && !bytes.Equal(got, want) {
			t.Fatalf("appendJSON=%s\njson.Marshal=%s", got, want)
		}
	})
}

func TestTypeMetaPrefixQuotesLikeEncodingJSON(t *testing.T) {
	for _, tm := range [][2]string{{"v1", "ConfigMap"}, {"a<b>&/v1", "K\"\\\u2028é"}, {"", ""}} {
		av, _ := json.Marshal(tm[0])
		k, _ := json.Marshal(tm[1])
		want := `{"apiVersion":` + string(av) + `,"kind":` + string(k) + `,`
		if got := string(TypeMetaPrefix(tm[0], tm[1])); got != want {
			t.Errorf("TypeMetaPrefix(%q, %q) = %s, want %s", tm[0], tm[1], got, want)
		}
	}
}

// DecodeTyped merges a duplicate key's objects as encoding/json fills a Go
// field twice; Decode keeps the last value, as unstructured decoding does.
func TestDuplicateKeysMergeOnlyWhenDecodedAsATypedKind(t *testing.T) {
	body := []byte(`{"metadata":{"name":"m1","labels":{"a":"1"}},"metadata":{"labels":{"b":"2","a":"3"}},"data":{"x":"1"},"data":{"y":"2"},"finalizers":["a"],"finalizers":["b"],"n":1,"n":{"k":1}}`)
	typed, err := JSONCodec{}.DecodeTyped(body)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{
		"metadata":   map[string]any{"name": "m1", "labels": map[string]any{"a": "3", "b": "2"}},
		"data":       map[string]any{"x": "1", "y": "2"},
		"finalizers": []any{"b"},
		"n":          map[string]any{"k": int64(1)},
	}, map[string]any(typed.Object))
	assert.Len(t, typed.Duplicates, 4)
	last, err := JSONCodec{}.Decode(body)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"labels": map[string]any{"b": "2", "a": "3"}}, last.Object["metadata"])
	assert.Equal(t, map[string]any{"y": "2"}, last.Object["data"])
	yamlTyped, err := YAMLCodec{}.DecodeTyped([]byte("data: {x: '1'}\nmetadata: {name: m}\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"x": "1"}, yamlTyped.Object["data"])
}
