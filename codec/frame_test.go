package codec

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kapi-dev/kapi/meta"
)

func TestAJSONListFramesItsItemsAsTheWholeListEncodes(t *testing.T) {
	objs := []meta.Object{
		{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a"}, "data": map[string]any{"k": "v"}},
		{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "b"}},
	}
	var items [][]byte
	for _, o := range objs {
		b, err := JSONCodec{}.Encode(o)
		require.NoError(t, err)
		items = append(items, b)
	}
	lm := meta.ListMeta{ResourceVersion: "7"}
	for _, typed := range []bool{true, false} {
		l, err := JSONCodec{}.List(ListOf{APIVersion: "v1", Kind: "ConfigMap", ListKind: "ConfigMapList", Typed: typed}, lm, len(items), func(i int) ([]byte, error) { return items[i], nil })
		require.NoError(t, err)
		body := l.Bytes()
		assert.Len(t, body, l.Size())
		var got map[string]any
		require.NoError(t, json.Unmarshal(body, &got), string(body))
		assert.Equal(t, "ConfigMapList", got["kind"])
		assert.Equal(t, map[string]any{"resourceVersion": "7"}, got["metadata"])
		list := got["items"].([]any)
		require.Len(t, list, 2)
		first := list[0].(map[string]any)
		assert.Equal(t, map[string]any{"k": "v"}, first["data"])
		if typed {
			assert.NotContains(t, first, "kind", "a typed list's items carry no type meta")
		} else {
			assert.Equal(t, "ConfigMap", first["kind"])
		}
	}
}

func TestAnEmptyJSONListBlueprintHasNullItems(t *testing.T) {
	assert.Equal(t, `{"kind":"PodList","apiVersion":"v1","metadata":{},"items":null}`+"\n",
		string(JSONCodec{}.EmptyList(ListOf{APIVersion: "v1", Kind: "Pod", ListKind: "PodList"})))
}

func TestAJSONWatchEventIsOneLine(t *testing.T) {
	var buf bytes.Buffer
	JSONCodec{}.AppendEvent(&buf, "ADDED", []byte(`{"a":1}`))
	assert.Equal(t, `{"type":"ADDED","object":{"a":1}}`+"\n", buf.String())
}
