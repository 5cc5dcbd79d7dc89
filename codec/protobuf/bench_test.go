package protobuf

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// benchConfigMap is a ConfigMap-shaped object of about 1 KiB in JSON.
func benchConfigMap(tb testing.TB) meta.Object {
	data := map[string]any{}
	for i := range 8 {
		data[fmt.Sprintf("key-%d.properties", i)] = strings.Repeat(fmt.Sprint(i), 60)
	}
	o := obj(tb, `{"apiVersion":"v1","kind":"ConfigMap",
		"metadata":{"name":"app-config","namespace":"production","uid":"6f1c2e7a-3b1d-4c55-9a57-2f0d1c3e4b5a",
			"resourceVersion":"123456","creationTimestamp":"2024-05-06T07:08:09Z",
			"labels":{"app":"web","tier":"frontend","release":"stable"},
			"annotations":{"kubectl.kubernetes.io/last-applied-configuration":"{}","owner":"team-a"},
			"managedFields":[{"manager":"kubectl","operation":"Update","apiVersion":"v1","time":"2024-05-06T07:08:09Z",
				"fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:key-0.properties":{}}}}]}}`)
	o["data"] = data
	return o
}

// BenchmarkEncode compares Encode with encoding/json on the same map.
func BenchmarkEncode(b *testing.B) {
	c := testCodec()
	o := benchConfigMap(b)
	j, _ := json.Marshal(o)
	pb, _ := c.Encode(o)
	b.Logf("sizes: JSON %d B, protobuf %d B", len(j), len(pb))
	b.Run("protobuf", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(pb)))
		for b.Loop() {
			if _, err := c.Encode(o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("protobuf-message", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.EncodeMessage(o); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(j)))
		for b.Loop() {
			if _, err := json.Marshal(o); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecode compares Decode with kapi's JSON decoder and
// encoding/json on the same object.
func BenchmarkDecode(b *testing.B) {
	c := testCodec()
	o := benchConfigMap(b)
	j, _ := json.Marshal(o)
	pb, _ := c.Encode(o)
	b.Run("protobuf", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(pb)))
		for b.Loop() {
			if _, err := c.Decode(pb); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-kapi", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(j)))
		for b.Loop() {
			if _, err := (codec.JSONCodec{}).Decode(j); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-stdlib", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(j)))
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(j, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEncodeList assembles a list of 100 cached item messages.
func BenchmarkEncodeList(b *testing.B) {
	c := testCodec()
	msg, _ := c.EncodeMessage(benchConfigMap(b))
	items := make([][]byte, 100)
	for i := range items {
		items[i] = msg
	}
	b.ReportAllocs()
	for b.Loop() {
		c.EncodeList("v1", "ConfigMapList", meta.ListMeta{ResourceVersion: "9"}, items)
	}
}
