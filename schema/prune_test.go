package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPrune(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{
		"spec":{"type":"object","properties":{
			"items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}},
			"free":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"known":{"type":"object","properties":{"a":{"type":"string"}}}}},
			"emb":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"spec":{"type":"object","properties":{"x":{"type":"string"}}}}},
			"labels":{"type":"object","additionalProperties":{"type":"string"}},
			"ap":{"type":"object","additionalProperties":false},
			"apt":{"type":"object","additionalProperties":true},
			"port":{"x-kubernetes-int-or-string":true},
			"deep":{"type":"object","additionalProperties":{"type":"object","properties":{"k":{"type":"string"}}}}
		}},
		"status":{"type":"object","properties":{"phase":{"type":"string"}}}}}`)
	tests := []struct {
		name   string
		isRoot bool
		in     string
		want   string
		paths  []string
	}{
		{"a known object is unchanged", true, `{"spec":{"items":[{"name":"a"}]}}`, `{"spec":{"items":[{"name":"a"}]}}`, nil},
		{"unknown fields are dropped and named with list indices", true,
			`{"spec":{"items":[{"name":"a"},{"name":"b","foo":1}],"bar":{"x":1}},"status":{"what":2},"top":1}`,
			`{"spec":{"items":[{"name":"a"},{"name":"b"}]},"status":{}}`,
			[]string{"spec.bar", "spec.items[1].foo", "status.what", "top"}},
		{"at the root apiVersion and kind are kept and metadata is pruned to ObjectMeta, reported first", true,
			`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","foo":"bar","ownerReferences":[{"uid":"u","x":1}],"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}]},"zzz":1}`,
			`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","ownerReferences":[{"uid":"u"}],"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}]}}`,
			[]string{"metadata.foo", "metadata.ownerReferences[0].x", "zzz"}},
		{"below the root, apiVersion, kind and metadata are ordinary fields", false,
			`{"kind":"x","spec":{"kind":"y"}}`, `{"spec":{}}`, []string{"spec.kind"}},
		{"preserve-unknown-fields keeps unknown fields but prunes declared ones", true,
			`{"spec":{"free":{"x":1,"known":{"a":"s","b":2}}}}`, `{"spec":{"free":{"x":1,"known":{"a":"s"}}}}`,
			[]string{"spec.free.known.b"}},
		{"an embedded resource keeps apiVersion, kind and metadata, pruned to ObjectMeta and reported last", true,
			`{"spec":{"emb":{"apiVersion":"v1","kind":"Foo","metadata":{"name":"x","bogus":1},"spec":{"x":"1","y":2},"other":3}},"a":1}`,
			`{"spec":{"emb":{"apiVersion":"v1","kind":"Foo","metadata":{"name":"x"},"spec":{"x":"1"}}}}`,
			[]string{"a", "spec.emb.other", "spec.emb.spec.y", "spec.emb.metadata.bogus"}},
		{"additionalProperties declares every key", true, `{"spec":{"labels":{"a":"1"},"deep":{"k1":{"k":"v","x":1}}}}`,
			`{"spec":{"labels":{"a":"1"},"deep":{"k1":{"k":"v"}}}}`, []string{"spec.deep.k1.x"}},
		{"additionalProperties true or false keeps keys but empties nested objects, as kube does", true,
			`{"spec":{"ap":{"z":{"q":1}},"apt":{"z":{"q":1},"y":2}}}`,
			`{"spec":{"ap":{"z":{}},"apt":{"z":{},"y":2}}}`, []string{"spec.ap.z.q", "spec.apt.z.q"}},
		{"an int-or-string keeps any scalar", true, `{"spec":{"port":"http"}}`, `{"spec":{"port":"http"}}`, nil},
		{"a value of the wrong type is left for validation", true, `{"spec":"x"}`, `{"spec":"x"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := object(t, tt.in)
			paths := s.Prune(obj, tt.isRoot)
			assert.JSONEq(t, tt.want, toJSON(t, obj))
			assert.Equal(t, tt.paths, nilIfEmpty(paths))
		})
	}
}

func TestPruneOfNilObjectOrSchema(t *testing.T) {
	s := mustSchema(t, `{"type":"object"}`)
	assert.Nil(t, s.Prune(nil, true))
	var none *Schema
	obj := object(t, `{"a":1,"kind":"K"}`)
	assert.Equal(t, []string{"a", "kind"}, none.Prune(obj, false), "a nil schema declares nothing")
	assert.Empty(t, obj)
}
