package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// metaOf is what scanMeta must read of a decoded object.
func metaOf(o meta.Object) storedMeta {
	_, deleting := o.Metadata()["deletionTimestamp"]
	return storedMeta{finalizers: len(o.Finalizers()) > 0, deleting: deleting && o.Metadata()["deletionTimestamp"] != nil}
}

func TestScanMetaReadsWhatDecodingReads(t *testing.T) {
	tests := []struct {
		name string
		json string
	}{
		{"an object without finalizers", `{"data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"a","uid":"u1"}}`},
		{"finalizers", `{"metadata":{"finalizers":["a/b"],"name":"a","uid":"u1"}}`},
		{"empty finalizers", `{"metadata":{"finalizers":[],"uid":"u1"}}`},
		{"null finalizers", `{"metadata":{"finalizers":null,"uid":"u1"}}`},
		{"a deletionTimestamp", `{"metadata":{"deletionTimestamp":"2026-01-01T00:00:00Z","uid":"u1"}}`},
		{"a null deletionTimestamp", `{"metadata":{"deletionTimestamp":null,"uid":"u1"}}`},
		{"keys named like metadata's inside other values", `{"data":{"metadata":"{\"finalizers\":[\"x\"]}","uid":"no"},"metadata":{"uid":"u1"},"spec":{"template":{"metadata":{"finalizers":["x"]}}}}`},
		{"escapes and nesting before metadata", `{"a":[1,-2.5e3,true,null,{"b":["\\\"",{"c":"}]"}]}],"data":{"k":"v\"\\"},"metadata":{"annotations":{"q":"\"}"},"managedFields":[{"fieldsV1":{"f:data":{".":{}}}}],"uid":"u1"}}`},
		{"no uid", `{"metadata":{"name":"a"}}`},
		{"spaces", " { \"metadata\" : { \"finalizers\" : [ ] , \"uid\" : \"u1\" } } "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := codec.JSONCodec{}.Decode([]byte(tt.json))
			require.NoError(t, err)
			got, ok := scanMeta([]byte(tt.json), false)
			require.True(t, ok)
			assert.Equal(t, metaOf(d.Object), got)
			uid, ok := scanMeta([]byte(tt.json), true)
			assert.Equal(t, d.Object.UID() != "", ok, "the uid alone is found when there is one")
			assert.Equal(t, d.Object.UID(), uid.uid)
		})
	}
}

func TestScanMetaRefusesWhatItCannotReadSafely(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"metadata":{"uid":"u\"1"}}`, `{"metadata":{"uid":`, `{"data":"x`,
		`{"metadata":{"finalizers":["a"`, `{"a":1}`, `{"metadata":[]}`} {
		_, ok := scanMeta([]byte(in), false)
		assert.False(t, ok, in)
	}
}

// FuzzScanMeta holds scanMeta to the decoder on whatever the server's
// encoder writes for a decoded object, and to not failing on garbage.
func FuzzScanMeta(f *testing.F) {
	for _, s := range []string{`{"metadata":{"finalizers":["a"],"uid":"u"}}`, `{"data":{"k":"\"}"},"metadata":{"deletionTimestamp":"t"}}`,
		`{"metadata":{"uid":"a\\b"}}`, `{"spec":{"metadata":{"uid":"x"}},"metadata":{"finalizers":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		scanMeta(in, false)
		scanMeta(in, true)
		d, err := codec.JSONCodec{}.Decode(in)
		if err != nil || d.Object == nil {
			return
		}
		b, err := codec.JSONCodec{}.Encode(d.Object)
		if err != nil {
			return
		}
		got, ok := scanMeta(b, false)
		if _, isMap := d.Object["metadata"].(map[string]any); !isMap {
			return
		}
		if m, ok := scanMeta(b, true); ok {
			assert.Equal(t, d.Object.UID(), m.uid, "%s", b)
		}
		if ok {
			assert.Equal(t, metaOf(d.Object), got, "%s", b)
		} else {
			assert.Contains(t, string(b), `\`, "only escapes make the scan give up: %s", b)
		}
	})
}
