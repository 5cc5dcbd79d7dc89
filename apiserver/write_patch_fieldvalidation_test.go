package apiserver_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/internal/benchkit"
)

// A merge patch's unknown fields are reported against the merged document,
// before pruning: warnings in its order, and Strict's 422 quoting it.
func TestAMergePatchReportsUnknownFieldsAgainstTheMergedDocument(t *testing.T) {
	h := newBenchServer(t, benchConfig())
	path := "/api/v1/namespaces/default/configmaps"
	benchkit.MustServe(t, h, http.StatusCreated, "POST", path, "application/json", []byte(`{"metadata":{"name":"fv"},"data":{"k":"v"}}`))
	patch := `{"zzz":1,"data":{"k":"w"},"aaa":{"x":1}}`
	do := func(query string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("PATCH", path+"/fv"+query, strings.NewReader(patch))
		r.Header.Set("Content-Type", "application/merge-patch+json")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}

	t.Run("Strict refuses it with 422 on patch, quoting the unpruned merge", func(t *testing.T) {
		w := do("?fieldValidation=Strict")
		require.Equal(t, http.StatusUnprocessableEntity, w.Code, w.Body.String())
		var st map[string]any
		require.NoError(t, json.Unmarshal(w.Body.Bytes(), &st))
		msg, _ := st["message"].(string)
		assert.True(t, strings.HasPrefix(msg, ` "" is invalid: patch: Invalid value: "{`), msg)
		assert.Contains(t, msg, `\"aaa\":{\"x\":1}`)
		assert.Contains(t, msg, `\"zzz\":1`)
		assert.True(t, strings.HasSuffix(msg, `: strict decoding error: unknown field "aaa", unknown field "zzz"`), msg)
		_, body := benchkit.Serve(h, "GET", path+"/fv", "", nil)
		assert.Contains(t, string(body), `"k":"v"`, "nothing was written")
	})
	t.Run("Warn applies it pruned, warning in the merged document's order", func(t *testing.T) {
		w := do("")
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		assert.Equal(t, []string{`299 - "unknown field \"aaa\""`, `299 - "unknown field \"zzz\""`}, w.Header().Values("Warning"))
		assert.NotContains(t, w.Body.String(), "zzz")
		assert.Contains(t, w.Body.String(), `"k":"w"`)
	})
}
