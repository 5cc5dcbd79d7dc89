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
// output), preceded by its field tag and length.
func (c *Codec) List(of codec.ListOf, lm meta.ListMeta, n int, item func(int) ([]byte, error)) (codec.List, error) {
	l := codec.List{Items: make([]codec.ListItem, n)}
	size := 0
	var prefix [10]byte
	for i := range l.Items {
		env, err := item(i)
		if err != nil {
			return codec.List{}, err
		}
		raw, ok := RawFromEnvelope(env)
		if !ok {
			return codec.List{}, fmt.Errorf("protobuf: list item %d is not an enveloped object", i)
		}
		l.Items[i].Bytes = raw
		l.Items[i].SetPrefix(AppendListItemPrefix(prefix[:0], len(raw)))
		size += sizeBytes(2, len(raw))
	}
	l.Head, l.Tail = encodeListParts(of.APIVersion, of.ListKind, lm, size)
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
