package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// FuzzDecodeContinueToken: any client-supplied continue value is either
// rejected or decodes to a token whose start key stays inside the
// collection, and re-encoding a valid token gives back an equal one.
func FuzzDecodeContinueToken(f *testing.F) {
	f.Add(continueToken{Revision: 5, Start: "default/x\x00", Offset: 2}.encode())
	f.Add(continueToken{Revision: -1, Start: "a"}.encode())
	f.Add("garbage")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		tok, err := decodeContinueToken(s)
		if err != nil {
			return
		}
		if tok.Start == "" || tok.Start[0] == '/' || tok.Offset < 0 {
			t.Fatalf("accepted unsafe token %+v", tok)
		}
		again, err := decodeContinueToken(tok.encode())
		if err != nil || *again != *tok {
			t.Fatalf("round trip of %+v gave %+v, %v", tok, again, err)
		}
	})
}

// FuzzParseRequestInfo: no path or query makes the request parser panic,
// and resource requests always name a resource.
func FuzzParseRequestInfo(f *testing.F) {
	for _, p := range []string{"/api/v1/namespaces/default/configmaps/x", "/apis/apps/v1/watch/deployments",
		"/api/v1/namespaces/x/status", "/apis", "//api//v1", "/api/v1/namespaces/a/b/c/d/e"} {
		f.Add("GET", p, "watch=true")
	}
	f.Fuzz(func(t *testing.T, method, path, query string) {
		r := &http.Request{Method: method, URL: &url.URL{Path: path, RawQuery: query}}
		info := parseRequestInfo(r)
		if info.IsResource && info.Resource == "" {
			t.Fatalf("resource request without resource: %+v", info)
		}
	})
}

// FuzzPatch sends arbitrary patch bodies of every patch type to a stored
// object through the handler: no panic, a Status on failure, and a failed
// patch leaves the object exactly as it was (no partial write).
func FuzzPatch(f *testing.F) {
	f.Add(uint8(0), []byte(`[{"op":"replace","path":"/data/a","value":"x"}]`))
	f.Add(uint8(1), []byte(`{"data":{"a":null,"b":"c"},"metadata":{"labels":{"l":"v"}}}`))
	f.Add(uint8(2), []byte(`{"data":{"$patch":"replace","x":"y"}}`))
	f.Add(uint8(3), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: f\ndata:\n  a: z\n"))
	f.Add(uint8(1), []byte(`{"metadata":{"name":"other"}}`))
	f.Add(uint8(0), []byte(`[{"op":"test","path":"/data/a","value":"nope"}]`))
	types := []string{jsonPatchType, mergePatchType, strategicPatchType, applyPatchType}
	srv, err := New(Config{Resources: testResources})
	if err != nil {
		f.Fatal(err)
	}
	create := httptest.NewRequest("POST", cmPath, strings.NewReader(`{"metadata":{"name":"f","labels":{"l":"1"}},"data":{"a":"1","b":"2"}}`))
	create.Header.Set("Content-Type", "application/json")
	srv.ServeHTTP(httptest.NewRecorder(), create)
	get := func() string {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", cmPath+"/f", nil))
		return rec.Body.String()
	}
	f.Fuzz(func(t *testing.T, kind uint8, body []byte) {
		before := get()
		req := httptest.NewRequest("PATCH", cmPath+"/f?fieldManager=fuzz", bytes.NewReader(body))
		req.Header.Set("Content-Type", types[int(kind)%len(types)])
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if rec.Code >= 300 {
			var st map[string]any
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st["kind"] != "Status" {
				t.Fatalf("failure %d without a Status: %s", rec.Code, rec.Body.String())
			}
			if after := get(); after != before {
				t.Fatalf("a failed patch (%d) changed the object:\nbefore %s\nafter  %s", rec.Code, before, after)
			}
		}
	})
}
