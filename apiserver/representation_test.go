package apiserver

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

func TestTables(t *testing.T) {
	ts := newTestServer(t)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"t1"},"data":{"a":"1","b":"2"}}`).code)

	t.Run("a list as Table has Name and Age columns by default, as kube prints a custom resource", func(t *testing.T) {
		r := ts.do("GET", cmPath, "", "Accept", tableAccept)
		require.Equal(t, http.StatusOK, r.code, string(r.raw))
		assert.Equal(t, "application/json", r.header.Get("Content-Type"))
		assert.Equal(t, "Table", r.body["kind"])
		assert.Equal(t, "meta.k8s.io/v1", r.body["apiVersion"])
		cols := r.body["columnDefinitions"].([]any)
		require.Len(t, cols, 2)
		assert.Equal(t, "Name", cols[0].(map[string]any)["name"])
		assert.Equal(t, "name", cols[0].(map[string]any)["format"])
		assert.Equal(t, "Age", cols[1].(map[string]any)["name"])
		assert.Equal(t, "date", cols[1].(map[string]any)["type"])
		row := r.body["rows"].([]any)[0].(map[string]any)
		assert.Equal(t, r.body["rows"].([]any)[0].(map[string]any)["object"].(map[string]any)["metadata"].(map[string]any)["creationTimestamp"],
			row["cells"].([]any)[1], "kubectl prints a date column as an age")
		assert.Equal(t, "t1", row["cells"].([]any)[0])
		assert.Equal(t, "PartialObjectMetadata", row["object"].(map[string]any)["kind"])
	})
	t.Run("includeObject=None keeps the object key, null", func(t *testing.T) {
		r := ts.do("GET", cmPath+"/t1?includeObject=None", "", "Accept", tableAccept)
		row := r.body["rows"].([]any)[0].(map[string]any)
		assert.Contains(t, row, "object")
		assert.Nil(t, row["object"])
	})
	t.Run("an invalid includeObject is BadRequest", func(t *testing.T) {
		r := ts.do("GET", cmPath+"?includeObject=Foo", "", "Accept", tableAccept)
		require.Equal(t, http.StatusBadRequest, r.code)
		assert.Equal(t, `Unable to convert to Table as requested: includeObject: Invalid value: "Foo": must be 'Metadata', 'Object', 'None', or empty`, r.body["message"])
	})
	t.Run("v1beta1 Tables carry v1beta1 metadata objects", func(t *testing.T) {
		r := ts.do("GET", cmPath, "", "Accept", "application/json;as=Table;v=v1beta1;g=meta.k8s.io")
		assert.Equal(t, "meta.k8s.io/v1beta1", r.body["apiVersion"])
		row := r.body["rows"].([]any)[0].(map[string]any)
		assert.Equal(t, "meta.k8s.io/v1beta1", row["object"].(map[string]any)["apiVersion"])
	})
	t.Run("metadata-only lists and gets", func(t *testing.T) {
		r := ts.do("GET", cmPath, "", "Accept", "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json")
		assert.Equal(t, "PartialObjectMetadataList", r.body["kind"])
		item := r.body["items"].([]any)[0].(map[string]any)
		assert.Equal(t, "PartialObjectMetadata", item["kind"])
		assert.Nil(t, item["data"])
		g := ts.do("GET", cmPath+"/t1", "", "Accept", "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1")
		assert.Equal(t, "PartialObjectMetadata", g.body["kind"])
		assert.Equal(t, "t1", field(g.body, "metadata.name"))
	})
	t.Run("YAML is served on request", func(t *testing.T) {
		r := ts.do("GET", cmPath+"/t1", "", "Accept", "application/yaml")
		assert.Equal(t, "application/yaml", r.header.Get("Content-Type"))
		assert.Contains(t, string(r.raw), "name: t1")
	})
}

func TestGzipAboveThreshold(t *testing.T) {
	ts := newTestServer(t)
	big := strings.Repeat("x", 140*1024)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"big"},"data":{"a":"`+big+`"}}`).code)
	require.Equal(t, http.StatusCreated, ts.do("POST", cmPath, `{"metadata":{"name":"small"}}`).code)

	get := func(name, encoding string) *http.Response {
		req, _ := http.NewRequest("GET", ts.url+cmPath+"/"+name, nil)
		req.Header.Set("Accept-Encoding", encoding)
		resp, err := http.DefaultTransport.RoundTrip(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := get("big", "gzip")
	require.Equal(t, "gzip", resp.Header.Get("Content-Encoding"))
	assert.Equal(t, "Accept-Encoding", resp.Header.Get("Vary"))
	zr, err := gzip.NewReader(resp.Body)
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	var obj map[string]any
	require.NoError(t, json.Unmarshal(raw, &obj))
	assert.Equal(t, big, field(obj, "data.a"))

	small := get("small", "gzip")
	assert.Empty(t, small.Header.Get("Content-Encoding"), "small bodies are not compressed")
	assert.Empty(t, small.Header.Get("Vary"))
	assert.Empty(t, get("big", "gzip;q=0").Header.Get("Content-Encoding"))
	assert.Empty(t, get("big", "GZIP").Header.Get("Content-Encoding"), "kube only knows the lower-case token")
}
