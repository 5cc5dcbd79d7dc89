package protobuf

import (
	"encoding/binary"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/kapi-dev/kapi/meta"
)

// Envelope wraps an object's message (raw, without envelope) for the wire:
// the magic "k8s\x00" then runtime.Unknown{typeMeta{apiVersion, kind}, raw,
// contentEncoding: "", contentType: ""}, byte for byte what Kubernetes'
// serializer writes.
func Envelope(apiVersion, kind string, raw []byte) []byte {
	tm := sizeString(1, apiVersion) + sizeString(2, kind)
	size := len(magic) + 1 + protowire.SizeVarint(uint64(tm)) + tm + sizeBytes(2, len(raw)) + 4
	b := make([]byte, 0, size)
	b = appendEnvelopeHead(b, apiVersion, kind, tm)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, raw)
	return appendEnvelopeTail(b)
}

// appendEnvelopeHead appends the magic and the typeMeta field (tm is its
// content size).
func appendEnvelopeHead(b []byte, apiVersion, kind string, tm int) []byte {
	b = append(b, magic...)
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(tm))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, apiVersion)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	return protowire.AppendString(b, kind)
}

// appendEnvelopeTail appends the empty contentEncoding and contentType
// that Kubernetes always writes.
func appendEnvelopeTail(b []byte) []byte {
	return append(b, 0x1a, 0x00, 0x22, 0x00)
}

func sizeString(num protowire.Number, s string) int {
	return protowire.SizeTag(num) + protowire.SizeBytes(len(s))
}

func sizeBytes(num protowire.Number, n int) int {
	return protowire.SizeTag(num) + protowire.SizeBytes(n)
}

// listMetaSize is the size of a ListMeta message as Kubernetes writes it:
// selfLink, resourceVersion and continue always, remainingItemCount when
// set.
func listMetaSize(lm meta.ListMeta) int {
	n := sizeString(1, "") + sizeString(2, lm.ResourceVersion) + sizeString(3, lm.Continue)
	if lm.RemainingItemCount != nil {
		n += protowire.SizeTag(4) + protowire.SizeVarint(uint64(*lm.RemainingItemCount))
	}
	return n
}

func appendListMeta(b []byte, lm meta.ListMeta) []byte {
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = append(b, 0)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, lm.ResourceVersion)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendString(b, lm.Continue)
	if lm.RemainingItemCount != nil {
		b = protowire.AppendTag(b, 4, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(*lm.RemainingItemCount))
	}
	return b
}

// EncodeList builds an enveloped XList {metadata=1 ListMeta, items=2
// repeated X} from the cached messages of its items (EncodeMessage output,
// no envelope), without decoding or re-encoding them. It allocates once.
// The receiver is unused: any Codec (or nil) builds the same bytes.
func (c *Codec) EncodeList(apiVersion, listKind string, lm meta.ListMeta, items [][]byte) []byte {
	head, tail := EncodeListParts(apiVersion, listKind, lm, items)
	b := make([]byte, 0, len(head)+len(tail)+listItemsSize(items))
	b = append(b, head...)
	for _, it := range items {
		b = AppendListItemPrefix(b, len(it))
		b = append(b, it...)
	}
	return append(b, tail...)
}

func listItemsSize(items [][]byte) int {
	n := 0
	for _, it := range items {
		n += sizeBytes(2, len(it))
	}
	return n
}

// EncodeListParts returns what comes before and after the items of an
// enveloped list, so that a large list is written without copying its
// items into one buffer: head, then for each item AppendListItemPrefix and
// the item's message, then tail.
func EncodeListParts(apiVersion, listKind string, lm meta.ListMeta, items [][]byte) (head, tail []byte) {
	return encodeListParts(apiVersion, listKind, lm, listItemsSize(items))
}

// encodeListParts is EncodeListParts for items whose fields (tag, length
// and message) take itemsSize bytes in all.
func encodeListParts(apiVersion, listKind string, lm meta.ListMeta, itemsSize int) (head, tail []byte) {
	lms := listMetaSize(lm)
	raw := sizeBytes(1, lms) + itemsSize
	tm := sizeString(1, apiVersion) + sizeString(2, listKind)
	b := make([]byte, 0, len(magic)+1+protowire.SizeVarint(uint64(tm))+tm+protowire.SizeVarint(uint64(raw))+1+sizeBytes(1, lms))
	b = appendEnvelopeHead(b, apiVersion, listKind, tm)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(raw))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(lms))
	b = appendListMeta(b, lm)
	return b, appendEnvelopeTail(nil)
}

// AppendListItemPrefix appends the field tag and length that precede an
// item of n bytes in a list message.
func AppendListItemPrefix(b []byte, n int) []byte {
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	return protowire.AppendVarint(b, uint64(n))
}

// ListItemPrefixSize is len(AppendListItemPrefix(nil, n)), without
// building it.
func ListItemPrefixSize(n int) int {
	return protowire.SizeTag(2) + protowire.SizeVarint(uint64(n))
}

// EncodeWatchEvent builds the message of one protobuf watch event:
// metav1.WatchEvent{type, object: RawExtension{raw: object}}, where object
// is the enveloped object (Encode output, or Envelope of a cached
// EncodeMessage). Like kube-apiserver's watch stream (which encodes events
// with the raw protobuf serializer), the event itself carries no envelope:
// write Frame(EncodeWatchEvent(...)) per event.
func EncodeWatchEvent(eventType string, object []byte) []byte {
	ext := sizeBytes(1, len(object))
	b := make([]byte, 0, sizeString(1, eventType)+sizeBytes(2, ext))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, eventType)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(ext))
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendBytes(b, object)
}

// Frame prefixes msg with its length as 4 bytes big-endian, the framing of
// Kubernetes protobuf watch streams (apimachinery's util/framer).
func Frame(msg []byte) []byte {
	b := make([]byte, 4, 4+len(msg))
	binary.BigEndian.PutUint32(b, uint32(len(msg)))
	return append(b, msg...)
}

// RawFromEnvelope returns the object message inside an envelope written by
// Envelope (or Encode), without copying: the API server caches enveloped
// objects once and takes list items out of them.
func RawFromEnvelope(env []byte) ([]byte, bool) {
	if len(env) < len(magic) || string(env[:len(magic)]) != string(magic) {
		return nil, false
	}
	b := env[len(magic):]
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || typ != protowire.BytesType {
			return nil, false
		}
		b = b[n:]
		v, n := protowire.ConsumeBytes(b)
		if n < 0 {
			return nil, false
		}
		if num == 2 {
			return v, true
		}
		b = b[n:]
	}
	return nil, false
}
