package protobuf

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/kapi-dev/kapi/meta"
)

// FuzzDecode feeds arbitrary bytes to Decode, both as a whole body and as
// the message of a Widget (so the fuzzer need not find the envelope): it
// must never panic, every error must be a Status, and whatever decodes
// must encode, and decode again to the same object (null members being
// absent, as for encoding/json).
func FuzzDecode(f *testing.F) {
	c := testCodec()
	seed := func(s string) {
		o := obj(f, s)
		pb, err := c.Encode(o)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(pb)
		u, _ := parseUnknown(pb[len(magic):])
		f.Add(u.raw)
	}
	seed(configMapJSON)
	seed(`{"apiVersion":"test.kapi.dev/v1","kind":"Widget","name":"w","count":3,"replicas":2,"tags":["a","b"],"data":"AAEC",
		"created":"2024-01-02T03:04:05Z","renewed":"2024-01-02T03:04:05.123456Z","timeout":"1m30s",
		"port":"http","cpu":"100m","ext":{"a":[1,2.5,"x",null,true]},"fields":{"f:data":{}},
		"emptyDir":{"medium":"Memory"},"path":"/x","verbs":["get"],"ratio":0.5,"weight":1.25,
		"big":18446744073709551615,"child":{"name":"c","port":7},"flag":true,"zz":-5,"fx":7,"sfx":-9,
		"stamp":"2024-01-02T03:04:05Z","sources":[{"path":"p"},{}],"color":"red",
		"plain":{"a":"x","b":-1},"meta":{"name":"m"},"maybe":"y","ints":[1,-2,3],"labels":{"b":"2","a":"1"},
		"extra":{"k":["v1","v2"],"e":[]},"counts":{"10":"ten","-1":"neg"},"quotas":{"mem":"1Gi"},"flags":{"true":1}}`)
	seed(`{"apiVersion":"v1","kind":"DeleteOptions","gracePeriodSeconds":5,"preconditions":{"uid":"u"},"dryRun":["All"]}`)
	seed(`{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadataList","metadata":{"continue":"c"},"items":[{"metadata":{"name":"a"}}]}`)
	st, _ := c.Encode(meta.Invalid(meta.GroupKind{Kind: "ConfigMap"}, "x", meta.FieldErrors{{Type: meta.ErrorRequired, Field: "data"}}))
	f.Add(st)
	cm, _ := c.Encode(obj(f, configMapJSON))
	f.Add(Envelope("v1", "WatchEvent", EncodeWatchEvent("ADDED", cm)))
	cmMsg, _ := c.EncodeMessage(obj(f, configMapJSON))
	f.Add(c.EncodeList("v1", "ConfigMapList", meta.ListMeta{ResourceVersion: "1"}, [][]byte{cmMsg}))
	f.Add(widget(deepRaw(3)))
	f.Add([]byte("k8s\x00"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, c, data)
		check(t, c, widget(data))
	})
}

func check(t *testing.T, c *Codec, data []byte) {
	d, err := c.Decode(data)
	if err != nil {
		if _, ok := err.(*meta.Status); !ok {
			t.Fatalf("error is not a Status: %T %v", err, err)
		}
		return
	}
	pb, err := c.Encode(d.Object)
	if err != nil {
		t.Fatalf("decoded object does not encode: %v\n%s", err, jsonString(d.Object))
	}
	d2, err := c.Decode(pb)
	if err != nil {
		t.Fatalf("re-encoded object does not decode: %v\n%s", err, jsonString(d.Object))
	}
	a, _ := json.Marshal(dropNulls(d.Object))
	b, _ := json.Marshal(dropNulls(d2.Object))
	if !bytes.Equal(a, b) {
		t.Fatalf("decode -> encode -> decode differs:\n%s\n%s", a, b)
	}
	// Encoding is a fixed point after one round.
	pb2, err := c.Encode(d2.Object)
	if err != nil {
		t.Fatal(err)
	}
	if d3, err := c.Decode(pb2); err != nil || jsonString(dropNulls(d3.Object)) != string(b) {
		t.Fatalf("third round differs: %v", err)
	}
}
