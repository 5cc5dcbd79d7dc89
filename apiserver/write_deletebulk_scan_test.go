package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec"
)

func TestScanUIDReadsWhatDecodingReads(t *testing.T) {
	tests := []struct {
		name string
		json string
	}{
		{"an object", `{"data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"a","uid":"u1"}}`},
		{"keys named like metadata's inside other values", `{"data":{"metadata":"{\"uid\":\"no\"}","uid":"no"},"metadata":{"name":"a","uid":"u1"},"spec":{"template":{"metadata":{"uid":"no"}}}}`},
		{"escapes and nesting before the uid", `{"a":[1,-2.5e3,true,null,{"b":["\\\"",{"c":"}]"}]}],"data":{"k":"v\"\\"},"metadata":{"annotations":{"q":"\"}"},"managedFields":[{"fieldsV1":{"f:data":{".":{}}}}],"uid":"u1"}}`},
		{"spaces", " { \"metadata\" : { \"name\" : \"a\" , \"uid\" : \"u1\" } } "},
		{"no uid", `{"metadata":{"name":"a"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := codec.JSONCodec{}.Decode([]byte(tt.json))
			require.NoError(t, err)
			uid, ok := scanUID([]byte(tt.json))
			assert.Equal(t, d.Object.UID() != "", ok, "found when there is one")
			assert.Equal(t, d.Object.UID(), uid)
		})
	}
}

func TestScanUIDRefusesWhatItCannotReadSafely(t *testing.T) {
	for _, in := range []string{``, `[]`, `{"metadata":{"uid":"u\"1"}}`, `{"metadata":{"uid":`, `{"data":"x`,
		`{"metadata":{"finalizers":["a"`, `{"a":1}`, `{"metadata":[]}`, `{"metadata":{"uid":7}}`} {
		_, ok := scanUID([]byte(in))
		assert.False(t, ok, in)
	}
}

// FuzzScanUID holds scanUID to the decoder on whatever the server's
// encoder writes for a decoded object, and to not failing on garbage.
func FuzzScanUID(f *testing.F) {
	for _, s := range []string{`{"metadata":{"finalizers":["a"],"uid":"u"}}`, `{"data":{"k":"\"}"},"metadata":{"uid":"t"}}`,
		`{"metadata":{"uid":"a\\b"}}`, `{"spec":{"metadata":{"uid":"x"}},"metadata":{"uid":"y"}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		scanUID(in)
		d, err := codec.JSONCodec{}.Decode(in)
		if err != nil || d.Object == nil {
			return
		}
		b, err := codec.JSONCodec{}.Encode(d.Object)
		if err != nil {
			return
		}
		if uid, ok := scanUID(b); ok {
			assert.Equal(t, d.Object.UID(), uid, "%s", b)
		} else if d.Object.UID() != "" {
			assert.Contains(t, string(b), `\`, "only escapes make the scan give up: %s", b)
		}
	})
}

func TestObjectOfKeyIsTheInverseOfKey(t *testing.T) {
	for _, res := range []*Resource{
		{Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true},
		{Group: "example.com", Version: "v1", Kind: "Widget", Plural: "widgets"},
	} {
		ns := ""
		if res.Namespaced {
			ns = "team-a"
		}
		gotNS, name := res.objectOfKey(res.key(ns, "a.b-c"))
		assert.Equal(t, [2]string{ns, "a.b-c"}, [2]string{gotNS, name}, res.Kind)
	}
}
