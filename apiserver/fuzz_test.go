package apiserver

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
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

// FuzzMergePatchMatchesTheLibrary holds mergePatch to the result of
// evanphx/json-patch's MergePatch, which kube-apiserver uses, for any
// object patch of any object document.
func FuzzMergePatchMatchesTheLibrary(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":{"c":"d","e":[1,null,{"f":null}]}}`), []byte(`{"a":null,"b":{"c":null,"x":{"y":null,"z":1}}}`))
	f.Add([]byte(`{"a":{"b":1}}`), []byte(`{"a":[{"c":null},null]}`))
	f.Add([]byte(`{"a":"s"}`), []byte(`{"a":[{"c":null},null],"n":null}`))
	f.Add([]byte(`{"a":null}`), []byte(`{"a":{"b":null,"c":{"d":null}}}`))
	f.Add([]byte(`{"a":{"b":{"c":1}}}`), []byte(`{"a":{"b":{"c":{"d":null}}}}`))
	f.Add([]byte(`{}`), []byte(`{}`))
	f.Fuzz(func(t *testing.T, doc, patch []byte) {
		d, err := codec.JSONCodec{}.Decode(doc)
		if err != nil || len(d.Duplicates) > 0 {
			return
		}
		p, err := codec.JSONCodec{}.Decode(patch)
		if err != nil || len(p.Duplicates) > 0 {
			return
		}
		want, err := jsonpatch.MergePatch(doc, patch)
		if err != nil {
			t.Skip("the library rejects it")
		}
		patchBefore := meta.DeepCopyValue(p.Object)
		got := d.Object.DeepCopy()
		mergePatch(got, p.Object)
		var wantV, gotV any
		require.NoError(t, json.Unmarshal(want, &wantV))
		gotJSON, err := json.Marshal(got)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(gotJSON, &gotV))
		require.Equal(t, wantV, gotV, "merge of %s into %s", patch, doc)
		require.Equal(t, patchBefore, p.Object, "the patch was modified")
	})
}
