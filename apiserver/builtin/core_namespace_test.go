package builtin_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// TestFinalizingANamespaceThatIsGoneAnswersAsKube: a PUT of /finalize of a
// namespace gone meanwhile (the namespace controller was first) answers
// 404 without a uid in the body; with the uid the client read, kube 1.33
// answers its UID precondition's 409 (the precondition meets an empty
// object) and kube 1.37 the 404 (docs/kube-behaviour/09-controllers.md).
func TestFinalizingANamespaceThatIsGoneAnswersAsKube(t *testing.T) {
	const withUID = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"gone","uid":"0c4b6c8d-0000-4000-8000-000000000001"},"spec":{"finalizers":[]}}`
	const withoutUID = `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"gone"},"spec":{"finalizers":[]}}`
	const notFound = `namespaces "gone" not found`
	cases := []struct {
		name          string
		release       apiserver.Release
		body, message string
		code          int
	}{
		{name: "kube 1.33 answers a body with the uid it read 409", release: apiserver.Release133, code: http.StatusConflict, body: withUID,
			message: `Operation cannot be fulfilled on namespaces "gone": StorageError: invalid object, Code: 4, Key: /registry/namespaces/gone, ` +
				`ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: 0c4b6c8d-0000-4000-8000-000000000001, UID in object meta: `},
		{name: "kube 1.33 answers a body without a uid 404", release: apiserver.Release133, code: http.StatusNotFound, body: withoutUID, message: notFound},
		{name: "kube 1.37 answers a body with the uid it read 404", release: apiserver.Release137, code: http.StatusNotFound, body: withUID, message: notFound},
		{name: "kube 1.37 answers a body without a uid 404", release: apiserver.Release137, code: http.StatusNotFound, body: withoutUID, message: notFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := newClusterServerAt(t, c.release, builtin.Options{}, nil)
			code, out := serve(t, srv, "PUT", "/api/v1/namespaces/gone/finalize", "application/json", c.body)
			assert.Equal(t, c.code, code)
			assert.Equal(t, c.message, out["message"])
			assert.Equal(t, map[string]any{"name": "gone", "kind": "namespaces"}, out["details"])
		})
	}
}
