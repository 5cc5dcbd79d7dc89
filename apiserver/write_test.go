package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPatch(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"p","labels":{"a":"1"}},"data":{"k":"v","n":"0"}}`).code)
	tests := []struct {
		name, contentType, patch string
		code                     int
		check                    func(t *testing.T, r response)
	}{
		{name: "a merge patch merges maps and deletes with null", contentType: mergePatchType,
			patch: `{"metadata":{"labels":{"b":"2"}},"data":{"k":null,"x":"y"}}`, code: 200,
			check: func(t *testing.T, r response) {
				assert.Equal(t, map[string]any{"a": "1", "b": "2"}, field(r.body, "metadata.labels"))
				assert.Equal(t, map[string]any{"n": "0", "x": "y"}, r.body["data"])
			}},
		{name: "a JSON patch applies its operations in order", contentType: jsonPatchType,
			patch: `[{"op":"test","path":"/data/n","value":"0"},{"op":"replace","path":"/data/n","value":"1"}]`, code: 200,
			check: func(t *testing.T, r response) { assert.Equal(t, "1", field(r.body, "data.n")) }},
		{name: "a failed JSON patch test is kube's generic 422", contentType: jsonPatchType,
			patch: `[{"op":"test","path":"/data/n","value":"nope"}]`, code: 422,
			check: func(t *testing.T, r response) {
				assert.Equal(t, "Invalid", r.body["reason"])
				assert.Equal(t, "the server rejected our request due to an error in our request", r.body["message"])
				assert.Equal(t, map[string]any{}, r.body["details"])
			}},
		{name: "a patch that changes the uid is Invalid", contentType: mergePatchType,
			patch: `{"metadata":{"uid":"other"}}`, code: 422,
			check: func(t *testing.T, r response) {
				assert.Equal(t, `ConfigMap "p" is invalid: metadata.uid: Invalid value: "other": field is immutable`, r.body["message"])
				cause := map[string]any{"reason": "FieldValueInvalid", "message": `Invalid value: "other": field is immutable`, "field": "metadata.uid"}
				assert.Equal(t, []any{cause, cause}, field(r.body, "details.causes"), "kube reports it twice (docs/kube-behaviour/04-writes.md)")
			}},
		{name: "a JSON patch that is not a list is 400", contentType: jsonPatchType, patch: `{"op":"x"}`, code: 400,
			check: func(t *testing.T, r response) {
				assert.Equal(t, "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp", r.body["message"])
			}},
		{name: "a patch carrying a stale resourceVersion is a Conflict", contentType: mergePatchType,
			patch: `{"metadata":{"resourceVersion":"1"}}`, code: 409},
		{name: "an unknown patch type is 415", contentType: "application/foo", patch: `{}`, code: 415,
			check: func(t *testing.T, r response) {
				assert.Equal(t, "415: Unsupported Media Type", r.body["message"])
				assert.Equal(t, map[string]any{}, r.body["details"])
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.do("PATCH", cmPath+"/p", tt.patch, "Content-Type", tt.contentType)
			require.Equal(t, tt.code, r.code, string(r.raw))
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
	t.Run("an apply that would create an object with a uid is a Conflict", func(t *testing.T) {
		for _, dryRun := range []string{"", "&dryRun=All"} {
			r := ts.do("PATCH", cmPath+"/new?fieldManager=m"+dryRun, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"new","uid":"sent"}}`,
				"Content-Type", applyPatchType)
			require.Equal(t, http.StatusConflict, r.code, string(r.raw))
			assert.Equal(t, `Operation cannot be fulfilled on configmaps "new": uid mismatch: the provided object specified uid sent, and no existing object was found`, r.body["message"])
			assert.Equal(t, map[string]any{"name": "new", "kind": "configmaps"}, r.body["details"])
		}
		assert.Equal(t, http.StatusNotFound, ts.do("GET", cmPath+"/new", "").code)
	})
	t.Run("a patch of a missing object is NotFound", func(t *testing.T) {
		r := ts.do("PATCH", cmPath+"/missing", `{}`, "Content-Type", mergePatchType)
		assert.Equal(t, http.StatusNotFound, r.code)
	})
}

func TestConcurrentPatchesLoseNoUpdate(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"counter"},"data":{"n":"0"}}`).code)
	// Each patch reads the counter, then tests and replaces it: a JSON patch
	// retried server-side on conflict would double-count, so each client
	// retries on 422 itself, like a compare-and-swap loop.
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; {
				cur := ts.do("GET", cmPath+"/counter", "")
				n := 0
				fmt.Sscan(field(cur.body, "data.n").(string), &n)
				patch := fmt.Sprintf(`[{"op":"test","path":"/data/n","value":"%d"},{"op":"replace","path":"/data/n","value":"%d"}]`, n, n+1)
				if r := ts.do("PATCH", cmPath+"/counter", patch, "Content-Type", jsonPatchType); r.code == http.StatusOK {
					i++
				}
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, "80", field(ts.do("GET", cmPath+"/counter", "").body, "data.n"))
}

func TestDryRun(t *testing.T) {
	ts := newTestServer(t)
	t.Run("a dry-run create answers the would-be object and stores nothing", func(t *testing.T) {
		r := ts.do("POST", cmPath+"?dryRun=All", `{"metadata":{"name":"dry"}}`)
		require.Equal(t, http.StatusCreated, r.code, string(r.raw))
		assert.NotEmpty(t, field(r.body, "metadata.uid"))
		assert.Equal(t, http.StatusNotFound, ts.do("GET", cmPath+"/dry", "").code)
	})
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"real"},"data":{"a":"1"}}`).code)
	t.Run("a dry-run create of an existing name is AlreadyExists", func(t *testing.T) {
		assert.Equal(t, http.StatusConflict, ts.do("POST", cmPath+"?dryRun=All", `{"metadata":{"name":"real"}}`).code)
	})
	t.Run("a dry-run update and patch change nothing", func(t *testing.T) {
		r := ts.do("PUT", cmPath+"/real?dryRun=All", `{"metadata":{"name":"real"},"data":{"a":"2"}}`)
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "2", field(r.body, "data.a"))
		r = ts.do("PATCH", cmPath+"/real?dryRun=All", `{"data":{"a":"3"}}`, "Content-Type", mergePatchType)
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "3", field(r.body, "data.a"))
		assert.Equal(t, "1", field(ts.do("GET", cmPath+"/real", "").body, "data.a"))
	})
	t.Run("a dry-run delete keeps the object", func(t *testing.T) {
		require.Equal(t, http.StatusOK, ts.do("DELETE", cmPath+"/real?dryRun=All", "").code)
		assert.Equal(t, http.StatusOK, ts.do("GET", cmPath+"/real", "").code)
	})
	t.Run("any other dryRun value is Invalid with a cause on dryRun", func(t *testing.T) {
		r := ts.do("POST", cmPath+"?dryRun=Some", `{"metadata":{"name":"x"}}`)
		require.Equal(t, http.StatusUnprocessableEntity, r.code)
		assert.Equal(t, `CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{"Some"}: supported values: "All"`, r.body["message"])
		assert.Equal(t, "dryRun", field(r.body, "details.causes").([]any)[0].(map[string]any)["field"])
	})
}

// denyLabel is a validating plugin that refuses objects with a label.
type denyLabel struct{}

func (denyLabel) Validate(_ context.Context, req *AdmissionRequest) error {
	if req.Object != nil && req.Object.Labels()["deny"] != "" {
		return errors.New("objects labelled deny are not allowed")
	}
	return nil
}

// addAnnotation is a mutating plugin that stamps every created object.
type addAnnotation struct{ seen *[]*AdmissionRequest }

func (a addAnnotation) Admit(_ context.Context, req *AdmissionRequest) error {
	*a.seen = append(*a.seen, req)
	if req.Operation == OperationCreate {
		req.Object.MetadataForWrite()["annotations"] = map[string]any{"admitted": "yes"}
	}
	return nil
}

// sideEffects is a plugin that must never run on a dry run.
type sideEffects struct{}

func (sideEffects) Validate(context.Context, *AdmissionRequest) error { return nil }
func (sideEffects) HasSideEffects() bool                              { return true }

func TestAdmission(t *testing.T) {
	var seen []*AdmissionRequest
	srv, err := New(Config{Resources: testResources, Admission: []any{addAnnotation{&seen}, denyLabel{}}})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ts := &testServer{t: t, srv: srv, url: hs.URL}

	r := ts.do("POST", cmPath, `{"metadata":{"name":"a"}}`)
	require.Equal(t, http.StatusCreated, r.code, string(r.raw))
	assert.Equal(t, "yes", field(r.body, "metadata.annotations.admitted"), "mutating admission changes the stored object")
	require.NotEmpty(t, seen)
	assert.Equal(t, OperationCreate, seen[0].Operation)
	assert.Equal(t, "configmaps", seen[0].Resource.Resource)

	r = ts.do("POST", cmPath, `{"metadata":{"name":"b","labels":{"deny":"x"}}}`)
	require.Equal(t, http.StatusForbidden, r.code)
	assert.Equal(t, `configmaps "b" is forbidden: objects labelled deny are not allowed`, r.body["message"])

	r = ts.do("PUT", cmPath+"/a", `{"metadata":{"name":"a","labels":{"deny":"x"}}}`)
	require.Equal(t, http.StatusForbidden, r.code, "validating admission sees updates")
	last := seen[len(seen)-1]
	assert.Equal(t, OperationUpdate, last.Operation)
	assert.Equal(t, "a", last.OldObject.Name())

	withSideEffects, err := New(Config{Resources: testResources, Admission: []any{sideEffects{}}})
	require.NoError(t, err)
	hs2 := httptest.NewServer(withSideEffects)
	defer hs2.Close()
	ts2 := &testServer{t: t, srv: withSideEffects, url: hs2.URL}
	assert.Equal(t, http.StatusBadRequest, ts2.do("POST", cmPath+"?dryRun=All", `{"metadata":{"name":"x"}}`).code,
		"a plugin with side effects fails a dry run")
	assert.Equal(t, http.StatusCreated, ts2.do("POST", cmPath, `{"metadata":{"name":"x"}}`).code)

	_, err = New(Config{Admission: []any{42}})
	assert.Error(t, err, "a plugin must implement an admission interface")
}

func TestFieldValidationOfDuplicates(t *testing.T) {
	ts := newTestServer(t)
	body := `{"metadata":{"name":"fv"},"data":{"k":"v"},"data":{"k":"w"}}`
	r := ts.do("POST", cmPath+"?fieldValidation=Strict", body)
	require.Equal(t, http.StatusBadRequest, r.code, string(r.raw))
	assert.Equal(t, `ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data"`, r.body["message"])

	r = ts.do("POST", cmPath, body)
	require.Equal(t, http.StatusCreated, r.code, "no fieldValidation behaves like Warn")
	assert.Equal(t, []string{`299 - "duplicate field \"data\""`}, r.header.Values("Warning"))
	assert.Equal(t, "w", field(r.body, "data.k"), "the last duplicate wins")

	r = ts.do("PUT", cmPath+"/fv?fieldValidation=Ignore", `{"metadata":{"name":"fv"},"data":{},"data":{"k":"x"}}`)
	require.Equal(t, http.StatusOK, r.code)
	assert.Empty(t, r.header.Values("Warning"))

	r = ts.do("POST", cmPath+"?fieldValidation=Foo", `{"metadata":{"name":"x"}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code)
	assert.Equal(t, `CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Foo": supported values: "", "Ignore", "Strict", "Warn"`, r.body["message"])
}
