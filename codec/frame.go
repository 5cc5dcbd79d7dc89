package codec

import (
	"bytes"
	"io"

	"github.com/kapi-dev/kapi/meta"
)

// Framer is implemented by codecs that put objects they already encoded
// into lists and watch streams: a list's items and a watch's events are
// then the cached encodings of stored versions (Encode's output), so a
// server never encodes a stored version twice, and never needs to know
// which codec it holds. A codec without it (YAML) answers a list by
// encoding the whole list, and serves no watch.
type Framer interface {
	// List frames n items, item(i) returning the i-th as Encode wrote it
	// (a cached encoding), as a list of of with list metadata lm.
	List(of ListOf, lm meta.ListMeta, n int, item func(i int) ([]byte, error)) (List, error)
	// EmptyList is the empty list of of as a streaming list announces it
	// (kube's initial-events-list-blueprint annotation).
	EmptyList(of ListOf) []byte
	// WatchMediaType is the Content-Type of a watch stream.
	WatchMediaType() string
	// AppendEvent appends one watch event whose object is as Encode wrote
	// it.
	AppendEvent(buf *bytes.Buffer, eventType string, object []byte)
}

// ListOf says what a list holds.
type ListOf struct {
	APIVersion, Kind, ListKind string
	// Typed lists are kube's built-in kinds' lists, whose items carry no
	// apiVersion and kind (custom resources' lists keep them).
	Typed bool
}

// List is an encoded list as the parts it is written from, so that a large
// list streams to its client from its items' cached encodings without
// being copied into one buffer first.
type List struct {
	Head, Sep, Tail []byte
	Items           []ListItem
}

// ListItem is an item of a List: a short prefix (a protobuf field tag and
// length, or the "{" of a JSON object whose type meta was cut), then Bytes,
// a part of the object's encoding. The prefix is kept inline, so a list of
// n items costs one allocation of n ListItems.
type ListItem struct {
	Bytes     []byte
	prefix    [maxPrefix]byte
	prefixLen uint8
}

// maxPrefix is the longest prefix: a protobuf tag and a 32-bit length.
const maxPrefix = 7

// SetPrefix sets the bytes written before the item (at most 7).
func (it *ListItem) SetPrefix(p []byte) { it.prefixLen = uint8(copy(it.prefix[:], p)) }

// Prefix is what is written before the item.
func (it *ListItem) Prefix() []byte { return it.prefix[:it.prefixLen] }

// Size is the length of the list written.
func (l List) Size() int {
	n := len(l.Head) + len(l.Tail)
	for i := range l.Items {
		n += int(l.Items[i].prefixLen) + len(l.Items[i].Bytes)
	}
	if len(l.Items) > 1 {
		n += (len(l.Items) - 1) * len(l.Sep)
	}
	return n
}

// WriteTo writes the list to w.
func (l List) WriteTo(w io.Writer) (int64, error) {
	var n int64
	write := func(b []byte) error {
		if len(b) == 0 {
			return nil
		}
		m, err := w.Write(b)
		n += int64(m)
		return err
	}
	if err := write(l.Head); err != nil {
		return n, err
	}
	for i := range l.Items {
		it := &l.Items[i]
		if i > 0 {
			if err := write(l.Sep); err != nil {
				return n, err
			}
		}
		if err := write(it.Prefix()); err != nil {
			return n, err
		}
		if err := write(it.Bytes); err != nil {
			return n, err
		}
	}
	return n, write(l.Tail)
}

// Bytes joins the parts, for the answers that need the whole body
// (pretty printing).
func (l List) Bytes() []byte {
	var buf bytes.Buffer
	buf.Grow(l.Size())
	_, _ = l.WriteTo(&buf)
	return buf.Bytes()
}

var openBrace = []byte{'{'}

// List implements Framer: the list's head with its metadata, the items
// separated by commas (a typed list's items without their leading
// apiVersion and kind, which Encode writes first), then its end.
func (c JSONCodec) List(of ListOf, lm meta.ListMeta, n int, item func(int) ([]byte, error)) (List, error) {
	head, err := c.Encode(struct {
		Kind       string        `json:"kind"`
		APIVersion string        `json:"apiVersion"`
		Metadata   meta.ListMeta `json:"metadata"`
	}{of.ListKind, of.APIVersion, lm})
	if err != nil {
		return List{}, err
	}
	l := List{
		Head:  append(head[:len(head)-1:len(head)-1], `,"items":[`...), // the head without its closing brace
		Items: make([]ListItem, n),
		Sep:   []byte{','},
		Tail:  []byte("]}"),
	}
	var typeMeta []byte
	if of.Typed {
		typeMeta = TypeMetaPrefix(of.APIVersion, of.Kind)
	}
	for i := range l.Items {
		b, err := item(i)
		if err != nil {
			return List{}, err
		}
		if typeMeta != nil && len(b) > len(typeMeta) && bytes.Equal(b[:len(typeMeta)], typeMeta) {
			l.Items[i].Bytes = b[len(typeMeta):]
			l.Items[i].SetPrefix(openBrace)
			continue
		}
		l.Items[i].Bytes = b
	}
	return l, nil
}

// EmptyList implements Framer, as kube writes the blueprint: null items.
func (c JSONCodec) EmptyList(of ListOf) []byte {
	b, _ := c.Encode(struct {
		Kind       string   `json:"kind"`
		APIVersion string   `json:"apiVersion"`
		Metadata   struct{} `json:"metadata"`
		Items      []any    `json:"items"`
	}{Kind: of.ListKind, APIVersion: of.APIVersion})
	return append(b, '\n')
}

// WatchMediaType implements Framer: kube streams JSON events as
// application/json.
func (JSONCodec) WatchMediaType() string { return JSON }

// AppendEvent implements Framer: one event per line.
func (JSONCodec) AppendEvent(buf *bytes.Buffer, eventType string, object []byte) {
	buf.WriteString(`{"type":"`)
	buf.WriteString(eventType)
	buf.WriteString(`","object":`)
	buf.Write(object)
	buf.WriteString("}\n")
}
