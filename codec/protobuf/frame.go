package protobuf

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// List implements codec.Framer: the enveloped list message around its
// items, each the object message inside an item's envelope (Encode's
// output), preceded by its field tag and length. The prefixes of all
// items share one buffer.
func (c *Codec) List(of codec.ListOf, lm meta.ListMeta, items [][]byte) (codec.List, error) {
	raws := make([][]byte, len(items))
	prefixes := 0
	for i, env := range items {
		raw, ok := RawFromEnvelope(env)
		if !ok {
			return codec.List{}, fmt.Errorf("protobuf: list item %d is not an enveloped object", i)
		}
		raws[i] = raw
		prefixes += ListItemPrefixSize(len(raw))
	}
	l := codec.List{Items: make([]codec.ListItem, len(items))}
	l.Head, l.Tail = EncodeListParts(of.APIVersion, of.ListKind, lm, raws)
	buf := make([]byte, 0, prefixes)
	for i, raw := range raws {
		start := len(buf)
		buf = AppendListItemPrefix(buf, len(raw))
		l.Items[i] = codec.ListItem{Prefix: buf[start:len(buf):len(buf)], Bytes: raw}
	}
	return l, nil
}

// EmptyList implements codec.Framer.
func (c *Codec) EmptyList(of codec.ListOf) []byte {
	return c.EncodeList(of.APIVersion, of.ListKind, meta.ListMeta{}, nil)
}

// WatchMediaType implements codec.Framer.
func (c *Codec) WatchMediaType() string { return MediaType + ";stream=watch" }

// AppendEvent implements codec.Framer: a 4-byte big-endian length, then a
// WatchEvent whose object is the enveloped object, as kube-apiserver
// streams protobuf watches.
func (c *Codec) AppendEvent(buf *bytes.Buffer, eventType string, object []byte) {
	msg := EncodeWatchEvent(eventType, object)
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(msg)))
	buf.Write(n[:])
	buf.Write(msg)
}

var _ codec.Framer = (*Codec)(nil)
var _ codec.Framer = codec.JSONCodec{}
