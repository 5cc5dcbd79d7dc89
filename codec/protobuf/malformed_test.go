package protobuf

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// msg builds a message from (field number, value) pairs: []byte and
// string values are length-delimited, uint64 varints.
func msg(fields ...any) []byte {
	var b []byte
	for i := 0; i < len(fields); i += 2 {
		num := protowire.Number(fields[i].(int))
		switch v := fields[i+1].(type) {
		case []byte:
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendBytes(b, v)
		case string:
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendString(b, v)
		case uint64:
			b = protowire.AppendTag(b, num, protowire.VarintType)
			b = protowire.AppendVarint(b, v)
		}
	}
	return b
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

func widget(raw []byte) []byte    { return Envelope("test.kapi.dev/v1", "Widget", raw) }
func configMap(raw []byte) []byte { return Envelope("v1", "ConfigMap", raw) }

// nested builds depth Widgets, each the child (field 21) of the previous.
func nested(depth int) []byte {
	lens := make([]int, depth+1)
	for i := depth - 1; i >= 0; i-- {
		lens[i] = 2 + protowire.SizeVarint(uint64(lens[i+1])) + lens[i+1]
	}
	var b []byte
	for i := 0; i < depth; i++ {
		b = protowire.AppendTag(b, 21, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(lens[i+1]))
	}
	return b
}

func TestDecodeMalformed(t *testing.T) {
	tm := msg(1, "v1", 2, "ConfigMap")
	tests := []struct {
		name string
		in   []byte
		code int
		msg  string
	}{
		{"empty", nil, 400, "empty data"},
		{"short magic", []byte("k8s"), 400, "provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]"},
		{"wrong magic", cat([]byte("k8s\x01"), msg(1, tm)), 400, "expected prefix [107 56 115 0]"},
		{"JSON", []byte(`{"kind":"ConfigMap"}`), 400, "provided data does not appear to be a protobuf message"},
		{"magic only", magic, 400, "Object 'Kind' is missing"},
		{"no apiVersion", cat(magic, msg(1, msg(2, "ConfigMap"))), 400, "'apiVersion' is missing"},
		{"truncated varint", cat(magic, []byte{0x0a, 0x80}), 400, "unexpected EOF"},
		{"overlong varint", cat(magic, []byte{0x0a}, bytes.Repeat([]byte{0xff}, 11)), 400, "overflow"},
		{"length beyond buffer", cat(magic, []byte{0x0a, 0x05, 0x0a}), 400, "unexpected EOF"},
		{"field number 0", cat(magic, []byte{0x00, 0x00}), 400, "invalid field number"},
		{"typeMeta wrong wire type", cat(magic, []byte{0x08, 0x01}), 400, "wrong wire type"},
		{"kind wrong wire type", cat(magic, msg(1, []byte{0x10, 0x01})), 400, "wrong wire type"},
		{"invalid UTF-8 kind", cat(magic, msg(1, msg(1, "v1", 2, "Config\xffMap"))), 400, "invalid UTF-8"},
		{"truncated group", cat(magic, msg(1, tm), []byte{0x2b, 0x08}), 400, "unexpected EOF"},
		{"content encoding", cat(magic, msg(1, tm, 2, []byte{}, 3, "gzip")), 400, `unsupported contentEncoding "gzip"`},
		{"content type", cat(magic, msg(1, tm, 2, []byte{}, 4, "application/json")), 400, `unsupported contentType`},
		{"unknown kind", Envelope("v1", "Secret", nil), 415, "unknown format"},
		{"too large", cat(configMap(nil), make([]byte, MaxDecodeSize)), 413, "Request entity too large"},

		{"raw truncated", configMap([]byte{0x0a, 0x05}), 400, "unexpected EOF"},
		{"metadata wrong wire type", configMap([]byte{0x08, 0x01}), 400, "metadata: wrong wire type 0"},
		{"name wrong wire type", configMap(msg(1, []byte{0x08, 0x01})), 400, "metadata.name: wrong wire type 0"},
		{"invalid UTF-8 name", configMap(msg(1, msg(1, "a\xffb"))), 400, "metadata.name: invalid UTF-8"},
		{"invalid UTF-8 label key", configMap(msg(1, msg(11, msg(1, "\xc3", 2, "v")))), 400, "metadata.labels: invalid UTF-8"},
		{"map entry truncated", configMap(msg(2, []byte{0x0a, 0x09, 'a'})), 400, "data: unexpected EOF"},
		{"map value wrong type", configMap(msg(2, msg(1, "a", 2, uint64(1)))), 400, "data: wrong wire type"},
		{"time out of range", configMap(msg(1, msg(8, msg(1, uint64(1)<<40)))), 400, "metadata.creationTimestamp: time outside years 0000-9999"},
		{"time negative", configMap(msg(1, msg(8, msg(1, uint64(1)<<63)))), 400, "time outside"},
		{"time wrong type", configMap(msg(1, msg(8, msg(1, "x")))), 400, "wrong wire type 2 for field seconds"},
		{"managed fields bad JSON", configMap(msg(1, msg(17, msg(7, msg(1, "{"))))), 400, "metadata.managedFields.fieldsV1: embedded JSON"},
		{"string as varint", widget(msg(4, uint64(1))), 400, "tags: wrong wire type"},
		{"packed ints truncated", widget(msg(20, []byte{0x80})), 400, "ints: unexpected EOF"},
		{"bad quantity", widget(msg(11, msg(1, "1.5.5"))), 400, `cpu: invalid quantity "1.5.5"`},
		{"empty quantity", widget(msg(11, msg(1, ""))), 400, `cpu: invalid quantity ""`},
		{"quantity without a number", widget(msg(11, msg(1, "Pi"))), 400, `cpu: invalid quantity "Pi"`},
		{"bad IntOrString", widget(msg(10, msg(1, uint64(2)))), 400, "port: invalid IntOrString type 2"},
		{"IntOrString bad UTF-8", widget(msg(10, msg(1, uint64(1), 3, "\xff"))), 400, "port: invalid UTF-8"},
		{"bad raw JSON", widget(msg(12, msg(1, "{\"a\":"))), 400, "ext: embedded JSON"},
		{"nested unknown kind", widget(msg(12, msg(1, Envelope("v1", "Secret", nil)))), 400, `ext: no protobuf type is known for kind "Secret"`},
		{"nested bad envelope", widget(msg(12, msg(1, cat(magic, []byte{0x0a})))), 400, "ext: unexpected EOF"},
		{"NaN", widget(cat(protowire.AppendTag(nil, 17, protowire.Fixed64Type), []byte{1, 0, 0, 0, 0, 0, 0xf8, 0x7f})), 400, "ratio: unsupported number NaN"},
		{"fixed32 truncated", widget(cat(protowire.AppendTag(nil, 24, protowire.Fixed32Type), []byte{1, 0})), 400, "fx: unexpected EOF"},
		{"too deep", widget(nested(maxDepth + 1)), 400, "exceeded max depth"},
		{"deep RawExtension", widget(deepRaw(maxDepth/2 + 1)), 400, "exceeded max depth"},
	}
	c := testCodec()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.Decode(tt.in)
			if err == nil {
				t.Fatalf("Decode succeeded: %s", jsonString(d.Object))
			}
			if got := statusCode(err); got != tt.code {
				t.Errorf("code %d, want %d (%v)", got, tt.code, err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q, want it to contain %q", err, tt.msg)
			}
		})
	}
}

// deepRaw nests Widgets through the RawExtension field ext (12), each
// holding an enveloped Widget: prefixes outside in, then the envelopes'
// tails inside out.
func deepRaw(depth int) []byte {
	head := Envelope("test.kapi.dev/v1", "Widget", nil)
	head, tail := head[:len(head)-4], head[len(head)-4:] // ends with raw tag and length 0
	head = head[:len(head)-2]
	sizes := make([]int, depth+1) // sizes[i]: the raw of level i
	for i := depth - 1; i >= 0; i-- {
		w := len(head) + 1 + protowire.SizeVarint(uint64(sizes[i+1])) + sizes[i+1] + len(tail)
		m1 := 1 + protowire.SizeVarint(uint64(w)) + w
		sizes[i] = 1 + protowire.SizeVarint(uint64(m1)) + m1
	}
	var b []byte
	for i := 0; i < depth; i++ {
		w := len(head) + 1 + protowire.SizeVarint(uint64(sizes[i+1])) + sizes[i+1] + len(tail)
		b = protowire.AppendTag(b, 12, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(1+protowire.SizeVarint(uint64(w))+w))
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(w))
		b = append(b, head...)
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(sizes[i+1]))
	}
	for i := 0; i < depth; i++ {
		b = append(b, tail...)
	}
	return b
}

func TestDecodeLenient(t *testing.T) {
	c := testCodec()
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"unknown fields and groups are skipped",
			configMap(cat(msg(99, "x", 100, uint64(5), 1, msg(1, "a", 50, "y")), []byte{0xab, 0x06, 0x08, 0x01, 0xac, 0x06})),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`},
		{"unknown envelope fields are skipped", cat(magic, msg(1, msg(1, "v1", 2, "ConfigMap", 3, "x"), 2, msg(1, msg(1, "a")), 9, "z")),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}`},
		{"content type protobuf", cat(magic, msg(1, msg(1, "v1", 2, "ConfigMap"), 2, []byte{}, 3, "", 4, MediaType)),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}`},
		{"last scalar wins", configMap(msg(1, msg(1, "a", 1, "b"))), `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}`},
		{"repeated message fields merge", configMap(msg(1, msg(1, "a"), 1, msg(3, "ns"), 1, msg(11, msg(1, "k", 2, "v")))),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"ns","labels":{"k":"v"}}}`},
		{"inline message given twice merges", widget(msg(14, msg(2, "p"), 14, msg(1, []byte{}))),
			`{"apiVersion":"test.kapi.dev/v1","kind":"Widget","name":"","tags":null,"created":null,"port":0,"verbs":null,"flag":false,"maybe":null,"path":"p","emptyDir":{}}`},
		{"map entries without key or value", configMap(msg(2, []byte{}, 3, msg(1, "k"))),
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{},"data":{"":""},"binaryData":{"k":null}}`},
		{"unpacked and packed ints", widget(cat(msg(20, uint64(1)), msg(20, []byte{2, 3}))),
			`{"apiVersion":"test.kapi.dev/v1","kind":"Widget","name":"","tags":null,"created":null,"port":0,"verbs":null,"flag":false,"maybe":null,"ints":[1,2,3]}`},
		{"Time nanos are ignored, MicroTime's truncated", widget(msg(7, msg(1, uint64(1), 2, uint64(999)), 8, msg(1, uint64(1), 2, uint64(1999)))),
			`{"apiVersion":"test.kapi.dev/v1","kind":"Widget","name":"","tags":null,"created":"1970-01-01T00:00:01Z","renewed":"1970-01-01T00:00:01.000001Z","port":0,"verbs":null,"flag":false,"maybe":null}`},
		{"empty RawExtension raw is null", widget(msg(12, msg(1, []byte{}))),
			`{"apiVersion":"test.kapi.dev/v1","kind":"Widget","name":"","tags":null,"created":null,"port":0,"verbs":null,"flag":false,"maybe":null,"ext":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := c.Decode(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := jsonString(d.Object), jsonString(obj(t, tt.want)); got != want {
				t.Fatalf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestDeepRawWithinLimit(t *testing.T) {
	c := testCodec()
	d, err := c.Decode(widget(deepRaw(3)))
	if err != nil {
		t.Fatal(err)
	}
	ext, _ := d.Object["ext"].(map[string]any)
	ext, _ = ext["ext"].(map[string]any)
	if ext["kind"] != "Widget" {
		t.Fatalf("deepRaw(3) = %s", jsonString(d.Object))
	}
}

func TestDecodeStatusCodes(t *testing.T) {
	c := testCodec()
	_, err := c.Decode(Envelope("v1", "Secret", nil))
	if statusCode(err) != http.StatusUnsupportedMediaType {
		t.Fatalf("unknown kind: %v", err)
	}
}

// doubled nests Widgets depth levels deep, each level giving its child
// twice: protobuf merges the two occurrences.
func doubled(depth int) []byte {
	b := msg(1, "x")
	for range depth {
		b = cat(msg(21, b), msg(21, b))
	}
	return b
}

// TestMergeCost guards against decoding merged occurrences one by one,
// which costs exponential time on doubled (it took minutes for 50 KiB).
func TestMergeCost(t *testing.T) {
	c := testCodec()
	in := widget(doubled(18)) // 2.4 MB
	if len(in) > MaxDecodeSize {
		t.Fatalf("input %d bytes", len(in))
	}
	start := time.Now()
	d, err := c.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 10*time.Second {
		t.Fatalf("decoding %d bytes took %v", len(in), el)
	}
	o := map[string]any(d.Object)
	for i := 0; i < 18; i++ {
		o = o["child"].(map[string]any)
	}
	if o["name"] != "x" || o["child"] != nil {
		t.Fatalf("innermost child %v", o)
	}
}
