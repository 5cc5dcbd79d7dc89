package protobuf

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

// MediaType is the media type of Kubernetes protobuf.
const MediaType = "application/vnd.kubernetes.protobuf"

// MaxDecodeSize bounds the bodies Decode accepts, as kube-apiserver bounds
// request bodies (3 MiB).
const MaxDecodeSize = 3 << 20

// TypeResolver returns the message descriptor of a kind, or nil when the
// kind has no protobuf representation. Its answer for a kind must not
// change once it is not nil (the Codec caches it). It must be safe for
// concurrent use.
type TypeResolver func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor

// Codec reads and writes application/vnd.kubernetes.protobuf for the kinds
// its TypeResolver knows, plus the meta kinds the library defines (Status,
// DeleteOptions, WatchEvent, PartialObjectMetadata[List]) and the XList of
// every known kind X. It implements codec.Codec and is safe for concurrent
// use.
type Codec struct {
	types TypeResolver
	plans planCache
	kinds sync.Map // meta.GroupVersionKind -> *msgPlan
}

var _ codec.Codec = (*Codec)(nil)

// New returns a Codec for the kinds types resolves (types may be nil: then
// only the library's meta kinds).
func New(types TypeResolver) *Codec { return &Codec{types: types} }

// MediaType implements codec.Codec.
func (c *Codec) MediaType() string { return MediaType }

// SupportsKind reports whether objects of the kind can be encoded and
// decoded.
func (c *Codec) SupportsKind(gvk meta.GroupVersionKind) bool {
	p, err := c.resolve(gvk)
	return err == nil && p != nil
}

// accepted is what a 406 or 415 from the codec lists: the formats every
// kapi server speaks.
var accepted = []string{codec.JSON, codec.YAML}

func notAcceptable(gvk meta.GroupVersionKind) *meta.Status {
	st := meta.NotAcceptable(accepted)
	if gvk.Kind != "" {
		st.Details = &meta.StatusDetails{Group: gvk.Group, Kind: gvk.Kind}
	}
	return st
}

func gvkOf(obj map[string]any) meta.GroupVersionKind {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	gv := meta.ParseGroupVersion(apiVersion)
	return meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: kind}
}

// Encode implements codec.Codec: it writes a meta.Object (or
// map[string]any) of a known kind, or a *meta.Status, enveloped. Anything
// else, or an object of a kind without a descriptor, is a 406 NotAcceptable
// Status; a value that does not fit its descriptor is an error naming the
// field.
func (c *Codec) Encode(v any) ([]byte, error) {
	var obj map[string]any
	switch o := v.(type) {
	case *meta.Status:
		if o == nil {
			return nil, notAcceptable(meta.GroupVersionKind{})
		}
		obj = statusObject(o)
	case meta.Status:
		obj = statusObject(&o)
	case meta.Object:
		obj = o
	case map[string]any:
		obj = o
	default:
		return nil, notAcceptable(meta.GroupVersionKind{})
	}
	gvk := gvkOf(obj)
	p, err := c.resolve(gvk)
	if err != nil {
		return nil, err
	}
	if p == nil || gvk.Kind == "" || gvk.Version == "" {
		return nil, notAcceptable(gvk)
	}
	apiVersion := gvk.GroupVersion().String()
	e := getEncoder()
	defer putEncoder(e)
	tm := sizeString(1, apiVersion) + sizeString(2, gvk.Kind)
	e.buf = appendEnvelopeHead(e.buf, apiVersion, gvk.Kind, tm)
	pos := e.beginLen(2)
	if err := e.message(p, obj); err != nil {
		return nil, fmt.Errorf("encoding %s as protobuf: %w", gvk.Kind, err)
	}
	e.endLen(pos)
	e.buf = appendEnvelopeTail(e.buf)
	return e.bytes(), nil
}

// EncodeMessage returns the message of obj (the raw bytes of its
// envelope), for a cache of serialized object versions: Envelope, EncodeList
// and EncodeWatchEvent assemble responses from it. Errors are as Encode's.
func (c *Codec) EncodeMessage(obj meta.Object) ([]byte, error) {
	gvk := gvkOf(obj)
	p, err := c.resolve(gvk)
	if err != nil {
		return nil, err
	}
	if p == nil || gvk.Kind == "" {
		return nil, notAcceptable(gvk)
	}
	e := getEncoder()
	defer putEncoder(e)
	if err := e.message(p, obj); err != nil {
		return nil, fmt.Errorf("encoding %s as protobuf: %w", gvk.Kind, err)
	}
	return e.bytes(), nil
}

// Decode implements codec.Codec: it reads an enveloped object into a
// meta.Object with apiVersion and kind from the envelope. It decodes the
// resolver's kinds and their lists, Status, PartialObjectMetadata[List],
// WatchEvent, and DeleteOptions of any group version (client-go sends
// them in the group version of the resource). Errors are *meta.Status:
// 413 for a body over MaxDecodeSize, 415 for a kind without a descriptor,
// 400 for anything malformed. It never panics.
func (c *Codec) Decode(data []byte) (codec.Decoded, error) {
	if len(data) > MaxDecodeSize {
		return codec.Decoded{}, meta.RequestEntityTooLarge(MaxDecodeSize)
	}
	d := decoder{c: c}
	obj, err := d.envelope(data)
	if err != nil {
		var ke *kindError
		if errors.As(err, &ke) && !ke.nested {
			return codec.Decoded{}, meta.UnsupportedMediaType(MediaType, accepted)
		}
		var de *descriptorError
		if errors.As(err, &de) {
			return codec.Decoded{}, meta.Internal(de.err)
		}
		return codec.Decoded{}, meta.BadRequest(err.Error()) // kube's serializer's error, as it words it
	}
	return codec.Decoded{Object: obj}, nil
}

// resolve returns the plan of a kind, nil when it has no descriptor.
func (c *Codec) resolve(gvk meta.GroupVersionKind) (*msgPlan, error) {
	if p, ok := c.kinds.Load(gvk); ok {
		return p.(*msgPlan), nil
	}
	p, err := c.lookup(gvk)
	if err != nil || p == nil {
		return nil, err
	}
	if p.special != specNone {
		return nil, fmt.Errorf("the descriptor of kind %s, %s, is not an object message", gvk.Kind, p.name)
	}
	c.kinds.Store(gvk, p)
	return p, nil
}

func (c *Codec) lookup(gvk meta.GroupVersionKind) (*msgPlan, error) {
	if gvk.Kind == "" {
		return nil, nil
	}
	if c.types != nil {
		if md := c.types(gvk); md != nil {
			return c.plans.get(md)
		}
	}
	if name := builtinKind(gvk); name != "" {
		return c.plans.get(builtinMessage(name))
	}
	if base, ok := strings.CutSuffix(gvk.Kind, "List"); ok && base != "" && c.types != nil {
		if md := c.types(meta.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: base}); md != nil {
			item, err := c.plans.get(md)
			if err != nil {
				return nil, err
			}
			lm, err := c.plans.get(builtinMessage(nameListMeta))
			if err != nil {
				return nil, err
			}
			return listPlan(lm, item), nil
		}
	}
	return nil, nil
}

// builtinKind names the library's descriptor for the meta kinds.
func builtinKind(gvk meta.GroupVersionKind) protoreflect.FullName {
	switch gvk.Kind {
	case "Status":
		if (gvk.Group == "" && gvk.Version == "v1") || gvk.Group == "meta.k8s.io" {
			return nameStatus
		}
	case "DeleteOptions":
		return nameDeleteOptions
	case "WatchEvent":
		return nameWatchEvent
	case "PartialObjectMetadata":
		if gvk.Group == "meta.k8s.io" {
			return namePartial
		}
	case "PartialObjectMetadataList":
		if gvk.Group == "meta.k8s.io" {
			return namePartialList
		}
	}
	return ""
}

// statusObject is the JSON shape of a Status.
func statusObject(s *meta.Status) map[string]any {
	kind, apiVersion := s.Kind, s.APIVersion
	if kind == "" {
		kind = "Status"
	}
	if apiVersion == "" {
		apiVersion = "v1"
	}
	md := map[string]any{}
	if s.Metadata.ResourceVersion != "" {
		md["resourceVersion"] = s.Metadata.ResourceVersion
	}
	if s.Metadata.Continue != "" {
		md["continue"] = s.Metadata.Continue
	}
	if s.Metadata.RemainingItemCount != nil {
		md["remainingItemCount"] = *s.Metadata.RemainingItemCount
	}
	obj := map[string]any{
		"kind": kind, "apiVersion": apiVersion, "metadata": md,
		"status": s.Status, "message": s.Message, "reason": string(s.Reason), "code": int64(s.Code),
	}
	if d := s.Details; d != nil {
		dm := map[string]any{
			"name": d.Name, "group": d.Group, "kind": d.Kind, "uid": d.UID,
			"retryAfterSeconds": int64(d.RetryAfterSeconds),
		}
		if len(d.Causes) > 0 {
			causes := make([]any, len(d.Causes))
			for i, c := range d.Causes {
				causes[i] = map[string]any{"reason": string(c.Type), "message": c.Message, "field": c.Field}
			}
			dm["causes"] = causes
		}
		obj["details"] = dm
	}
	return obj
}
