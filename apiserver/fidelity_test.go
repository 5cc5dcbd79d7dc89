package apiserver_test

// Fidelity regression tests (found by difftest): each holds kapi
// to what kube-apiserver 1.33 answered to the same request, as recorded in
// docs/kube-behaviour/08-fidelity.md.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/apiserver/builtin"
)

// kubeServer is a server with the built-in kinds, their schemas and
// OpenAPI, as the example server has them (less protobuf).
type kubeServer struct {
	t   *testing.T
	url string
}

func newKubeServer(t *testing.T) *kubeServer {
	t.Helper()
	return newKubeServerAt(t, apiserver.DefaultRelease)
}

// newKubeServerAt is newKubeServer answering as release r: for answers
// that kube changed between releases.
func newKubeServerAt(t *testing.T, r apiserver.Release) *kubeServer {
	t.Helper()
	srv, err := apiserver.New(apiserver.Config{Resources: builtin.Resources(), OpenAPIComponents: builtin.OpenAPIComponents(), Release: r})
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &kubeServer{t: t, url: hs.URL}
}

// kubeAnswer is a response, its JSON body decoded when it has one.
type kubeAnswer struct {
	code   int
	header http.Header
	raw    string
	body   any
}

// do sends a request with a JSON body ("" for none) and header pairs; a
// Content-Type among them replaces application/json.
func (ks *kubeServer) do(method, path, body string, headers ...string) kubeAnswer {
	ks.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, ks.url+path, rd)
	require.NoError(ks.t, err)
	req.Header.Set("User-Agent", "difftest/1.0")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(ks.t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(ks.t, err)
	a := kubeAnswer{code: resp.StatusCode, header: resp.Header, raw: string(raw)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && len(raw) > 0 {
		require.NoError(ks.t, json.Unmarshal(raw, &a.body), string(raw))
	}
	return a
}

// must sends a request that has to answer code.
func (ks *kubeServer) must(code int, method, path, body string, headers ...string) kubeAnswer {
	ks.t.Helper()
	a := ks.do(method, path, body, headers...)
	require.Equal(ks.t, code, a.code, "%s %s: %s", method, path, a.raw)
	return a
}

// absent marks a path kube's answer does not have.
const absent = "<absent>"

// kubeSays checks an answer against kube's: its code, and the JSON value at
// each dotted path of the body (list indices are numbers), or absent.
func kubeSays(t *testing.T, a kubeAnswer, code int, want map[string]string) {
	t.Helper()
	require.Equal(t, code, a.code, a.raw)
	for path, w := range want {
		got, ok := at(a.body, path)
		if w == absent {
			assert.False(t, ok, "%s: kube has none, kapi has %v", path, got)
			continue
		}
		var wantValue any
		require.NoError(t, json.Unmarshal([]byte(w), &wantValue), "want of %s", path)
		if assert.True(t, ok, "%s: kube has %s, kapi has none\n%s", path, w, a.raw) {
			assert.Equal(t, wantValue, got, "%s\n%s", path, a.raw)
		}
	}
}

// at reads a dotted path of a decoded JSON value.
func at(v any, path string) (any, bool) {
	for _, p := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[p]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// The namespace strategy prepares a write after its fields are tracked:
// the "kubernetes" finalizer it adds on create is nobody's, and an update
// keeps the stored spec.finalizers. The metadata.name label is a default,
// set on every write before tracking.
func TestNamespaceStrategyRunsAfterFieldTracking(t *testing.T) {
	ks := newKubeServer(t)
	t.Run("a create owns the label but not the finalizer kube adds", func(t *testing.T) {
		a := ks.do("POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"plain"}}`)
		kubeSays(t, a, 201, map[string]string{
			"spec.finalizers":                   `["kubernetes"]`,
			"status":                            `{"phase":"Active"}`,
			"metadata.managedFields.0.fieldsV1": `{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}}}`,
		})
	})
	t.Run("a create with a generateName gets the label of its generated name, owned by nobody", func(t *testing.T) {
		a := ks.do("POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"generateName":"gen-"}}`)
		require.Equal(t, 201, a.code)
		name, _ := at(a.body, "metadata.name")
		kubeSays(t, a, 201, map[string]string{
			"metadata.labels":                   `{"kubernetes.io/metadata.name":"` + name.(string) + `"}`,
			"metadata.managedFields.0.fieldsV1": `{"f:metadata":{"f:generateName":{}}}`,
		})
	})
	t.Run("a create's own finalizers are kept, owned, and kubernetes appended", func(t *testing.T) {
		a := ks.do("POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"own"},"spec":{"finalizers":["foo.io/x"]}}`)
		kubeSays(t, a, 201, map[string]string{
			"spec.finalizers":                   `["foo.io/x","kubernetes"]`,
			"metadata.managedFields.0.fieldsV1": `{"f:metadata":{"f:labels":{".":{},"f:kubernetes.io/metadata.name":{}}},"f:spec":{"f:finalizers":{}}}`,
		})
	})
	t.Run("an update without spec keeps the finalizers and gets the label again", func(t *testing.T) {
		a := ks.do("PUT", "/api/v1/namespaces/own", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"own","labels":{"a":"b"}}}`)
		kubeSays(t, a, 200, map[string]string{
			"spec.finalizers": `["foo.io/x","kubernetes"]`,
			"status":          `{"phase":"Active"}`,
			"metadata.labels": `{"a":"b","kubernetes.io/metadata.name":"own"}`,
		})
		// kube's writer also loses f:spec.f:finalizers here: it tracks the
		// request, which has none, before its strategy restores them. kapi
		// prepares an update before tracking (a known difference).
	})
	t.Run("an update that changes the finalizers does not change them", func(t *testing.T) {
		// kube also records the writer as owning f:spec.f:finalizers (it
		// tracks fields before its strategy restores them); kapi's strategy
		// prepares an update before tracking, so nobody owns them.
		a := ks.do("PUT", "/api/v1/namespaces/plain", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"plain"},"spec":{"finalizers":["foo.io/y"]}}`)
		kubeSays(t, a, 200, map[string]string{"spec.finalizers": `["kubernetes"]`})
	})
}

// Field validation warnings are written on every answer, errors included.
func TestWarningsGoWithErrorAnswers(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cm1"}}`)
	tests := []struct {
		name, method, path, body string
		code                     int
		warnings                 []string
	}{
		{name: "a create of an existing name warns of its unknown and duplicate fields", method: "POST",
			path: "/api/v1/namespaces/default/configmaps",
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm1","bogusMeta":"y"},"data":{"k":"v","k":"w"},"unknownTop":"x"}`,
			code: 409, warnings: []string{`299 - "unknown field \"metadata.bogusMeta\""`, `299 - "duplicate field \"data.k\""`,
				`299 - "unknown field \"unknownTop\""`}},
		{name: "an update of a missing object warns of its unknown field", method: "PUT",
			path: "/api/v1/namespaces/default/configmaps/missing",
			body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"missing","bogusMeta":"y"}}`,
			code: 404, warnings: []string{`299 - "unknown field \"metadata.bogusMeta\""`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ks.do(tt.method, tt.path, tt.body)
			require.Equal(t, tt.code, a.code, a.raw)
			assert.Equal(t, tt.warnings, a.header.Values("Warning"))
		})
	}
}

// An error Status that no representation the client accepts can carry is
// written as raw, indented JSON without a trailing newline.
func TestErrorsNoAcceptedRepresentationCarriesAreIndentedJSON(t *testing.T) {
	ks := newKubeServer(t)
	for _, accept := range []string{
		"application/json;as=Table;v=v1;g=meta.k8s.io",
		"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
	} {
		t.Run(accept, func(t *testing.T) {
			a := ks.do("GET", "/api/v1/namespaces/default/configmaps/missing", "", "Accept", accept)
			kubeSays(t, a, 404, map[string]string{"reason": `"NotFound"`, "details": `{"name":"missing","kind":"configmaps"}`})
			assert.Equal(t, "application/json", a.header.Get("Content-Type"))
			assert.True(t, strings.HasPrefix(a.raw, "{\n  \"kind\": \"Status\",\n"), a.raw)
			assert.True(t, strings.HasSuffix(a.raw, "\n  \"code\": 404\n}"), a.raw)
		})
	}
	t.Run("an accepted representation besides is compact", func(t *testing.T) {
		a := ks.do("GET", "/api/v1/namespaces/default/configmaps/missing", "", "Accept",
			"application/json;as=Table;v=v1;g=meta.k8s.io, application/json")
		require.Equal(t, 404, a.code)
		assert.True(t, strings.HasSuffix(a.raw, "}\n") && !strings.Contains(a.raw, "\n  "), a.raw)
	})
}

// A list with resourceVersion=0 ignores limit, as kube's watch cache
// serves it; list options are validated before the field selector is
// converted, and the continue token is read before the resourceVersion,
// which it forbids before the resourceVersion is parsed.
func TestListOptionsAsKubeReadsThem(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"cm1"}}`)
	ks.must(201, "POST", path, `{"metadata":{"name":"cm2"}}`)
	t.Run("resourceVersion=0 lists everything, without continue", func(t *testing.T) {
		kubeSays(t, ks.do("GET", path+"?limit=1&resourceVersion=0", ""), 200, map[string]string{
			"items.1.metadata.name": `"cm2"`, "metadata.continue": absent, "metadata.remainingItemCount": absent})
	})
	t.Run("resourceVersion=0 with NotOlderThan too", func(t *testing.T) {
		kubeSays(t, ks.do("GET", path+"?limit=1&resourceVersion=0&resourceVersionMatch=NotOlderThan", ""), 200, map[string]string{
			"items.1.metadata.name": `"cm2"`, "metadata.continue": absent})
	})
	t.Run("a limit without resourceVersion pages", func(t *testing.T) {
		kubeSays(t, ks.do("GET", path+"?limit=1", ""), 200, map[string]string{"items.1": absent, "metadata.remainingItemCount": "1"})
	})
	tests := []struct{ name, query, reason, message string }{
		{"resourceVersionMatch without resourceVersion is Invalid before an unknown field selector", "?fieldSelector=data.k1%3Dv1&resourceVersionMatch=NotOlderThan",
			"Invalid", `ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided`},
		{"sendInitialEvents on a list is Invalid before an unknown field selector", "?fieldSelector=metadata.uid%3Dx&sendInitialEvents=true&resourceVersion=abc",
			"Invalid", `ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list`},
		{"an unknown field selector is refused before a bad resourceVersion", "?fieldSelector=metadata.uid%3Dx&resourceVersion=abc",
			"BadRequest", `"metadata.uid" is not a known field selector: only "metadata.name", "metadata.namespace"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ks.do("GET", path+tt.query, "")
			code := 400
			if tt.reason == "Invalid" {
				code = 422
			}
			kubeSays(t, a, code, map[string]string{"reason": strconv.Quote(tt.reason), "message": strconv.Quote(tt.message)})
		})
	}
	t.Run("a bad continue token is refused before a bad resourceVersion", func(t *testing.T) {
		a := ks.do("GET", path+"?continue=garbage&resourceVersion=abc", "")
		require.Equal(t, 400, a.code)
		msg, _ := at(a.body, "message")
		assert.Contains(t, msg, "invalid continue token")
	})
	t.Run("a resourceVersion with a continue token is refused before it is read", func(t *testing.T) {
		cont, _ := at(ks.must(200, "GET", path+"?limit=1", "").body, "metadata.continue")
		for _, limit := range []string{"", "&limit=1", "&limit=-1"} {
			kubeSays(t, ks.do("GET", path+"?continue="+cont.(string)+"&resourceVersion=abc"+limit, ""), 400, map[string]string{
				"reason": `"BadRequest"`, "message": `"specifying resource version is not allowed when using continue"`})
		}
	})
}

// DeleteOptions come from the body when there is one (the query is then not
// read) or from the query, whose uid and resourceVersion are
// preconditions; they are validated as kube validates them.
func TestDeleteOptionsAsKubeReadsThem(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"d1"}}`)
	tests := []struct {
		name, query, body string
		code              int
		want              map[string]string
	}{
		{name: "an unknown propagationPolicy is Invalid", query: "?propagationPolicy=Bogus", code: 422, want: map[string]string{
			"message": `"DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""`,
			"details": `{"group":"meta.k8s.io","kind":"DeleteOptions","causes":[{"reason":"FieldValueNotSupported","message":"Unsupported value: \"Bogus\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"","field":"propagationPolicy"}]}`}},
		{name: "an unknown propagationPolicy in the body is Invalid", body: `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Bogus"}`,
			code: 422, want: map[string]string{"details.causes.0.field": `"propagationPolicy"`}},
		{name: "orphanDependents with a propagationPolicy is Invalid", body: `{"orphanDependents":true,"propagationPolicy":"Background"}`,
			code: 422, want: map[string]string{
				"message": `"DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Background\": orphanDependents and deletionPropagation cannot be both set"`}},
		{name: "a dryRun other than All in the body is Invalid", body: `{"dryRun":["Bogus"]}`, code: 422, want: map[string]string{
			"message": `"DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: []string{\"Bogus\"}: supported values: \"All\""`}},
		{name: "the query's resourceVersion is a precondition", query: "?resourceVersion=0", code: 409, want: map[string]string{
			"reason": `"Conflict"`, "details": `{"name":"d1","kind":"ConfigMap"}`}},
		{name: "the query's uid is a precondition", query: "?uid=abc", code: 409, want: map[string]string{
			"reason": `"Conflict"`, "details": `{"name":"d1","kind":"ConfigMap"}`}},
		{name: "a gracePeriodSeconds that is no number is BadRequest", query: "?gracePeriodSeconds=abc", code: 400, want: map[string]string{
			"message": `"strconv.ParseInt: parsing \"abc\": invalid syntax"`}},
		{name: "a body wins over the query, which is not read", query: "?dryRun=All&propagationPolicy=Bogus", body: `null`, code: 200,
			want: map[string]string{"status": `"Success"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kubeSays(t, ks.do("DELETE", path+"/d1"+tt.query, tt.body), tt.code, tt.want)
		})
	}
	ks.must(404, "GET", path+"/d1", "")
}

// A DeleteOptions body kube cannot decode is a 500 in kube-apiserver; kapi
// answers 400 BadRequest with kube's message (an intended difference).
func TestMalformedDeleteOptionsBodiesAreBadRequests(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"d1"}}`)
	tests := []struct{ body, message string }{
		{`{"preconditions":`, "couldn't get version/kind; json parse error: unexpected end of JSON input"},
		{`[]`, `couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`},
		{`{"kind":"Pod","apiVersion":"v1"}`, `no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"`},
		{`{"kind":"Status","apiVersion":"v1"}`, `converting (v1.Status) to (v1.DeleteOptions): unknown conversion`},
		{`{"gracePeriodSeconds":"x"}`, "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64"},
		{`{"dryRun":"All"}`, "json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string"},
		{`{"orphanDependents":"yes"}`, "json: cannot unmarshal string into Go struct field DeleteOptions.orphanDependents of type bool"},
		{`{"preconditions":{"uid":5}}`, "json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID"},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			kubeSays(t, ks.do("DELETE", path+"/d1", tt.body), 400, map[string]string{
				"reason": `"BadRequest"`, "message": strconv.Quote(tt.message)})
		})
	}
	ks.must(200, "GET", path+"/d1", "")
}

// A delete's propagation policy sets the garbage collector's finalizers
// before anything else; an object left with finalizers is marked and
// returned, one left without is deleted.
func TestDeletionPropagationSetsFinalizers(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	for _, n := range []string{"d2", "d3"} {
		ks.must(201, "POST", path, `{"metadata":{"name":"`+n+`"}}`)
	}
	t.Run("Foreground adds foregroundDeletion and marks the object, with grace 0 whatever was asked", func(t *testing.T) {
		kubeSays(t, ks.do("DELETE", path+"/d2?propagationPolicy=Foreground&gracePeriodSeconds=30", ""), 200, map[string]string{
			"kind": `"ConfigMap"`, "metadata.finalizers": `["foregroundDeletion"]`, "metadata.deletionGracePeriodSeconds": "0"})
		kubeSays(t, ks.do("GET", path+"/d2", ""), 200, map[string]string{"metadata.finalizers": `["foregroundDeletion"]`})
	})
	t.Run("Orphan in the body adds orphan", func(t *testing.T) {
		kubeSays(t, ks.do("DELETE", path+"/d3", `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Orphan"}`), 200, map[string]string{
			"kind": `"ConfigMap"`, "metadata.finalizers": `["orphan"]`, "metadata.deletionGracePeriodSeconds": "0"})
	})
	t.Run("Background takes orphan away, and the object without finalizers goes", func(t *testing.T) {
		kubeSays(t, ks.do("DELETE", path+"/d3?propagationPolicy=Background", ""), 200, map[string]string{
			"kind": `"Status"`, "status": `"Success"`})
		ks.must(404, "GET", path+"/d3", "")
	})
	t.Run("a dry run shows the finalizer and stores nothing", func(t *testing.T) {
		ks.must(201, "POST", path, `{"metadata":{"name":"d4"}}`)
		kubeSays(t, ks.do("DELETE", path+"/d4?propagationPolicy=Orphan&dryRun=All", ""), 200, map[string]string{
			"metadata.finalizers": `["orphan"]`})
		kubeSays(t, ks.do("GET", path+"/d4", ""), 200, map[string]string{"metadata.finalizers": absent, "metadata.deletionTimestamp": absent})
	})
	t.Run("a marked object with a generation has it bumped", func(t *testing.T) {
		ks.must(201, "POST", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
		kubeSays(t, ks.do("DELETE", "/apis/apps/v1/namespaces/default/deployments/web?propagationPolicy=Foreground", ""), 200, map[string]string{
			"metadata.generation": "2", "metadata.finalizers": `["foregroundDeletion"]`})
	})
}

// deletecollection answers the list as it read it, before the deletions;
// with a limit it deletes and answers only the first page.
func TestDeleteCollectionAnswersWhatItListed(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	held := ks.must(201, "POST", path, `{"metadata":{"name":"held","labels":{"g":"y"},"finalizers":["example.com/hold"]}}`)
	for _, n := range []string{"a", "b", "c"} {
		ks.must(201, "POST", path, `{"metadata":{"name":"`+n+`","labels":{"g":"x"}}}`)
	}
	rv, _ := at(held.body, "metadata.resourceVersion")
	t.Run("an object its finalizer keeps shows as listed", func(t *testing.T) {
		kubeSays(t, ks.do("DELETE", path+"?labelSelector=g%3Dy", ""), 200, map[string]string{
			"items.0.metadata.name": `"held"`, "items.0.metadata.deletionTimestamp": absent,
			"items.0.metadata.resourceVersion": strconv.Quote(rv.(string))})
		kubeSays(t, ks.do("GET", path+"/held", ""), 200, map[string]string{"metadata.deletionGracePeriodSeconds": "0"})
	})
	t.Run("a limit deletes the first page only and answers it with its continue", func(t *testing.T) {
		a := ks.do("DELETE", path+"?labelSelector=g%3Dx&limit=2", "")
		kubeSays(t, a, 200, map[string]string{"items.0.metadata.name": `"a"`, "items.1.metadata.name": `"b"`, "items.2": absent})
		cont, _ := at(a.body, "metadata.continue")
		assert.NotEmpty(t, cont)
		ks.must(200, "GET", path+"/c", "")
		ks.must(404, "GET", path+"/a", "")
	})
}

// A patch body is decoded after the object is read: a bad patch of a
// missing object is a 404, of an existing one a 400. That is kube 1.33;
// 1.37 checks the body first (TestPatchBodyCheckedBeforeTheObjectPerRelease).
func TestPatchOfAMissingObjectIsNotFoundWhateverItsBody(t *testing.T) {
	ks := newKubeServerAt(t, apiserver.Release133)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"cm1"}}`)
	for _, tt := range []struct{ contentType, body string }{
		{"application/json-patch+json", `[{"op":"add",`},
		{"application/json-patch+json", `{"op":"add"}`},
		{"application/merge-patch+json", `[1,2]`},
		{"application/merge-patch+json", `{"data":`},
		{"application/strategic-merge-patch+json", `{"data":`},
	} {
		t.Run(tt.contentType+" "+tt.body, func(t *testing.T) {
			kubeSays(t, ks.do("PATCH", path+"/missing", tt.body, "Content-Type", tt.contentType), 404, map[string]string{
				"reason": `"NotFound"`, "details": `{"name":"missing","kind":"configmaps"}`})
			kubeSays(t, ks.do("PATCH", path+"/cm1", tt.body, "Content-Type", tt.contentType), 400, map[string]string{"reason": `"BadRequest"`})
		})
	}
	t.Run("an apply through /status, which does not create, is a 404 too", func(t *testing.T) {
		kubeSays(t, ks.do("PATCH", "/apis/apps/v1/namespaces/default/deployments/missing/status?fieldManager=m", "a: [b",
			"Content-Type", "application/apply-patch+yaml"), 404, map[string]string{
			"details": `{"name":"missing","group":"apps","kind":"deployments"}`})
	})
}

// A built-in kind's body is decoded into a Go type in kube: a key given
// twice with object values merges; a custom resource's keeps the last.
func TestDuplicateKeysMergeInBuiltinKindsOnly(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	t.Run("a ConfigMap merges its duplicate objects, arrays are replaced", func(t *testing.T) {
		kubeSays(t, ks.do("POST", path+"?fieldValidation=Ignore",
			`{"metadata":{"name":"m1"},"metadata":{"labels":{"a":"b"},"finalizers":["a.io/x"]},"metadata":{"finalizers":["b.io/y"]},"data":{"x":"1"},"data":{"y":"2"}}`),
			201, map[string]string{"metadata.name": `"m1"`, "metadata.labels": `{"a":"b"}`, "metadata.finalizers": `["b.io/y"]`,
				"data": `{"x":"1","y":"2"}`})
	})
	t.Run("an update merges its duplicate labels", func(t *testing.T) {
		kubeSays(t, ks.do("PUT", path+"/m1?fieldValidation=Ignore",
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"labels":{"dup":"1","dup":"2"},"labels":{"tier":"be"},"name":"m1"}}`),
			200, map[string]string{"metadata.labels": `{"dup":"2","tier":"be"}`,
				"metadata.managedFields.0.fieldsV1": `{"f:metadata":{"f:labels":{".":{},"f:dup":{},"f:tier":{}}}}`})
	})
	t.Run("a custom resource keeps the last value", func(t *testing.T) {
		ks.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
		kubeSays(t, ks.do("POST", "/apis/fid.example.com/v1/namespaces/default/widgets?fieldValidation=Ignore",
			`{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"w2"},"spec":{"x":"1"},"spec":{"y":"2"}}`),
			201, map[string]string{"spec": `{"y":"2"}`})
	})
}

// A timeout that is no Go duration is refused in front of every request
// but the long-running ones, as kube's request-deadline filter does.
func TestAnInvalidTimeoutIsABadRequest(t *testing.T) {
	ks := newKubeServer(t)
	for _, path := range []string{"/api/v1/namespaces/default/configmaps?timeout=invalid", "/version?timeout=invalid", "/api?timeout=invalid"} {
		t.Run(path, func(t *testing.T) {
			kubeSays(t, ks.do("GET", path, ""), 400, map[string]string{"reason": `"BadRequest"`,
				"message": `"invalid timeout specified in the request URL - time: invalid duration \"invalid\""`})
		})
	}
	for _, path := range []string{"/api/v1/namespaces/default/configmaps?timeout=5s", "/api/v1/namespaces/default/configmaps?timeout=-5s",
		"/api/v1/namespaces/default/configmaps?watch=1&timeout=invalid&timeoutSeconds=1"} {
		t.Run(path, func(t *testing.T) { ks.must(200, "GET", path, "") })
	}
}

// A built-in kind's list in YAML has items without apiVersion and kind, as
// in JSON; a custom resource's items keep theirs.
func TestYAMLListItemsOfBuiltinKindsHaveNoTypeMeta(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"cm1"}}`)
	a := ks.must(200, "GET", "/api/v1/namespaces/default/configmaps", "", "Accept", "application/yaml")
	assert.Equal(t, "application/yaml", a.header.Get("Content-Type"))
	assert.True(t, strings.HasPrefix(a.raw, "apiVersion: v1\nitems:\n- metadata:\n"), a.raw)
	assert.Equal(t, 1, strings.Count(a.raw, "apiVersion:"), a.raw)
	ks.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
	ks.must(201, "POST", "/apis/fid.example.com/v1/namespaces/default/widgets", `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"w"}}`)
	a = ks.must(200, "GET", "/apis/fid.example.com/v1/namespaces/default/widgets", "", "Accept", "application/yaml")
	assert.True(t, strings.HasPrefix(a.raw, "apiVersion: fid.example.com/v1\nitems:\n- apiVersion: fid.example.com/v1\n  kind: Widget\n"), a.raw)
}

// CRD names are validated as kube validates them: DNS-1035 labels, kind and
// listKind lower-cased first, so a lower-case kind or listKind is accepted.
func TestCRDNamesAreValidatedAsKubeDoes(t *testing.T) {
	ks := newKubeServer(t)
	crd := func(plural, names string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"` + plural +
			`.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":` + names +
			`,"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`
	}
	const crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"
	t.Run("a lower-case kind and listKind are accepted and served", func(t *testing.T) {
		ks.must(201, "POST", crds, crd("fooxxs5jas", `{"plural":"fooxxs5jas","kind":"fooxxs5ja","listKind":"fooxxs5jalist"}`))
		ks.must(201, "POST", "/apis/fid.example.com/v1/namespaces/default/fooxxs5jas", `{"apiVersion":"fid.example.com/v1","kind":"fooxxs5ja","metadata":{"name":"f"}}`)
		kubeSays(t, ks.do("GET", "/apis/fid.example.com/v1/namespaces/default/fooxxs5jas", ""), 200, map[string]string{
			"kind": `"fooxxs5jalist"`, "items.0.metadata.name": `"f"`})
	})
	t.Run("invalid names are reported in kube's order and words", func(t *testing.T) {
		const label = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
		a := ks.do("POST", crds, crd("bads", `{"plural":"bads","kind":"Foo_Bar","listKind":"9List","shortNames":["Bad"],"categories":["all","x_y"],"singular":"Bad"}`))
		require.Equal(t, 422, a.code, a.raw)
		causes, _ := at(a.body, "details.causes")
		var got [][2]string
		for _, c := range causes.([]any) {
			m := c.(map[string]any)
			got = append(got, [2]string{m["field"].(string), m["message"].(string)})
		}
		assert.Equal(t, [][2]string{
			{"spec.names.singular", `Invalid value: "Bad": ` + label},
			{"spec.names.kind", `Invalid value: "Foo_Bar": may have mixed case, but should otherwise match: ` + label},
			{"spec.names.listKind", `Invalid value: "9List": may have mixed case, but should otherwise match: ` + label},
			{"spec.names.shortNames[0]", `Invalid value: "Bad": ` + label},
			{"spec.names.categories[1]", `Invalid value: "x_y": ` + label},
		}, got)
	})
}

// Metadata is validated as kube composes its validation: on create the
// kind's checks (finalizer names of built-in kinds included), and the
// registry's path-segment name check only when they pass; on update the
// registry's checks, the kind's metadata-update checks, and for ConfigMaps
// the create checks again, so one problem can be several causes.
func TestObjectMetaValidationIsComposedAsKubes(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	const (
		labelMsg = `Invalid value: "bad value!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
		annoMsg  = `Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
		finMsg   = `Invalid value: "Bad Fin!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
		hold     = `Invalid value: "hold": name is neither a standard finalizer name nor is it fully qualified`
		badFin   = `Invalid value: "Bad Fin!": name is neither a standard finalizer name nor is it fully qualified`
		subdom   = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`
	)
	badMeta := `"labels":{"a":"bad value!"},"finalizers":["hold","Bad Fin!"],"annotations":{"bad key!":"x"}`
	causes := func(a kubeAnswer) [][2]string {
		var out [][2]string
		list, _ := at(a.body, "details.causes")
		for _, c := range list.([]any) {
			m := c.(map[string]any)
			out = append(out, [2]string{m["field"].(string), m["message"].(string)})
		}
		return out
	}
	t.Run("a create reports each problem once, finalizer names twice", func(t *testing.T) {
		a := ks.do("POST", path, `{"metadata":{"name":"u2",`+badMeta+`}}`)
		require.Equal(t, 422, a.code, a.raw)
		assert.Equal(t, [][2]string{{"metadata.labels", labelMsg}, {"metadata.annotations", annoMsg}, {"metadata.finalizers", finMsg},
			{"metadata.finalizers[0]", hold}, {"metadata.finalizers[1]", badFin}}, causes(a))
	})
	t.Run("an update of a ConfigMap reports them as kube 1.33's four passes do", func(t *testing.T) {
		ks := newKubeServerAt(t, apiserver.Release133)
		ks.must(201, "POST", path, `{"metadata":{"name":"u1"}}`)
		a := ks.do("PUT", path+"/u1", `{"metadata":{"name":"u1",`+badMeta+`}}`)
		require.Equal(t, 422, a.code, a.raw)
		assert.Equal(t, [][2]string{
			{"metadata.labels", labelMsg}, {"metadata.annotations", annoMsg}, {"metadata.finalizers", finMsg},
			{"metadata.labels", labelMsg}, {"metadata.annotations", annoMsg},
			{"metadata.labels", labelMsg}, {"metadata.annotations", annoMsg}, {"metadata.finalizers[0]", hold}, {"metadata.finalizers[1]", badFin},
			{"metadata.labels", labelMsg}, {"metadata.annotations", annoMsg}, {"metadata.finalizers", finMsg},
			{"metadata.finalizers[0]", hold}, {"metadata.finalizers[1]", badFin},
		}, causes(a))
		msg, _ := at(a.body, "message")
		assert.Equal(t, 5, strings.Count(msg.(string), ": Invalid value: "), "the message names each problem once")
	})
	t.Run("an update of a ConfigMap reports each cause once from kube 1.37", func(t *testing.T) {
		ks := newKubeServerAt(t, apiserver.Release137)
		ks.must(201, "POST", path, `{"metadata":{"name":"u1"}}`)
		a := ks.do("PUT", path+"/u1", `{"metadata":{"name":"u1",`+badMeta+`}}`)
		require.Equal(t, 422, a.code, a.raw)
		assert.Equal(t, [][2]string{{"metadata.labels", labelMsg}, {"metadata.annotations", annoMsg}, {"metadata.finalizers", finMsg},
			{"metadata.finalizers[0]", hold}, {"metadata.finalizers[1]", badFin}}, causes(a))
	})
	const forbidden = `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/other"}`
	for _, tc := range []struct {
		name    string
		release apiserver.Release
		causes  int
	}{
		{"a new finalizer on an object being deleted is two causes, one message, in kube 1.33", apiserver.Release133, 2},
		{"a new finalizer on an object being deleted is one cause from kube 1.37", apiserver.Release137, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ks := newKubeServerAt(t, tc.release)
			ks.must(201, "POST", path, `{"metadata":{"name":"held","finalizers":["example.com/hold"]}}`)
			ks.must(200, "DELETE", path+"/held", "")
			a := ks.do("PATCH", path+"/held", `{"metadata":{"finalizers":["example.com/other"]}}`, "Content-Type", "application/merge-patch+json")
			want := [][2]string{}
			for range tc.causes {
				want = append(want, [2]string{"metadata.finalizers", forbidden})
			}
			assert.Equal(t, want, causes(a))
			kubeSays(t, a, 422, map[string]string{"message": strconv.Quote(`ConfigMap "held" is invalid: metadata.finalizers: ` + forbidden)})
		})
	}
	t.Run("a name with a slash fails the kind's rule; the path-segment rule is not reached", func(t *testing.T) {
		a := ks.do("POST", path, `{"metadata":{"name":"with/slash"}}`)
		assert.Equal(t, [][2]string{{"metadata.name", `Invalid value: "with/slash": ` + subdom}}, causes(a))
	})
	t.Run("an invalid generateName is reported before the name generated from it", func(t *testing.T) {
		a := ks.do("POST", path, `{"metadata":{"generateName":"Gen_"}}`)
		got := causes(a)
		require.Len(t, got, 2, a.raw)
		assert.Equal(t, [2]string{"metadata.generateName", `Invalid value: "Gen_": ` + subdom}, got[0])
		assert.Equal(t, "metadata.name", got[1][0])
	})
	t.Run("a generateName may end with a dash", func(t *testing.T) {
		ks.must(201, "POST", path, `{"metadata":{"generateName":"gen-"}}`)
	})
}

// A ConfigMap's keys and size are validated as kube's ValidateConfigMap
// does, and an immutable one refuses changes.
func TestConfigMapValidation(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	k254 := strings.Repeat("k", 254)
	t.Run("bad keys, a key in data and binaryData", func(t *testing.T) {
		a := ks.do("POST", path, `{"metadata":{"name":"v1"},"data":{"`+k254+`":"v","bad key":"x","..a":"y","k1":"v1"},"binaryData":{"k1":"djE=",".":"eA=="}}`)
		require.Equal(t, 422, a.code, a.raw)
		var fields []string
		list, _ := at(a.body, "details.causes")
		for _, c := range list.([]any) {
			fields = append(fields, c.(map[string]any)["field"].(string))
		}
		assert.Equal(t, []string{"data[..a]", "data[bad key]", "data[k1]", "data[" + k254 + "]", "binaryData[.]"}, fields)
		kubeSays(t, a, 422, map[string]string{
			"details.causes.1.message": `"Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"`,
			"details.causes.0.message": `"Invalid value: \"..a\": must not start with '..'"`,
			"details.causes.2.message": `"Invalid value: \"k1\": duplicate of key present in binaryData"`,
			"details.causes.4.message": `"Invalid value: \".\": must not be '.'"`,
		})
		msg, _ := at(a.body, "details.causes.3.message")
		assert.True(t, strings.HasSuffix(msg.(string), `": must be no more than 253 characters`), msg)
	})
	t.Run("more than 1 MiB of values", func(t *testing.T) {
		kubeSays(t, ks.do("POST", path, `{"metadata":{"name":"big"},"data":{"a":"`+strings.Repeat("x", 1<<20+1)+`"}}`), 422, map[string]string{
			"message": `"ConfigMap \"big\" is invalid: []: Too long: may not be more than 1048576 bytes"`,
			"details": `{"name":"big","kind":"ConfigMap","causes":[{"reason":"FieldValueTooLong","message":"Too long: may not be more than 1048576 bytes","field":"[]"}]}`})
	})
	t.Run("an immutable ConfigMap refuses a new value and a mutable flag", func(t *testing.T) {
		ks.must(201, "POST", path, `{"metadata":{"name":"frozen"},"immutable":true,"data":{"a":"1"}}`)
		kubeSays(t, ks.do("PUT", path+"/frozen", `{"metadata":{"name":"frozen"},"data":{"a":"2"}}`), 422, map[string]string{
			"message": "\"ConfigMap \\\"frozen\\\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]\""})
		ks.must(200, "PATCH", path+"/frozen", `{"metadata":{"labels":{"a":"b"}}}`, "Content-Type", "application/merge-patch+json")
	})
}

// A create that conflicts while it has a generateName, its name generated
// or given, is kube's GenerateNameConflict; a conflict with an object being
// deleted says so; a long generateName is cut to 58 characters before the
// suffix.
func TestGenerateNameConflictAndLength(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"cm-b"}}`)
	for _, query := range []string{"", "?dryRun=All"} {
		t.Run("a name with a generateName"+query, func(t *testing.T) {
			a := ks.do("POST", path+query, `{"metadata":{"name":"cm-b","generateName":"gen-"}}`)
			kubeSays(t, a, 409, map[string]string{"reason": `"AlreadyExists"`,
				"message": `"configmaps \"cm-b\" already exists, the server was not able to generate a unique name for the object"`,
				"details": `{"name":"cm-b","kind":"configmaps","retryAfterSeconds":1}`})
			assert.Equal(t, "1", a.header.Get("Retry-After"))
		})
	}
	t.Run("a name without generateName is the plain AlreadyExists", func(t *testing.T) {
		a := ks.do("POST", path, `{"metadata":{"name":"cm-b"}}`)
		kubeSays(t, a, 409, map[string]string{"details": `{"name":"cm-b","kind":"configmaps"}`})
		assert.Empty(t, a.header.Get("Retry-After"))
	})
	t.Run("a name taken by an object being deleted says so", func(t *testing.T) {
		ks.must(201, "POST", path, `{"metadata":{"name":"cm-held","finalizers":["example.com/hold"]}}`)
		ks.must(200, "DELETE", path+"/cm-held", "")
		for _, query := range []string{"", "?dryRun=All"} {
			kubeSays(t, ks.do("POST", path+query, `{"metadata":{"name":"cm-held"}}`), 409, map[string]string{"reason": `"AlreadyExists"`,
				"message": `"object is being deleted: configmaps \"cm-held\" already exists"`})
			kubeSays(t, ks.do("POST", path+query, `{"metadata":{"name":"cm-held","generateName":"gen-"}}`), 409, map[string]string{
				"message": `"object is being deleted: configmaps \"cm-held\" already exists, the server was not able to generate a unique name for the object"`})
		}
	})
	t.Run("a 71-character generateName keeps 58", func(t *testing.T) {
		prefix := strings.Repeat("g", 71)
		a := ks.must(201, "POST", path, `{"metadata":{"generateName":"`+prefix+`"}}`)
		name, _ := at(a.body, "metadata.name")
		assert.Len(t, name, 63)
		assert.True(t, strings.HasPrefix(name.(string), prefix[:58]))
		kubeSays(t, a, 201, map[string]string{"metadata.generateName": strconv.Quote(prefix)})
	})
}

// What kube's typed encoding omits is not stored: empty metadata values of
// every kind, empty optional maps and lists of built-in kinds; nor tracked.
func TestEmptyValuesKubeOmitsAreNotStored(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	t.Run("a ConfigMap's empty metadata, data and binaryData", func(t *testing.T) {
		kubeSays(t, ks.do("POST", path, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"e1","labels":{},"annotations":{},"finalizers":[],"generateName":""},"data":{},"binaryData":{}}`),
			201, map[string]string{"data": absent, "binaryData": absent, "metadata.labels": absent, "metadata.annotations": absent,
				"metadata.finalizers": absent, "metadata.generateName": absent, "metadata.managedFields": absent})
	})
	t.Run("a merge patch that empties the labels leaves none, tracked by nobody", func(t *testing.T) {
		ks.must(201, "POST", path, `{"metadata":{"name":"p1","labels":{"app":"web"}},"data":{"k3":"v"}}`)
		kubeSays(t, ks.do("PATCH", path+"/p1", `{"data":{"k3":"m1"},"metadata":{"labels":{"app":null}}}`, "Content-Type", "application/merge-patch+json"),
			200, map[string]string{"metadata.labels": absent, "data": `{"k3":"m1"}`,
				"metadata.managedFields.0.fieldsV1": `{"f:data":{".":{},"f:k3":{}}}`})
	})
	t.Run("a merge patch of empty labels onto none changes nothing", func(t *testing.T) {
		before := ks.must(200, "GET", path+"/p1", "")
		after := ks.must(200, "PATCH", path+"/p1", `{"metadata":{"labels":{}}}`, "Content-Type", "application/merge-patch+json")
		rv1, _ := at(before.body, "metadata.resourceVersion")
		rv2, _ := at(after.body, "metadata.resourceVersion")
		assert.Equal(t, rv1, rv2)
	})
	t.Run("a strategic merge patch deleting data leaves none", func(t *testing.T) {
		kubeSays(t, ks.do("PATCH", path+"/p1", `{"data":{"$patch":"delete"}}`, "Content-Type", "application/strategic-merge-patch+json"),
			200, map[string]string{"data": absent, "metadata.managedFields.0.fieldsV1": absent})
	})
	t.Run("a custom resource drops empty metadata but keeps its own empty values", func(t *testing.T) {
		ks.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
		kubeSays(t, ks.do("POST", "/apis/fid.example.com/v1/namespaces/default/widgets", `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"w1","labels":{},"annotations":{},"finalizers":[]},"spec":{"m":{},"l":[]}}`),
			201, map[string]string{"spec": `{"m":{},"l":[]}`, "metadata.labels": absent, "metadata.finalizers": absent,
				"metadata.managedFields.0.fieldsV1": `{"f:spec":{".":{},"f:l":{},"f:m":{}}}`})
	})
}

// An update's uid is a precondition checked before anything else, a
// missing object included; a resourceVersion that is no number fails as
// kube's storage fails it (500). That is kube 1.33; 1.37 answers the
// missing object 404 (TestUpdateOfAMissingObjectWithAUIDPerRelease).
func TestUpdatePreconditionsAsKubesStorageChecksThem(t *testing.T) {
	ks := newKubeServerAt(t, apiserver.Release133)
	const path = "/api/v1/namespaces/default/configmaps"
	created := ks.must(201, "POST", path, `{"metadata":{"name":"cm-d"}}`)
	uid, _ := at(created.body, "metadata.uid")
	const wrong = "00000000-0000-0000-0000-000000000000"
	t.Run("a wrong uid on a missing object is a Conflict, not NotFound", func(t *testing.T) {
		kubeSays(t, ks.do("PUT", path+"/missing", `{"metadata":{"name":"missing","resourceVersion":"","uid":"`+wrong+`"}}`), 409,
			map[string]string{"reason": `"Conflict"`, "message": strconv.Quote(`Operation cannot be fulfilled on configmaps "missing": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/missing, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ` + wrong + `, UID in object meta: `)})
	})
	t.Run("a wrong uid wins over a stale resourceVersion; the error names revision 0", func(t *testing.T) {
		kubeSays(t, ks.do("PUT", path+"/cm-d", `{"metadata":{"name":"cm-d","resourceVersion":"1","uid":"`+wrong+`"}}`), 409,
			map[string]string{"message": strconv.Quote(`Operation cannot be fulfilled on configmaps "cm-d": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/cm-d, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ` + wrong + `, UID in object meta: ` + uid.(string))})
	})
	t.Run("a resourceVersion that is no number is a 500 without reason", func(t *testing.T) {
		kubeSays(t, ks.do("PUT", path+"/cm-d", `{"metadata":{"name":"cm-d","resourceVersion":"abc"},"data":{"k2":"v3"}}`), 500,
			map[string]string{"reason": absent, "details": absent, "message": `"strconv.ParseUint: parsing \"abc\": invalid syntax"`})
	})
	t.Run("but on a missing object NotFound comes first", func(t *testing.T) {
		ks.must(404, "PUT", path+"/missing", `{"metadata":{"name":"missing","resourceVersion":"abc"}}`)
	})
}

// as=PartialObjectMetadata is chosen from Accept whether the request reads a
// list or not, and a list then refuses it with 406 (and the reverse); an
// empty PartialObjectMetadataList has null items.
func TestPartialObjectMetadataAsKubeNegotiatesIt(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"cm-c"}}`)
	t.Run("a list asked for PartialObjectMetadata is a 406, even with a fallback", func(t *testing.T) {
		for _, accept := range []string{"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
			"application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io, application/json"} {
			kubeSays(t, ks.do("GET", path, "", "Accept", accept), 406, map[string]string{"reason": `"NotAcceptable"`, "details": absent,
				"message": `"you requested PartialObjectMetadata, but the requested object is a list (*core.ConfigMapList)"`})
		}
	})
	t.Run("an object asked for PartialObjectMetadataList is a 406", func(t *testing.T) {
		ks.must(201, "POST", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"x"},"spec":{"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}`)
		kubeSays(t, ks.do("GET", "/apis/apps/v1/namespaces/default/deployments/x", "", "Accept", "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"),
			406, map[string]string{"message": `"you requested PartialObjectMetadataList, but the requested object is not a list (*apps.Deployment)"`})
		kubeSays(t, ks.do("GET", path+"/cm-c", "", "Accept", "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io"),
			406, map[string]string{"message": `"you requested PartialObjectMetadataList, but the requested object is not a list (*core.ConfigMap)"`})
	})
	t.Run("an empty PartialObjectMetadataList has null items", func(t *testing.T) {
		a := ks.do("GET", path+"?labelSelector=nothing%3Dhere", "", "Accept", "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io")
		kubeSays(t, a, 200, map[string]string{"kind": `"PartialObjectMetadataList"`, "items": "null"})
	})
}

// A JSON patch is applied as kube's library (json-patch v4) applies it: any
// list of operations decodes, one it cannot apply is the generic 422, and a
// replace of a member an object lacks adds it.
func TestJSONPatchAsKubesLibraryAppliesIt(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"jp","finalizers":["example.com/hold"]},"data":{"k1":"a"}}`)
	ks.must(200, "DELETE", path+"/jp", "")
	const generic = `"the server rejected our request due to an error in our request"`
	tests := []struct {
		name, patch string
		code        int
		want        map[string]string
	}{
		{"an unknown operation does not apply", `[{"op":"frob","path":"/data/k1","value":"x"}]`, 422, map[string]string{"message": generic, "details": "{}"}},
		{"an operation without path does not apply", `[{"op":"add"}]`, 422, map[string]string{"message": generic}},
		{"an element that is no operation is a BadRequest", `[1]`, 400, map[string]string{
			"message": `"error decoding patch: json: cannot unmarshal number into Go value of type handlers.jsonPatchOp"`}},
		{"re-adding the finalizers an object being deleted has is no new finalizer", `[{"op":"add","path":"/metadata/finalizers","value":["example.com/hold"]}]`,
			200, map[string]string{"metadata.finalizers": `["example.com/hold"]`}},
		{"a replace of a missing data key adds it", `[{"op":"replace","path":"/data/k2","value":"v1"}]`, 200, map[string]string{"data": `{"k1":"a","k2":"v1"}`}},
		{"a replace under a missing object does not apply", `[{"op":"replace","path":"/nope/k3","value":"v1"}]`, 422, map[string]string{"message": generic}},
		{"a remove of a missing key does not apply", `[{"op":"remove","path":"/data/zz"}]`, 422, map[string]string{"message": generic}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kubeSays(t, ks.do("PATCH", path+"/jp", tt.patch, "Content-Type", "application/json-patch+json"), tt.code, tt.want)
		})
	}
}

// A write's options are validated all at once, in kube's order: force (any
// value, on a non-apply patch) or a missing fieldManager for apply, the
// fieldManager, dryRun, fieldValidation.
func TestWriteOptionsAreValidatedAtOnce(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	tests := []struct{ name, method, path, contentType, message string }{
		{"force=false on a merge patch is forbidden, with a bad dryRun", "PATCH", path + "/cm-c?dryRun=&force=false", "application/merge-patch+json",
			`PatchOptions.meta.k8s.io "" is invalid: [force: Forbidden: may not be specified for non-apply patch, dryRun: Unsupported value: []string{""}: supported values: "All"]`},
		{"a create's three bad options", "POST", path + "?dryRun=Bogus&fieldValidation=Bogus&fieldManager=a%01b", "application/json",
			`CreateOptions.meta.k8s.io "" is invalid: [fieldManager: Invalid value: "a\x01b": invalid character U+0001 (at position 1), dryRun: Unsupported value: []string{"Bogus"}: supported values: "All", fieldValidation: Unsupported value: "Bogus": supported values: "", "Ignore", "Strict", "Warn"]`},
		{"an apply without fieldManager, with a bad dryRun", "PATCH", path + "/cm-c?dryRun=x", "application/apply-patch+yaml",
			`PatchOptions.meta.k8s.io "" is invalid: [fieldManager: Required value: is required for apply patch, dryRun: Unsupported value: []string{"x"}: supported values: "All"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kubeSays(t, ks.do(tt.method, tt.path, `{}`, "Content-Type", tt.contentType), 422, map[string]string{"message": strconv.Quote(tt.message)})
		})
	}
}

// A value kube's typed decoding refuses is a 400 before anything else: an
// update's too, before the object is looked up; metadata that is no object
// too. Go's decoder names the struct holding the field and its Go type.
func TestTypedDecodeErrorsComeFirst(t *testing.T) {
	ks := newKubeServer(t)
	const prefix = `ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal `
	tests := []struct{ body, message string }{
		{`{"metadata":"str"}`, `string into Go struct field ConfigMap.metadata of type v1.ObjectMeta`},
		{`{"metadata":{"name":"t1","labels":"x"}}`, `string into Go struct field ObjectMeta.metadata.labels of type map[string]string`},
		{`{"metadata":{"name":"t1"},"data":"x"}`, `string into Go struct field ConfigMap.data of type map[string]string`},
		{`{"metadata":{"name":"t1"},"data":{"a":1}}`, `number into Go struct field ConfigMap.data of type string`},
		{`{"metadata":{"name":"t1","finalizers":"x"}}`, `string into Go struct field ObjectMeta.metadata.finalizers of type []string`},
		{`{"metadata":{"name":5}}`, `number into Go struct field ObjectMeta.metadata.name of type string`},
		{`{"metadata":{"name":"t1"},"immutable":"yes"}`, `string into Go struct field ConfigMap.immutable of type bool`},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			for _, method := range []string{"PUT", "POST"} {
				path := "/api/v1/namespaces/default/configmaps"
				if method == "PUT" {
					path += "/t1" // missing: the 400 comes before the 404
				}
				kubeSays(t, ks.do(method, path, tt.body), 400, map[string]string{"message": `"` + prefix + strings.ReplaceAll(tt.message, `"`, `\"`) + `"`})
			}
		})
	}
}

// A field selector that pins metadata.name reads that one key in a
// namespace: no pages, so no continue whatever the limit.
func TestAListPinnedToANameHasNoPages(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	for _, n := range []string{"cm-a", "cm-b", "cm-c"} {
		ks.must(201, "POST", path, `{"metadata":{"name":"`+n+`"}}`)
	}
	kubeSays(t, ks.do("GET", path+"?limit=1&fieldSelector=metadata.name%3Dcm-a", ""), 200, map[string]string{
		"items.0.metadata.name": `"cm-a"`, "metadata.continue": absent, "metadata.remainingItemCount": absent})
	a := ks.do("GET", path+"?limit=1&fieldSelector=metadata.name%21%3Dcm-a", "")
	cont, _ := at(a.body, "metadata.continue")
	assert.NotEmpty(t, cont, "another selector still pages")
}

// More of json-patch v4: a member an object lacks reads as null, so a copy
// from it copies null (a "" in a map of strings) and a test of it for null
// passes.
func TestJSONPatchReadsAMissingMemberAsNull(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"cp"},"data":{"k1":"a"}}`)
	kubeSays(t, ks.do("PATCH", path+"/cp", `[{"from":"/data/k2","op":"copy","path":"/data/k3"}]`, "Content-Type", "application/json-patch+json"),
		200, map[string]string{"data": `{"k1":"a","k3":""}`})
	ks.must(200, "PATCH", path+"/cp", `[{"op":"test","path":"/data/zz","value":null}]`, "Content-Type", "application/json-patch+json")
	ks.must(422, "PATCH", path+"/cp", `[{"op":"test","path":"/data/zz","value":"x"}]`, "Content-Type", "application/json-patch+json")
	ks.must(422, "PATCH", path+"/cp", `[{"op":"move","from":"/data/zz","path":"/data/k5"}]`, "Content-Type", "application/json-patch+json")
}

// A null in a built-in kind's map of strings is the Go zero value, "".
func TestNullsInTypedMapsAreZeroValues(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	kubeSays(t, ks.do("POST", path, `{"metadata":{"name":"nv","labels":{"x":null}},"data":{"a":null,"b":"x"}}`), 201,
		map[string]string{"data": `{"a":"","b":"x"}`, "metadata.labels": `{"x":""}`})
	kubeSays(t, ks.do("PATCH", path+"/nv", `{"data":{"b":null}}`, "Content-Type", "application/merge-patch+json"), 200,
		map[string]string{"data": `{"a":""}`})
}

// Field validation of patches as kube's: a strategic merge patch's own
// duplicate keys are reported, before unknown fields; an apply body is
// decoded strictly after it is applied (go-yaml's messages, one warning
// each, or a 400 under Strict).
func TestPatchFieldValidationAsKubes(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"la"}}`)
	t.Run("a strategic merge patch warns of its duplicate keys", func(t *testing.T) {
		a := ks.must(200, "PATCH", path+"/la?fieldValidation=Warn", `{"data":{"k9":"dup1","k9":"dup2"},"spec":{"x":1}}`,
			"Content-Type", "application/strategic-merge-patch+json")
		assert.Equal(t, []string{`299 - "duplicate field \"data.k9\""`, `299 - "unknown field \"spec\""`}, a.header.Values("Warning"))
	})
	apply := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: la\n  name: la\ndata:\n  x: \"1\"\n  x: \"2\"\n"
	t.Run("an apply body's duplicate keys are warnings", func(t *testing.T) {
		a := ks.must(200, "PATCH", path+"/la?fieldManager=m2", apply, "Content-Type", "application/apply-patch+yaml")
		assert.Equal(t, []string{`299 - "line 5: key \"name\" already set in map"`, `299 - "line 8: key \"x\" already set in map"`},
			a.header.Values("Warning"))
		assert.Empty(t, ks.must(200, "PATCH", path+"/la?fieldManager=m2&fieldValidation=Ignore", apply,
			"Content-Type", "application/apply-patch+yaml").header.Values("Warning"))
	})
	t.Run("and under Strict a BadRequest", func(t *testing.T) {
		kubeSays(t, ks.do("PATCH", path+"/la?fieldManager=m2&fieldValidation=Strict",
			"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: la\nkind: ConfigMap\n", "Content-Type", "application/apply-patch+yaml"),
			400, map[string]string{"message": `"error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 5: key \"kind\" already set in map"`})
	})
}

// An exact list of a future resourceVersion is etcd's refusal, at once, in
// kube 1.33; from 1.34 kube waits for it and answers 504 (read_watch_test.go).
func TestAnExactListOfAFutureRevisionIsEtcdsError(t *testing.T) {
	ks := newKubeServerAt(t, apiserver.Release133)
	for _, q := range []string{"?resourceVersion=1000000&resourceVersionMatch=Exact", "?resourceVersion=1000000&limit=2"} {
		kubeSays(t, ks.do("GET", "/api/v1/namespaces/default/configmaps"+q, ""), 500, map[string]string{
			"reason": absent, "message": `"etcdserver: mvcc: required revision is a future revision"`})
	}
}

// A create that names a resourceVersion is refused by kube's storage (500);
// a dry run does not reach it and shows the version sent; a create through
// an update (PUT of a Lease, apply) gets the store's.
func TestCreateWithAResourceVersion(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	kubeSays(t, ks.do("POST", path, `{"metadata":{"name":"rv1","resourceVersion":"5"}}`), 500, map[string]string{
		"reason": absent, "message": `"resourceVersion should not be set on objects to be created"`})
	kubeSays(t, ks.do("POST", path+"?dryRun=All", `{"metadata":{"name":"dr1","resourceVersion":"55"}}`), 201,
		map[string]string{"metadata.resourceVersion": `"55"`})
	ks.must(201, "POST", path, `{"metadata":{"name":"rv0","resourceVersion":"0"}}`)
	ks.must(201, "POST", path, `{"metadata":{"name":"rvabc","resourceVersion":"abc"}}`)
	a := ks.must(201, "PATCH", path+"/ap1?fieldManager=m2", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap1","resourceVersion":"7079"}}`,
		"Content-Type", "application/apply-patch+yaml")
	rv, _ := at(a.body, "metadata.resourceVersion")
	assert.NotEqual(t, "7079", rv)
	kubeSays(t, ks.do("PATCH", path+"/ap2?fieldManager=m2&dryRun=All", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"ap2","resourceVersion":"7079"}}`,
		"Content-Type", "application/apply-patch+yaml"), 201, map[string]string{"metadata.resourceVersion": `"7079"`})
}

// With a name-pinning field selector a limit does not make the list's
// resourceVersion exact: the object is read as it is now.
func TestANamePinnedListWithALimitReadsTheCurrentObject(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	first := ks.must(201, "POST", path, `{"metadata":{"name":"before"}}`)
	ks.must(201, "POST", path, `{"metadata":{"name":"cm-a"}}`)
	stale, _ := at(first.body, "metadata.resourceVersion")
	kubeSays(t, ks.do("GET", path+"?limit=500&fieldSelector=metadata.name%3D%3Dcm-a&resourceVersion="+stale.(string), ""), 200,
		map[string]string{"items.0.metadata.name": `"cm-a"`})
}

// A merge patch's own duplicate keys are reported first, then the unknown
// fields of the patched object, in its order.
func TestMergePatchDuplicatesAreReported(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"la"}}`)
	a := ks.must(200, "PATCH", path+"/la?fieldValidation=Warn", `{"spec":{"x":1},"data":{"k9":"dup1","k9":"dup2","k1":"v1"},"apiVersion":"v1","zz":1}`,
		"Content-Type", "application/merge-patch+json")
	assert.Equal(t, []string{`299 - "duplicate field \"data.k9\""`, `299 - "unknown field \"spec\""`, `299 - "unknown field \"zz\""`},
		a.header.Values("Warning"))
}

// A watch from a future resourceVersion answers 200 at once and then stays
// silent until its timeout. No event ever comes and the watch lasts an hour,
// so the headers can reach the client before its deadline only if the server
// sends them at once (the deadline is long so that a loaded machine is no
// reason to fail).
func TestAWatchFromTheFutureAnswersAtOnce(t *testing.T) {
	ks := newKubeServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", ks.url+"/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=1000000&timeoutSeconds=3600", nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "the headers come before the client's deadline")
	defer resp.Body.Close()
	assert.Equal(t, 200, resp.StatusCode)
}

// The legacy /watch/ path without the watch parameter is validated as a
// list, as kube validates by the parameter.
func TestTheLegacyWatchPathIsValidatedAsAList(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(200, "GET", "/api/v1/watch/namespaces/default/configmaps?resourceVersion=1&resourceVersionMatch=NotOlderThan&timeoutSeconds=1", "")
	kubeSays(t, ks.do("GET", "/api/v1/watch/namespaces/default/configmaps?watch=1&resourceVersion=1&resourceVersionMatch=NotOlderThan&timeoutSeconds=1", ""),
		422, map[string]string{"message": `"ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"`})
}

// The answer's representation is negotiated before anything else (after a
// patch's Content-Type): with only text/plain accepted a missing object is
// a 406, not a 404, and so is an invalid list.
func TestTheAnswersRepresentationIsNegotiatedFirst(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	for _, tt := range []struct{ method, path, body string }{
		{"GET", path + "/missing", ""}, {"GET", path + "?resourceVersionMatch=Exact", ""}, {"POST", path, "["},
		{"DELETE", path + "/missing", ""}, {"DELETE", path + "?labelSelector=%3D%3D", ""},
		{"GET", path + "?watch=1&resourceVersionMatch=Bogus", ""},
	} {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			kubeSays(t, ks.do(tt.method, tt.path, tt.body, "Accept", "text/plain"), 406, map[string]string{"reason": `"NotAcceptable"`})
		})
	}
	t.Run("a patch's unsupported Content-Type comes first", func(t *testing.T) {
		ks.must(415, "PATCH", path+"/missing", "{}", "Accept", "text/plain", "Content-Type", "text/x")
	})
}

// A deletecollection validates its DeleteOptions before storage reads its
// resourceVersion and continue token.
func TestDeleteCollectionValidatesDeleteOptionsBeforeTheResourceVersion(t *testing.T) {
	ks := newKubeServer(t)
	kubeSays(t, ks.do("DELETE", "/api/v1/namespaces/default/configmaps?labelSelector=tier&dryRun=Bogus&resourceVersion=abc", ""), 422,
		map[string]string{"details.kind": `"DeleteOptions"`})
}

// An unknown field under metadata is reported as any other.
func TestUnknownMetadataFieldsAreWarnedOf(t *testing.T) {
	ks := newKubeServer(t)
	a := ks.must(201, "POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Warn",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"m","bogusMeta":"y"}}`)
	assert.Equal(t, []string{`299 - "unknown field \"metadata.bogusMeta\""`}, a.header.Values("Warning"))
	kubeSays(t, ks.do("POST", "/api/v1/namespaces/default/configmaps?fieldValidation=Strict",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"m2","bogusMeta":"y"}}`), 400, map[string]string{
		"message": `"ConfigMap in version \"v1\" cannot be handled as a ConfigMap: strict decoding error: unknown field \"metadata.bogusMeta\""`})
}

// A patch whose result has no name (an apply that creates without one, a
// $retainKeys that drops metadata, a merge patch that nulls the name) is
// kube's 'undeterminable' name, as an update without one.
func TestAPatchedObjectWithoutNameIsUndeterminable(t *testing.T) {
	ks := newKubeServer(t)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"nm1"}}`)
	undeterminable := func(name string) map[string]string {
		return map[string]string{"reason": `"BadRequest"`,
			"message": strconv.Quote("the name of the object (" + name + " based on URL) was undeterminable: name must be provided")}
	}
	kubeSays(t, ks.do("PATCH", path+"/nm2?fieldManager=m", `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}`,
		"Content-Type", "application/apply-patch+yaml"), 400, undeterminable("nm2"))
	kubeSays(t, ks.do("PATCH", path+"/nm1", `{"$retainKeys":["data"],"data":{"a":"b"}}`,
		"Content-Type", "application/strategic-merge-patch+json"), 400, undeterminable("nm1"))
	kubeSays(t, ks.do("PATCH", path+"/nm1", `{"metadata":{"name":null}}`,
		"Content-Type", "application/merge-patch+json"), 400, undeterminable("nm1"))
	kubeSays(t, ks.do("PUT", path+"/nm1", `{"metadata":{}}`), 400, undeterminable("nm1"))
	ks.must(200, "PATCH", path+"/nm1?fieldManager=m", `{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"b"}}`,
		"Content-Type", "application/apply-patch+yaml")
}

// A body the serializer cannot read is worded as kube's serializer for its
// format words it: YAML that does not parse in YAML's words, the rest as
// the JSON reading of apiVersion and kind; a null body, in YAML also an
// empty one, is an empty object. An apply body is read into a map, with
// that reader's words. That is kube 1.33; 1.37 words an apply body's YAML
// error as the patch's (TestPatchBodyCheckedBeforeTheObjectPerRelease).
func TestUndecodableBodiesInTheirSerializersWords(t *testing.T) {
	ks := newKubeServerAt(t, apiserver.Release133)
	const path = "/api/v1/namespaces/default/configmaps"
	ks.must(201, "POST", path, `{"metadata":{"name":"nm1"}}`)
	yamlBody := func(method, p, body string) kubeAnswer {
		return ks.do(method, p, body, "Content-Type", "application/yaml")
	}
	unrecognized := func(msg, preview string) map[string]string {
		return map[string]string{"reason": `"BadRequest"`,
			"message": strconv.Quote("the object provided is unrecognized (must be of type ConfigMap): " + msg + " (" + preview + ")")}
	}
	kubeSays(t, yamlBody("POST", path, "a: [b"), 400, unrecognized("yaml: line 1: did not find expected ',' or ']'", "613a205b62"))
	kubeSays(t, yamlBody("POST", path, "x"), 400, unrecognized(`couldn't get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`, "78"))
	kubeSays(t, ks.do("POST", path, "a: [b"), 400, unrecognized("couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value", "613a205b62"))
	for _, empty := range []string{"", "~", "null", "# nothing"} {
		kubeSays(t, yamlBody("POST", path, empty), 422, map[string]string{"reason": `"Invalid"`,
			"message": `"ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required"`})
	}
	apply := func(body string) kubeAnswer {
		return ks.do("PATCH", path+"/nm1?fieldManager=m", body, "Content-Type", "application/apply-patch+yaml")
	}
	kubeSays(t, apply("a: [b"), 400, map[string]string{"message": strconv.Quote("error decoding YAML: error converting YAML to JSON: yaml: line 1: did not find expected ',' or ']'")})
	kubeSays(t, apply("[1]"), 400, map[string]string{"message": strconv.Quote("error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}")})
	for _, empty := range []string{"", "~", "# nothing"} {
		kubeSays(t, apply(empty), 400, map[string]string{"message": `"invalid object type: /, Kind="`})
	}
}

// A PUT of /scale decodes its Scale as kube does before it reads the
// object (any representation, kube's decoding errors, the name checked); a
// Scale without spec.replicas asks for 0, and 0 is not written
// (omitempty); a patched Scale that is no Scale is an invalid patch; a
// strategic merge patch is taken.
func TestAScaleIsDecodedAsKubeDecodesIt(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"dd"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	const scale = "/apis/apps/v1/namespaces/default/deployments/dd/scale"
	typed := func(msg string) map[string]string {
		return map[string]string{"reason": `"BadRequest"`, "message": strconv.Quote(`Scale in version "v1" cannot be handled as a Scale: ` + msg)}
	}
	kubeSays(t, ks.do("PUT", scale, `{}`), 400, map[string]string{"message": `"the name of the object (dd based on URL) was undeterminable: name must be provided"`})
	kubeSays(t, ks.do("PUT", scale, `{"metadata":{"name":"other"},"spec":{"replicas":2}}`), 400,
		map[string]string{"message": `"the name of the object (other) does not match the name on the URL (dd)"`})
	kubeSays(t, ks.do("PUT", scale, `{"metadata":{"name":"dd"},"spec":{"replicas":"x"}}`), 400,
		typed("json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32"))
	kubeSays(t, ks.do("PUT", scale, `{"metadata":{"name":"dd"},"spec":{"replicas":3000000000}}`), 400,
		typed("json: cannot unmarshal number 3000000000 into Go struct field ScaleSpec.spec.replicas of type int32"))
	kubeSays(t, ks.do("PUT", scale, `{"metadata":{"name":"dd"},"spec":"x"}`), 400,
		typed("json: cannot unmarshal string into Go struct field Scale.spec of type v1.ScaleSpec"))
	kubeSays(t, ks.do("PUT", scale, "a: [b", "Content-Type", "application/yaml"), 400, map[string]string{
		"message": strconv.Quote("the object provided is unrecognized (must be of type Scale): yaml: line 1: did not find expected ',' or ']' (613a205b62)")})
	kubeSays(t, ks.do("PUT", scale, `{"metadata":{"name":"dd"},"spec":{"replicas":-1}}`), 422, map[string]string{
		"message": `"Scale.autoscaling \"dd\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0"`})
	kubeSays(t, ks.do("PUT", scale, "metadata: {name: dd}", "Content-Type", "application/yaml"), 200, map[string]string{"spec": `{}`})
	kubeSays(t, ks.do("GET", "/apis/apps/v1/namespaces/default/deployments/dd", ""), 200, map[string]string{"spec.replicas": "0"})
	kubeSays(t, ks.do("PATCH", scale, `{"spec":{"replicas":2}}`, "Content-Type", "application/merge-patch+json"), 200, map[string]string{"spec": `{"replicas":2}`})
	a := ks.do("PATCH", scale, `{"spec":{"replicas":"x"}}`, "Content-Type", "application/merge-patch+json")
	kubeSays(t, a, 422, map[string]string{"reason": `"Invalid"`, "details.causes.0.field": `"patch"`})
	msg, _ := at(a.body, "details.causes.0.message")
	assert.True(t, strings.HasPrefix(msg.(string), `Invalid value: "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",`), msg)
	assert.True(t, strings.HasSuffix(msg.(string), `": json: cannot unmarshal string into Go struct field ScaleSpec.spec.replicas of type int32`), msg)
	kubeSays(t, ks.do("PATCH", scale, `{"spec":null}`, "Content-Type", "application/merge-patch+json"), 200, map[string]string{"spec": `{}`})
	kubeSays(t, ks.do("PATCH", scale, `{"spec":{"replicas":5}}`, "Content-Type", "application/strategic-merge-patch+json"), 200, map[string]string{"spec": `{"replicas":5}`})
	// JSON patches of /scale are kube's JSON patches, as every other.
	jsonPatch := func(body string) kubeAnswer {
		return ks.do("PATCH", scale, body, "Content-Type", "application/json-patch+json")
	}
	kubeSays(t, jsonPatch(`[{"op":"bogus","path":"/spec/replicas","value":9}]`), 422, map[string]string{
		"message": `"the server rejected our request due to an error in our request"`})
	kubeSays(t, jsonPatch(`{"a":1}`), 400, map[string]string{
		"message": `"error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"`})
	kubeSays(t, jsonPatch(`[{"op":"remove","path":"/spec/replicas"}]`), 200, map[string]string{"spec": `{}`})
	kubeSays(t, jsonPatch(`[{"op":"replace","path":"/spec/replicas","value":4}]`), 200, map[string]string{"spec": `{"replicas":4}`})
	// A merge patch that is no JSON object: its decoder's words, prefixed
	// for a merge patch; the merge library's for null.
	for _, tt := range []struct{ contentType, body, message string }{
		{"application/merge-patch+json", `x`, `error decoding patch: invalid character 'x' looking for beginning of value`},
		{"application/merge-patch+json", `{"spec":`, `error decoding patch: unexpected end of JSON input`},
		{"application/merge-patch+json", `null`, `Invalid JSON Patch`},
		{"application/strategic-merge-patch+json", `x`, `invalid character 'x' looking for beginning of value`},
		{"application/strategic-merge-patch+json", `[1]`, `json: cannot unmarshal array into Go value of type map[string]interface {}`},
	} {
		kubeSays(t, ks.do("PATCH", scale, tt.body, "Content-Type", tt.contentType), 400, map[string]string{"message": strconv.Quote(tt.message)})
	}
}

// A body of another kind than the endpoint's is read as kube's decoder
// reads it: as the kind it names when the scheme has one (that kind's
// decoding errors first), which then does not convert to the endpoint's
// internal type; a kind the scheme lacks is not registered. The
// apiextensions and aggregator schemes know only their own kinds.
func TestABodyOfAnotherKindIsReadAsKubesSchemeReadsIt(t *testing.T) {
	ks := newKubeServer(t)
	const configMaps = "/api/v1/namespaces/default/configmaps"
	tests := []struct{ name, path, body, message string }{
		{"a kind of the scheme does not convert", configMaps, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"}}`,
			`Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion`},
		{"the kind named is decoded first", configMaps, `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"x"},"data":{"a":"!!"}}`,
			`Secret in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0`},
		{"a missing apiVersion is the endpoint's", configMaps, `{"kind":"Secret","metadata":{"name":"x"}}`,
			`Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion`},
		{"a kind of another group", configMaps, `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}}`,
			`Deployment in version "v1" cannot be handled as a ConfigMap: converting (v1.Deployment) to (core.ConfigMap): unknown conversion`},
		{"a list kind", configMaps, `{"apiVersion":"v1","kind":"ConfigMapList"}`,
			`ConfigMapList in version "v1" cannot be handled as a ConfigMap: converting (v1.ConfigMapList) to (core.ConfigMap): unknown conversion`},
		{"core v1's generic list", configMaps, `{"apiVersion":"v1","kind":"List"}`,
			`List in version "v1" cannot be handled as a ConfigMap: converting (v1.List) to (core.ConfigMap): unknown conversion`},
		{"no generic list in other groups", configMaps, `{"apiVersion":"apps/v1","kind":"List"}`,
			`List in version "v1" cannot be handled as a ConfigMap: no kind "List" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"options in every group version", configMaps, `{"apiVersion":"apps/v1","kind":"DeleteOptions"}`,
			`DeleteOptions in version "v1" cannot be handled as a ConfigMap: converting (v1.DeleteOptions) to (core.ConfigMap): unknown conversion`},
		{"Status in any version", configMaps, `{"apiVersion":"v9","kind":"Status"}`,
			`Status in version "v9" cannot be handled as a ConfigMap: converting (v1.Status) to (core.ConfigMap): unknown conversion`},
		{"an unknown version", configMaps, `{"apiVersion":"v2","kind":"ConfigMap"}`,
			`ConfigMap in version "v2" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "v2" in scheme "pkg/runtime/scheme.go:110"`},
		{"kinds are case-sensitive", configMaps, `{"apiVersion":"v1","kind":"configmap"}`,
			`configmap in version "v1" cannot be handled as a ConfigMap: no kind "configmap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"meta.k8s.io is no group of the scheme", configMaps, `{"apiVersion":"meta.k8s.io/v1","kind":"DeleteOptions"}`,
			`DeleteOptions in version "v1" cannot be handled as a ConfigMap: no kind "DeleteOptions" is registered for version "meta.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"CRDs are another scheme's", configMaps, `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"x"}}`,
			`CustomResourceDefinition in version "v1" cannot be handled as a ConfigMap: no kind "CustomResourceDefinition" is registered for version "apiextensions.k8s.io/v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"the CRD scheme lacks kube-apiserver's kinds", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"v1","kind":"ConfigMap"}`,
			`ConfigMap in version "v1" cannot be handled as a CustomResourceDefinition: no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"the aggregator's scheme too", "/apis/apiregistration.k8s.io/v1/apiservices", `{"apiVersion":"v1","kind":"ConfigMap"}`,
			`ConfigMap in version "v1" cannot be handled as a APIService: no kind "ConfigMap" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"the internal type is the stored kind's", "/apis/events.k8s.io/v1/namespaces/default/events", `{"apiVersion":"v1","kind":"ConfigMap"}`,
			`ConfigMap in version "v1" cannot be handled as a Event: converting (v1.ConfigMap) to (core.Event): unknown conversion`},
		{"the internal package is the group's", "/apis/apps/v1/namespaces/default/deployments", `{"apiVersion":"v1","kind":"ConfigMap"}`,
			`ConfigMap in version "v1" cannot be handled as a Deployment: converting (v1.ConfigMap) to (apps.Deployment): unknown conversion`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := json.Marshal(tt.message)
			require.NoError(t, err)
			kubeSays(t, ks.do("POST", tt.path, tt.body), 400, map[string]string{"reason": `"BadRequest"`, "message": string(want)})
		})
	}
	t.Run("another version of the kind is converted, then refused", func(t *testing.T) {
		kubeSays(t, ks.do("POST", "/apis/apps/v1/namespaces/default/deployments", `{"apiVersion":"apps/v1beta1","kind":"Deployment","metadata":{"name":"x"}}`), 400, map[string]string{
			"message": `"the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)"`})
	})
	t.Run("an update too", func(t *testing.T) {
		ks.must(201, "POST", configMaps, `{"metadata":{"name":"ok"}}`)
		kubeSays(t, ks.do("PUT", configMaps+"/ok", `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"ok"}}`), 400, map[string]string{
			"message": `"Secret in version \"v1\" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion"`})
	})
}

// A JSON or merge patch whose result names another kind is an invalid
// patch, as kube decodes the patched document, quoted as kube's patch
// library writes it (its members sorted); a strategic merge patch's
// result is converted to the type, which keeps no kind of its own.
func TestAPatchToAnotherKindIsAnInvalidPatch(t *testing.T) {
	ks := newKubeServer(t)
	const cm = "/api/v1/namespaces/default/configmaps/pk"
	ks.must(201, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"pk"},"data":{"z":"1","b":"2"}}`)
	tests := []struct{ name, contentType, patch, detail string }{
		{"a merge patch naming a kind of the scheme", "application/merge-patch+json", `{"kind":"Secret"}`,
			"illegal base64 data at input byte 0"},
		{"a merge patch naming an unknown apiVersion", "application/merge-patch+json", `{"apiVersion":"apps/v1"}`,
			`no kind "ConfigMap" is registered for version "apps/v1" in scheme "pkg/runtime/scheme.go:110"`},
		{"a JSON patch", "application/json-patch+json", `[{"op":"replace","path":"/kind","value":"Bogus"}]`,
			`no kind "Bogus" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := ks.must(422, "PATCH", cm, tt.patch, "Content-Type", tt.contentType)
			kubeSays(t, a, 422, map[string]string{"reason": `"Invalid"`, "details.causes.0.field": `"patch"`})
			msg, _ := at(a.body, "details.causes.0.message")
			require.IsType(t, "", msg)
			assert.True(t, strings.HasSuffix(msg.(string), `": `+tt.detail), msg)
			assert.True(t, strings.HasPrefix(msg.(string), `Invalid value: "{\"apiVersion\":`), msg)
			quoted := msg.(string)[len(`Invalid value: "`):strings.LastIndex(msg.(string), `": `)]
			var members []string
			dec := json.NewDecoder(strings.NewReader(strings.ReplaceAll(quoted, `\"`, `"`)))
			_, err := dec.Token()
			require.NoError(t, err)
			for dec.More() {
				key, err := dec.Token()
				require.NoError(t, err)
				members = append(members, key.(string))
				var skip json.RawMessage
				require.NoError(t, dec.Decode(&skip))
			}
			assert.Equal(t, []string{"apiVersion", "data", "kind", "metadata"}, members, "the library's order")
		})
	}
	t.Run("a strategic merge patch ignores kind", func(t *testing.T) {
		a := ks.must(200, "PATCH", cm, `{"kind":"Secret","apiVersion":"apps/v1","data":{"n":"1"}}`, "Content-Type", "application/strategic-merge-patch+json")
		kubeSays(t, a, 200, map[string]string{"kind": `"ConfigMap"`, "apiVersion": `"v1"`, "data.n": `"1"`})
	})
}

// Go's decoder names the innermost struct that holds a field of the wrong
// JSON type, the field's whole path, and the field's Go type: kapi reads
// both from the schema's named components.
func TestTypedDecodeErrorsNameTheInnermostStruct(t *testing.T) {
	ks := newKubeServer(t)
	tests := []struct{ path, body, message string }{
		{"/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"containers":"x"}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field PodSpec.spec.containers of type []v1.Container`},
		{"/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":"x"}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec`},
		{"/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"containers":[{"name":5}]}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field Container.spec.containers.name of type string`},
		{"/api/v1/namespaces/default/pods", `{"metadata":{"name":"p"},"spec":{"nodeSelector":{"a":1}}}`,
			`Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number into Go struct field PodSpec.spec.nodeSelector of type string`},
		{"/api/v1/namespaces/default/secrets", `{"metadata":{"name":"p"},"data":5}`,
			`Secret in version "v1" cannot be handled as a Secret: json: cannot unmarshal number into Go struct field Secret.data of type map[string][]uint8`},
		{"/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"p"},"spec":{"selector":{"matchLabels":"x"}}}`,
			`Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field LabelSelector.spec.selector.matchLabels of type map[string]string`},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			want, err := json.Marshal(tt.message)
			require.NoError(t, err)
			kubeSays(t, ks.do("POST", tt.path, tt.body), 400, map[string]string{"message": string(want)})
		})
	}
}

// A subresource's body of another kind is read as kube's scheme reads it,
// as the type's own.
func TestASubresourceBodyOfAnotherKindIsReadAsKubesSchemeReadsIt(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/apis/apps/v1/namespaces/default/deployments", `{"metadata":{"name":"dd"},"spec":{"replicas":2,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i"}]}}}}`)
	tests := []struct{ body, message string }{
		{`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"dd"}}`,
			`Secret in version "v1" cannot be handled as a Scale: converting (v1.Secret) to (autoscaling.Scale): unknown conversion`},
		{`{"apiVersion":"autoscaling/v2","kind":"Scale","metadata":{"name":"dd"}}`,
			`Scale in version "v2" cannot be handled as a Scale: no kind "Scale" is registered for version "autoscaling/v2" in scheme "pkg/runtime/scheme.go:110"`},
		{`{"apiVersion":"v1","kind":"Scale","metadata":{"name":"dd"}}`,
			`Scale in version "v1" cannot be handled as a Scale: no kind "Scale" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"`},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			want, err := json.Marshal(tt.message)
			require.NoError(t, err)
			kubeSays(t, ks.do("PUT", "/apis/apps/v1/namespaces/default/deployments/dd/scale", tt.body), 400, map[string]string{"message": string(want)})
		})
	}
}

// A strategic merge patch that fails strict field validation is quoted as
// kube's merge left the patch map: the directives it applied and the
// nulls of the values it added deleted in place.
func TestAStrictStrategicMergePatchIsQuotedAsKubesMergeLeftIt(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"sm","labels":{"app":"web"},"finalizers":["a.io/x"]},"data":{"k1":"v1","k2":"v2"}}`)
	tests := []struct{ patch, quoted, unknown string }{
		{`{"data":{"$patch":"replace","k1":"r1"},"metadata":{"labels":{"app":null,"tier":"be"}},"unknownTop":"x"}`,
			`map[data:map[k1:r1] metadata:map[labels:map[app:<nil> tier:be]] unknownTop:x]`, "unknownTop"},
		{`{"data":{"$patch":"delete"},"unknownTop":"x"}`, `map[data:map[$patch:delete] unknownTop:x]`, "unknownTop"},
		{`{"metadata":{"$setElementOrder/finalizers":["a.io/x"]},"unknownTop":"x"}`, `map[metadata:map[] unknownTop:x]`, "unknownTop"},
		{`{"metadata":{"annotations":{"n":null,"m":"1"}},"bogus":1}`, `map[bogus:1 metadata:map[annotations:map[m:1]]]`, "bogus"},
	}
	for _, tt := range tests {
		t.Run(tt.patch, func(t *testing.T) {
			want := strconv.Quote(` "" is invalid: patch: Invalid value: ` + strconv.Quote(tt.quoted) + `: strict decoding error: unknown field "` + tt.unknown + `"`)
			kubeSays(t, ks.do("PATCH", "/api/v1/namespaces/default/configmaps/sm?fieldValidation=Strict", tt.patch,
				"Content-Type", "application/strategic-merge-patch+json"), 422, map[string]string{"message": want})
		})
	}
}

// A custom resource's metadata is read as ObjectMeta before anything
// else: a member of the wrong JSON type is Go's decoding error (400), the
// first in sorted order; then a missing or other apiVersion is refused as
// it is, before the kind.
func TestACustomResourcesMetadataIsDecodedAsObjectMeta(t *testing.T) {
	ks := newKubeServer(t)
	ks.must(201, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.fid.example.com"},"spec":{"group":"fid.example.com","scope":"Namespaced","names":{"plural":"widgets","kind":"Widget"},"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}]}}`)
	const widgets = "/apis/fid.example.com/v1/namespaces/default/widgets"
	ks.must(201, "POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"w1"}}`)
	tests := []struct{ method, path, body, message string }{
		{"POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":5}}`,
			`Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`},
		{"POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"q","labels":"x"}}`,
			`Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string`},
		{"POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":"x"}`,
			`Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal string into Go value of type v1.ObjectMeta`},
		{"POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"q","labels":{"a":1},"finalizers":[1],"generation":"x"}}`,
			`Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.finalizers of type string`},
		{"POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"q","generation":1.5}}`,
			`Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64`},
		{"POST", widgets, `{"apiVersion":"fid.example.com/v1","kind":"Widget","metadata":{"name":"q","uid":5}}`,
			`Widget in version "v1" cannot be handled as a Widget: json: cannot unmarshal number into Go struct field ObjectMeta.uid of type types.UID`},
		{"POST", widgets, `{"kind":"Widget","metadata":{"name":"x"}}`,
			`the API version in the data () does not match the expected API version (fid.example.com/v1)`},
		{"PUT", widgets + "/w1", `{"kind":"Widget","metadata":{"name":"w1"}}`,
			`the API version in the data () does not match the expected API version (fid.example.com/v1)`},
	}
	for _, tt := range tests {
		t.Run(tt.body, func(t *testing.T) {
			kubeSays(t, ks.do(tt.method, tt.path, tt.body), 400, map[string]string{"reason": `"BadRequest"`, "message": strconv.Quote(tt.message)})
		})
	}
	t.Run("YAML 1.1 reads y as a boolean", func(t *testing.T) {
		kubeSays(t, ks.do("POST", widgets, "kind: Widget\nmetadata:\n  name: y\n", "Content-Type", "application/yaml"), 400, map[string]string{
			"message": strconv.Quote(`Widget in version "" cannot be handled as a Widget: json: cannot unmarshal bool into Go struct field ObjectMeta.name of type string`)})
	})
}
