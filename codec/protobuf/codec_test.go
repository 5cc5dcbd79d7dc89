package protobuf

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCodecInterface(t *testing.T) {
	var c codec.Codec = New(nil)
	if c.MediaType() != MediaType || MediaType != codec.Protobuf {
		t.Fatalf("MediaType = %q", c.MediaType())
	}
}

func TestEnvelope(t *testing.T) {
	got := Envelope("v1", "ConfigMap", []byte{0x0a, 0x00})
	want := unhex(t, `6b387300 0a0f 0a027631 1209436f6e6669674d6170 1202 0a00 1a00 2200`)
	if !bytes.Equal(got, want) {
		t.Fatalf("Envelope:\n got %x\nwant %x", got, want)
	}
	u, err := parseUnknown(got[4:])
	if err != nil || u.apiVersion != "v1" || u.kind != "ConfigMap" || !bytes.Equal(u.raw, []byte{0x0a, 0x00}) {
		t.Fatalf("parseUnknown = %+v, %v", u, err)
	}
	// A long raw needs a multi-byte length.
	raw := bytes.Repeat([]byte{0x20, 0x01}, 200)
	env := Envelope("apps/v1", "Deployment", raw)
	u, err = parseUnknown(env[4:])
	if err != nil || !bytes.Equal(u.raw, raw) || u.kind != "Deployment" || u.apiVersion != "apps/v1" {
		t.Fatalf("parseUnknown(long) = %+v, %v", u, err)
	}
	if !bytes.HasSuffix(env, []byte{0x1a, 0x00, 0x22, 0x00}) {
		t.Fatalf("envelope must end with empty contentEncoding and contentType: %x", env[len(env)-8:])
	}
}

func TestFrame(t *testing.T) {
	got := Frame([]byte("abc"))
	if !bytes.Equal(got, []byte{0, 0, 0, 3, 'a', 'b', 'c'}) {
		t.Fatalf("Frame = %x", got)
	}
}

func TestListItemPrefixSizeIsTheLengthOfThePrefix(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 16383, 16384, 1 << 21, 1 << 28} {
		if got, want := ListItemPrefixSize(n), len(AppendListItemPrefix(nil, n)); got != want {
			t.Errorf("ListItemPrefixSize(%d) = %d, want %d", n, got, want)
		}
	}
}

const configMapJSON = `{
	"apiVersion": "v1", "kind": "ConfigMap",
	"metadata": {"name": "cm", "namespace": "default", "uid": "u-1", "resourceVersion": "7",
		"creationTimestamp": "2024-05-06T07:08:09Z", "labels": {"b": "2", "a": "1"},
		"ownerReferences": [{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "rs", "uid": "u-0", "controller": true}],
		"managedFields": [{"manager": "kubectl", "operation": "Update", "apiVersion": "v1",
			"time": "2024-05-06T07:08:09Z", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:a": {}}}}]},
	"data": {"a": "x", "b": ""},
	"binaryData": {"bin": "AAECAw==", "empty": ""},
	"immutable": false
}`

func TestConfigMapRoundTrip(t *testing.T) {
	c := testCodec()
	in := obj(t, configMapJSON)
	pb, err := c.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	if !hasMagic(pb) {
		t.Fatalf("no magic: %x", pb[:8])
	}
	d, err := c.Decode(pb)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Duplicates) != 0 {
		t.Errorf("Duplicates = %v", d.Duplicates)
	}
	if got, want := jsonString(d.Object), jsonString(in); got != want {
		t.Fatalf("round trip:\n got %s\nwant %s", got, want)
	}
	// EncodeMessage + Envelope is Encode.
	msg, err := c.EncodeMessage(in)
	if err != nil {
		t.Fatal(err)
	}
	if env := Envelope("v1", "ConfigMap", msg); !bytes.Equal(env, pb) {
		t.Fatalf("Envelope(EncodeMessage) != Encode:\n%x\n%x", env, pb)
	}
	// A meta.Object and a map[string]any encode alike.
	pb2, err := c.Encode(map[string]any(in))
	if err != nil || !bytes.Equal(pb2, pb) {
		t.Fatalf("map[string]any: %v", err)
	}
}

// TestWidgetWireBytes pins the bytes of an almost empty object: value
// fields are written even when zero, in field number order, as gogo does.
func TestWidgetWireBytes(t *testing.T) {
	c := testCodec()
	msg, err := c.EncodeMessage(obj(t, `{"apiVersion":"test.kapi.dev/v1","kind":"Widget","name":"a","hidden":"h"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := unhex(t, `0a0161 1000 3a00 5206 0800 1000 1a00 7200 8901 0000000000000000 b00100 da0100
		8202 10 0a00 1200 1a00 2200 2a00 3200 3800 4200`)
	if !bytes.Equal(msg, want) {
		t.Fatalf("message:\n got %x\nwant %x", msg, want)
	}
}

func TestWidgetRoundTrip(t *testing.T) {
	const head = `"apiVersion":"test.kapi.dev/v1","kind":"Widget"`
	const defaults = `"name":"","tags":null,"created":null,"port":0,"verbs":null,"flag":false,"maybe":null`
	tests := []struct {
		name, in, want string
	}{{
		name: "empty object: zero values as json.Marshal shows them",
		in:   `{` + head + `}`,
		want: `{` + head + `,` + defaults + `}`,
	}, {
		name: "zero values of pointers are kept, of omitempty values dropped",
		in:   `{` + head + `,"replicas":0,"weight":0,"big":0,"zz":0,"count":0,"ratio":0,"data":"","maybe":""}`,
		want: `{` + head + `,` + strings.Replace(defaults, `"maybe":null`, `"maybe":""`, 1) + `,"replicas":0,"weight":0,"big":0,"zz":0}`,
	}, {
		name: "every field",
		in: `{` + head + `,"name":"w","count":3,"replicas":2,"tags":["a","b"],"data":"AAEC",
			"created":"2024-01-02T03:04:05Z","renewed":"2024-01-02T03:04:05.123456Z","timeout":"1m30s",
			"port":"http","cpu":"100m","ext":{"a":[1,2.5,"x",null,true]},"fields":{"f:data":{}},
			"emptyDir":{"medium":"Memory"},"path":"/x","verbs":["get"],"ratio":0.5,"weight":1.25,
			"big":18446744073709551615,"child":{"name":"c"},"flag":true,"zz":-5,"fx":7,"sfx":-9,
			"stamp":"2024-01-02T03:04:05Z","sources":[{"path":"p"},{}],"hidden":"x","color":"red",
			"plain":{"a":"x"},"meta":{"name":"m"},"maybe":"y","ints":[1,-2,3],"labels":{"b":"2","a":"1"},
			"extra":{"k":["v1","v2"],"e":[]},"counts":{"10":"ten","-1":"neg","2":"two"},
			"quotas":{"mem":"1Gi"},"flags":{"true":1,"false":0}}`,
		want: `{` + head + `,"name":"w","count":3,"replicas":2,"tags":["a","b"],"data":"AAEC",
			"created":"2024-01-02T03:04:05Z","renewed":"2024-01-02T03:04:05.123456Z","timeout":"1m30s",
			"port":"http","cpu":"100m","ext":{"a":[1,2.5,"x",null,true]},"fields":{"f:data":{}},
			"emptyDir":{"medium":"Memory"},"path":"/x","verbs":["get"],"ratio":0.5,"weight":1.25,
			"big":18446744073709551615,"child":{"name":"c","tags":null,"created":null,"port":0,"verbs":null,"flag":false,"maybe":null},
			"flag":true,"zz":-5,"fx":7,"sfx":-9,
			"stamp":"2024-01-02T03:04:05Z","sources":[{"path":"p"},{}],"color":"red",
			"plain":{"a":"x"},"meta":{"name":"m"},"maybe":"y","ints":[1,-2,3],"labels":{"b":"2","a":"1"},
			"extra":{"k":["v1","v2"],"e":[]},"counts":{"10":"ten","-1":"neg","2":"two"},
			"quotas":{"mem":"1Gi"},"flags":{"true":1,"false":0}}`,
	}, {
		name: "zero times are null, pointer or not; omitzero drops them",
		in:   `{` + head + `,"created":"0001-01-01T00:00:00Z","renewed":"0001-01-01T00:00:00Z","stamp":"0001-01-01T00:00:00Z"}`,
		want: `{` + head + `,` + defaults + `,"renewed":null}`,
	}, {
		name: "times: UTC, seconds for Time, microseconds for MicroTime",
		in:   `{` + head + `,"created":"2024-01-02T05:04:05.999+02:00","renewed":"2024-01-02T03:04:05.1234567Z"}`,
		want: `{` + head + `,` + strings.Replace(defaults, `"created":null`, `"created":"2024-01-02T03:04:05Z"`, 1) + `,"renewed":"2024-01-02T03:04:05.123456Z"}`,
	}, {
		name: "IntOrString number, nullable inline present, empty wrapper",
		in:   `{` + head + `,"port":8080,"color":"","verbs":[]}`,
		want: `{` + head + `,` + strings.Replace(strings.Replace(defaults, `"port":0`, `"port":8080`, 1), `"verbs":null`, `"verbs":[]`, 1) + `}`,
	}, {
		name: "integral floats become integers, as kapi's JSON decoder makes them",
		in:   `{` + head + `,"ratio":2.0,"weight":3.0,"count":4.0}`,
		want: `{` + head + `,` + defaults + `,"ratio":2,"weight":3,"count":4}`,
	}}
	c := testCodec()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pb, err := c.Encode(obj(t, tt.in))
			if err != nil {
				t.Fatal(err)
			}
			d, err := c.Decode(pb)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := jsonString(d.Object), jsonString(obj(t, tt.want)); got != want {
				t.Fatalf("\n got %s\nwant %s", got, want)
			}
			// Decoding is stable: encode the result again, same object
			// (null being absent, as for encoding/json).
			pb2, err := c.Encode(d.Object)
			if err != nil {
				t.Fatal(err)
			}
			d2, err := c.Decode(pb2)
			if err != nil || !reflect.DeepEqual(dropNulls(d2.Object), dropNulls(d.Object)) {
				t.Fatalf("second round trip: %v\n%s", err, jsonString(d2.Object))
			}
		})
	}
}

func TestMapKeyOrder(t *testing.T) {
	c := testCodec()
	msg, err := c.EncodeMessage(obj(t, `{"apiVersion":"test.kapi.dev/v1","kind":"Widget","counts":{"10":"a","-1":"b","2":"c"},"labels":{"b":"","a":"","B":""}}`))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for b := msg; len(b) > 0; {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		m := protowire.ConsumeFieldValue(num, typ, b)
		if num == 5 || num == 26 {
			entry, _ := protowire.ConsumeBytes(b)
			_, _, k := protowire.ConsumeTag(entry)
			if num == 5 {
				s, _ := protowire.ConsumeBytes(entry[k:])
				keys = append(keys, string(s))
			} else {
				v, _ := protowire.ConsumeVarint(entry[k:])
				keys = append(keys, jsonString(int32(v)))
			}
		}
		b = b[m:]
	}
	if got := strings.Join(keys, " "); got != "B a b -1 2 10" {
		t.Fatalf("map keys on the wire: %s", got)
	}
}

func TestStatus(t *testing.T) {
	c := New(nil)
	for _, st := range []*meta.Status{
		meta.NotFound(meta.GroupResource{Resource: "configmaps"}, "x"),
		meta.Invalid(meta.GroupKind{Kind: "ConfigMap"}, "x", meta.FieldErrors{{Type: meta.ErrorRequired, Field: "data"}}),
		meta.TooManyRequests("slow down", 3),
		meta.Success(meta.GroupResource{Group: "apps", Resource: "deployments"}, "d", "uid-1"),
	} {
		pb, err := c.Encode(st)
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.Decode(pb)
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(st)
		if got, want := jsonString(d.Object), jsonString(obj(t, string(j))); got != want {
			t.Errorf("Status:\n got %s\nwant %s", got, want)
		}
		if pb2, _ := c.Encode(*st); !bytes.Equal(pb, pb2) {
			t.Errorf("Status value and pointer encode differently")
		}
	}
}

func TestList(t *testing.T) {
	c := testCodec()
	a := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}`)
	b := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}`)
	ma, _ := c.EncodeMessage(a)
	mb, _ := c.EncodeMessage(b)
	n := int64(5)
	lm := meta.ListMeta{ResourceVersion: "42", Continue: "tok", RemainingItemCount: &n}
	list := c.EncodeList("v1", "ConfigMapList", lm, [][]byte{ma, mb})

	d, err := c.Decode(list)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"v1","kind":"ConfigMapList","metadata":{"resourceVersion":"42","continue":"tok","remainingItemCount":5},
		"items":[{"metadata":{"name":"a"},"data":{"k":"v"}},{"metadata":{"name":"b"}}]}`
	if got := jsonString(d.Object); got != jsonString(obj(t, want)) {
		t.Fatalf("list:\n got %s\nwant %s", got, jsonString(obj(t, want)))
	}
	// Encoding the list object generically gives the same bytes.
	pb, err := c.Encode(d.Object)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pb, list) {
		t.Fatalf("Encode(list) != EncodeList:\n%x\n%x", pb, list)
	}
	// An empty list has null items, as json.Marshal of a nil slice.
	d, err = c.Decode(c.EncodeList("v1", "ConfigMapList", meta.ListMeta{}, nil))
	if err != nil || jsonString(d.Object) != `{"apiVersion":"v1","items":null,"kind":"ConfigMapList","metadata":{}}` {
		t.Fatalf("empty list: %v %s", err, jsonString(d.Object))
	}
	if !c.SupportsKind(meta.GroupVersionKind{Version: "v1", Kind: "ConfigMapList"}) ||
		c.SupportsKind(meta.GroupVersionKind{Version: "v1", Kind: "SecretList"}) ||
		c.SupportsKind(meta.GroupVersionKind{Version: "v1", Kind: "List"}) {
		t.Fatal("SupportsKind of lists")
	}
}

func TestWatchEvent(t *testing.T) {
	c := testCodec()
	cm := obj(t, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"3"}}`)
	pb, err := c.Encode(cm)
	if err != nil {
		t.Fatal(err)
	}
	ev := EncodeWatchEvent("ADDED", pb)
	// The event is {type=1, object=2 {raw=1 <enveloped object>}}.
	want := append(append(append([]byte{0x0a, 0x05}, "ADDED"...), 0x12, byte(len(pb)+2), 0x0a, byte(len(pb))), pb...)
	if !bytes.Equal(ev, want) {
		t.Fatalf("event:\n got %x\nwant %x", ev, want)
	}
	// Decoded as a WatchEvent, its object is the decoded object.
	d, err := c.Decode(Envelope("meta.k8s.io/v1", "WatchEvent", ev))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := jsonString(d.Object), `{"apiVersion":"meta.k8s.io/v1","kind":"WatchEvent","object":`+jsonString(cm)+`,"type":"ADDED"}`; got != want {
		t.Fatalf("\n got %s\nwant %s", got, want)
	}
	// A JSON object in raw is decoded as JSON.
	d, err = c.Decode(Envelope("v1", "WatchEvent", EncodeWatchEvent("DELETED", []byte(`{"a":1}`))))
	if err != nil || jsonString(d.Object) != `{"apiVersion":"v1","kind":"WatchEvent","object":{"a":1},"type":"DELETED"}` {
		t.Fatalf("JSON raw: %v %s", err, jsonString(d.Object))
	}
}

func TestDeleteOptions(t *testing.T) {
	c := New(nil)
	// As client-go sends them: the group version of the resource.
	for _, gv := range []string{"v1", "apps/v1", "meta.k8s.io/v1", "batch/v1beta1"} {
		in := obj(t, `{"apiVersion":"`+gv+`","kind":"DeleteOptions","gracePeriodSeconds":0,
			"preconditions":{"uid":"u","resourceVersion":"5"},"propagationPolicy":"Foreground","dryRun":["All"]}`)
		pb, err := c.Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		want := unhex(t, `0800 1206 0a0175 120135 220a 466f726567726f756e64 2a03 416c6c`)
		if u, _ := parseUnknown(pb[4:]); !bytes.Equal(u.raw, want) {
			t.Fatalf("DeleteOptions bytes:\n got %x\nwant %x", u.raw, want)
		}
		d, err := c.Decode(pb)
		if err != nil {
			t.Fatal(err)
		}
		if jsonString(d.Object) != jsonString(in) {
			t.Fatalf("DeleteOptions:\n got %s\nwant %s", jsonString(d.Object), jsonString(in))
		}
	}
}

func TestPartialObjectMetadata(t *testing.T) {
	c := New(nil)
	in := obj(t, `{"apiVersion":"meta.k8s.io/v1","kind":"PartialObjectMetadataList","metadata":{"resourceVersion":"1"},
		"items":[{"metadata":{"name":"a","labels":{"x":"y"}}}]}`)
	pb, err := c.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Decode(pb)
	if err != nil || jsonString(d.Object) != jsonString(in) {
		t.Fatalf("%v\n got %s\nwant %s", err, jsonString(d.Object), jsonString(in))
	}
}

func statusCode(err error) int {
	var st *meta.Status
	if errors.As(err, &st) {
		return st.HTTPStatus()
	}
	return 0
}

func TestEncodeErrors(t *testing.T) {
	c := testCodec()
	for _, v := range []any{
		[]string{"x"}, "x", nil, 3, (*meta.Status)(nil),
		obj(t, `{"apiVersion":"v1","kind":"Secret"}`),
		obj(t, `{"kind":"ConfigMap"}`),
		obj(t, `{"apiVersion":"v1"}`),
		struct{ A string }{"x"},
	} {
		_, err := c.Encode(v)
		if statusCode(err) != http.StatusNotAcceptable {
			t.Errorf("Encode(%#v) = %v, want 406", v, err)
		}
	}
	if _, err := c.EncodeMessage(obj(t, `{"apiVersion":"v1","kind":"Secret"}`)); statusCode(err) != http.StatusNotAcceptable {
		t.Errorf("EncodeMessage(Secret) = %v", err)
	}
	// Values that do not fit the descriptor: an error naming the field.
	for in, msg := range map[string]string{
		`{"metadata":{"name":3}}`:                             "metadata.name: expected a string, got number",
		`{"metadata":{"labels":{"a":1}}}`:                     "metadata.labels.a: expected a string",
		`{"metadata":"x"}`:                                    "metadata: expected an object, got string",
		`{"data":["x"]}`:                                      "data: expected an object, got array",
		`{"binaryData":{"a":"!!"}}`:                           "binaryData.a: illegal base64",
		`{"immutable":"yes"}`:                                 "immutable: expected a boolean",
		`{"metadata":{"generation":1.5}}`:                     "metadata.generation: number 1.5 is not an integer",
		`{"metadata":{"creationTimestamp":"now"}}`:            `metadata.creationTimestamp: invalid time "now"`,
		`{"metadata":{"finalizers":"x"}}`:                     "metadata.finalizers: expected an array",
		`{"metadata":{"ownerReferences":[{"controller":1}]}}`: "metadata.ownerReferences.0.controller: expected a boolean",
	} {
		o := obj(t, in)
		o["apiVersion"], o["kind"] = "v1", "ConfigMap"
		_, err := c.Encode(o)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Encode(%s) = %v, want %q", in, err, msg)
		}
	}
	for in, msg := range map[string]string{
		`{"count":2147483648}`: "count: number 2147483648 out of range",
		`{"port":1.5}`:         "port: expected an integer or a string",
		`{"cpu":"1x"}`:         `cpu: invalid quantity "1x"`,
		`{"timeout":"soon"}`:   `timeout: invalid duration "soon"`,
		`{"big":-1}`:           "big: number -1 out of range",
		`{"counts":{"x":"y"}}`: `counts: invalid integer map key "x"`,
		`{"extra":{"a":"b"}}`:  "extra.a: expected an array",
		`{"ints":[1,"2"]}`:     "ints.1: expected a number",
		`{"renewed":5}`:        "renewed: expected an RFC 3339 time string",
	} {
		o := obj(t, in)
		o["apiVersion"], o["kind"] = "test.kapi.dev/v1", "Widget"
		_, err := c.Encode(o)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Encode(%s) = %v, want %q", in, err, msg)
		}
	}
}

func TestBadDescriptor(t *testing.T) {
	// A json_name the transcoder does not understand: the plan fails, and Decode
	// reports a server error rather than a bad body.
	fb := newFileBuilder("kapi/test/bad.proto", "kapi.bad")
	m := fb.message("Bad")
	m.Field = append(m.Field, fieldProto(1, "x", tString, "", false, "x,bogus"))
	fd, err := protodesc.NewFile(fb.fd, BuiltinFiles())
	if err != nil {
		t.Fatal(err)
	}
	c := New(func(meta.GroupVersionKind) protoreflect.MessageDescriptor { return fd.Messages().Get(0) })
	if _, err := c.Decode(Envelope("v1", "Bad", nil)); statusCode(err) != http.StatusInternalServerError ||
		!strings.Contains(err.Error(), `unknown json_name option "bogus"`) {
		t.Fatalf("Decode: %v", err)
	}
	if _, err := c.Encode(obj(t, `{"apiVersion":"v1","kind":"Bad"}`)); err == nil {
		t.Fatal("Encode succeeded")
	}
	if c.SupportsKind(meta.GroupVersionKind{Version: "v1", Kind: "Bad"}) {
		t.Fatal("SupportsKind")
	}
}

// TestConcurrent compiles plans and transcodes from many goroutines (run
// with -race).
func TestConcurrent(t *testing.T) {
	c := testCodec()
	in := obj(t, configMapJSON)
	want := jsonString(in)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				pb, err := c.Encode(in)
				if err != nil {
					t.Error(err)
					return
				}
				d, err := c.Decode(pb)
				if err != nil || jsonString(d.Object) != want {
					t.Errorf("concurrent round trip: %v", err)
					return
				}
				c.SupportsKind(meta.GroupVersionKind{Group: "test.kapi.dev", Version: "v1", Kind: "WidgetList"})
			}
		}()
	}
	wg.Wait()
}

func TestAFramedListIsTheListEncodedWhole(t *testing.T) {
	c := testCodec()
	var envs, msgs [][]byte
	for _, s := range []string{`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"data":{"k":"v"}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}`} {
		env, err := c.Encode(obj(t, s))
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := c.EncodeMessage(obj(t, s))
		envs, msgs = append(envs, env), append(msgs, msg)
	}
	lm := meta.ListMeta{ResourceVersion: "42"}
	l, err := c.List(codec.ListOf{APIVersion: "v1", Kind: "ConfigMap", ListKind: "ConfigMapList", Typed: true}, lm, len(envs), func(i int) ([]byte, error) { return envs[i], nil })
	if err != nil {
		t.Fatal(err)
	}
	if want := c.EncodeList("v1", "ConfigMapList", lm, msgs); !bytes.Equal(l.Bytes(), want) || l.Size() != len(want) {
		t.Fatalf("framed list != EncodeList:\n%x\n%x", l.Bytes(), want)
	}
	if _, err := c.List(codec.ListOf{}, lm, 1, func(int) ([]byte, error) { return []byte("not an envelope"), nil }); err == nil {
		t.Fatal("an item that is no envelope was framed")
	}
}
