package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestFinalizingANamespaceThatIsGoneAnswersAsKube: a PUT of /finalize of a
// namespace gone meanwhile (the namespace controller was first) answers
// kube's 409 when the body carries the uid the client read (kube's UID
// precondition meets an empty object), and 404 without one
// (docs/kube-behaviour/09-controllers.md).
func TestFinalizingANamespaceThatIsGoneAnswersAsKube(t *testing.T) {
	srv := newClusterServer(t, builtin.Options{})
	cases := []struct {
		name, body, message string
		code                int
	}{
		{name: "with the uid it read", code: http.StatusConflict,
			body: `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"gone","uid":"0c4b6c8d-0000-4000-8000-000000000001"},"spec":{"finalizers":[]}}`,
			message: `Operation cannot be fulfilled on namespaces "gone": StorageError: invalid object, Code: 4, Key: /registry/namespaces/gone, ` +
				`ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 0c4b6c8d-0000-4000-8000-000000000001, UID in object meta: `},
		{name: "without a uid", code: http.StatusNotFound,
			body:    `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"gone"},"spec":{"finalizers":[]}}`,
			message: `namespaces "gone" not found`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out := serve(t, srv, "PUT", "/api/v1/namespaces/gone/finalize", "application/json", c.body)
			assert.Equal(t, c.code, code)
			assert.Equal(t, c.message, out["message"])
			assert.Equal(t, map[string]any{"name": "gone", "kind": "namespaces"}, out["details"])
		})
	}
}
