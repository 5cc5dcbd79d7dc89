package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The patched document kube's merge patch library (json-patch v4) writes,
// held to its output for the same inputs.
func TestMergedDocumentIsWrittenAsKubesLibraryWritesIt(t *testing.T) {
	const current = `{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a","uid":"u","labels":{"z":"1","b":"2"}},"data":{"k":"v"}}`
	tests := []struct{ name, patch, want string }{
		{"the top level is sorted, what is untouched is kept as written", `{"bogus":1}`,
			`{"apiVersion":"v1","bogus":1,"data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"a","uid":"u","labels":{"z":"1","b":"2"}}}`},
		{"an object merged into is sorted", `{"metadata":{"x":"y"}}`,
			`{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"labels":{"z":"1","b":"2"},"name":"a","uid":"u","x":"y"}}`},
		{"a null removes a member", `{"data":null,"metadata":{"labels":{"z":null}}}`,
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"labels":{"b":"2"},"name":"a","uid":"u"}}`},
		{"an added object is sorted and loses its nulls", `{"spec":{"y":[{"b":1,"a":null}],"x":null}}`,
			`{"apiVersion":"v1","data":{"k":"v"},"kind":"ConfigMap","metadata":{"name":"a","uid":"u","labels":{"z":"1","b":"2"}},"spec":{"y":[{"b":1}]}}`},
		{"a value replacing an object is kept as written", `{"data":[{"b":1, "a":2}]}`,
			`{"apiVersion":"v1","data":[{"b":1,"a":2}],"kind":"ConfigMap","metadata":{"name":"a","uid":"u","labels":{"z":"1","b":"2"}}}`},
		{"HTML is escaped as encoding/json escapes it", `{"data":{"k":"<&>"}}`,
			`{"apiVersion":"v1","data":{"k":"\u003c\u0026\u003e"},"kind":"ConfigMap","metadata":{"name":"a","uid":"u","labels":{"z":"1","b":"2"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := mergedDocument([]byte(current), []byte(tt.patch))
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// A JSON patch's result is quoted with its members sorted; what is no
// object is quoted as it is.
func TestPatchedDocumentSortsTheMembers(t *testing.T) {
	assert.Equal(t, `{"apiVersion":"v1","data":{"z":1,"a":2},"kind":"ConfigMap"}`,
		string(patchedDocument([]byte(`{"kind":"ConfigMap","apiVersion":"v1","data":{"z":1,"a":2}}`))))
	assert.Equal(t, `[1]`, string(patchedDocument([]byte(`[1]`))))
}
