package apiserver

import (
	"net/http"
	"net/url"
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
