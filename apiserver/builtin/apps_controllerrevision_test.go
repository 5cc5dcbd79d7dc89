package builtin_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// rawBody answers one request and returns its status and body as sent.
func rawBody(t *testing.T, h http.Handler, method, path, contentType, body string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// TestControllerRevisionDataReadsBackAsSent holds a ControllerRevision's
// data, a RawExtension, to kube's: the bytes the client sent (compacted,
// keys in its order, numbers as written), on the write's answer and on
// every read after, and after a patch that leaves it alone; a YAML body is
// JSON with sorted keys, as kube converts it
// (docs/kube-behaviour/18-validation-misc.md).
func TestControllerRevisionDataReadsBackAsSent(t *testing.T) {
	const data = `{"spec":{"template":{"$patch":"replace","z":1.50,"a":"<b>"}},"b":[3,1],"a":true}`
	const want = `"data":{"spec":{"template":{"$patch":"replace","z":1.50,"a":"\u003cb\u003e"}},"b":[3,1],"a":true}`
	const path = "/apis/apps/v1/namespaces/default/controllerrevisions"
	newServer := func(t *testing.T) http.Handler {
		srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources()})
		require.NoError(t, err)
		return srv
	}
	t.Run("the create's answer and every read", func(t *testing.T) {
		srv := newServer(t)
		code, out := rawBody(t, srv, "POST", path, "application/json", `{"metadata":{"name":"r1"},"revision":1,"data": `+data+` }`)
		require.Equal(t, http.StatusCreated, code, out)
		assert.Contains(t, out, want)
		for range 2 { // the second read is of the compacted version
			code, out = rawBody(t, srv, "GET", path+"/r1", "", "")
			require.Equal(t, http.StatusOK, code, out)
			assert.Contains(t, out, want)
		}
		code, out = rawBody(t, srv, "GET", path, "", "")
		require.Equal(t, http.StatusOK, code, out)
		assert.Contains(t, out, want)
	})
	t.Run("a patch that leaves data alone", func(t *testing.T) {
		srv := newServer(t)
		code, out := rawBody(t, srv, "POST", path, "application/json", `{"metadata":{"name":"r1"},"revision":1,"data":`+data+`}`)
		require.Equal(t, http.StatusCreated, code, out)
		code, out = rawBody(t, srv, "GET", path+"/r1", "", "") // compacts it
		require.Equal(t, http.StatusOK, code, out)
		code, out = rawBody(t, srv, "PATCH", path+"/r1", "application/merge-patch+json", `{"metadata":{"labels":{"x":"y"}}}`)
		require.Equal(t, http.StatusOK, code, out)
		assert.Contains(t, out, want)
	})
	t.Run("a PUT of the same data", func(t *testing.T) {
		srv := newServer(t)
		code, out := rawBody(t, srv, "POST", path, "application/json", `{"metadata":{"name":"r1"},"revision":1,"data":`+data+`}`)
		require.Equal(t, http.StatusCreated, code, out)
		code, out = rawBody(t, srv, "PUT", path+"/r1", "application/json", `{"metadata":{"name":"r1","labels":{"x":"y"}},"revision":1,"data":`+data+`}`)
		require.Equal(t, http.StatusOK, code, out)
		assert.Contains(t, out, want)
	})
	t.Run("a server-side apply over it", func(t *testing.T) {
		srv := newServer(t)
		code, out := rawBody(t, srv, "POST", path, "application/json", `{"metadata":{"name":"r1"},"revision":1,"data":`+data+`}`)
		require.Equal(t, http.StatusCreated, code, out)
		code, out = rawBody(t, srv, "GET", path+"/r1", "", "") // compacts it
		require.Equal(t, http.StatusOK, code, out)
		code, out = rawBody(t, srv, "PATCH", path+"/r1?fieldManager=kubectl&force=true", "application/apply-patch+yaml",
			`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"r1","labels":{"x":"y"}},"revision":1,"data":`+data+`}`)
		require.Equal(t, http.StatusOK, code, out)
		assert.Contains(t, out, `"x":"y"`)
	})
	t.Run("a YAML body", func(t *testing.T) {
		srv := newServer(t)
		code, out := rawBody(t, srv, "POST", path, "application/yaml", "metadata: {name: r1}\nrevision: 1\ndata: {z: 1, a: 2}\n")
		require.Equal(t, http.StatusCreated, code, out)
		assert.Contains(t, out, `"data":{"a":2,"z":1}`)
	})
	t.Run("a change of data is refused", func(t *testing.T) {
		srv := newServer(t)
		code, out := rawBody(t, srv, "POST", path, "application/json", `{"metadata":{"name":"r1"},"revision":1,"data":`+data+`}`)
		require.Equal(t, http.StatusCreated, code, out)
		code, out = rawBody(t, srv, "PATCH", path+"/r1", "application/merge-patch+json", `{"data":{"a":false}}`)
		require.Equal(t, http.StatusUnprocessableEntity, code, out)
		// kube 1.37 prints the value as JSON (1.33: runtime.RawExtension{Raw:[]uint8{...}}).
		assert.Contains(t, out, `data: Invalid value: {\"a\":false,`)
	})
}
