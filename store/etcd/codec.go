package etcd

import (
	"bytes"
	"fmt"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/codec/protobuf"
	"github.com/kapi-dev/kapi/meta"
)

// Codec turns objects into the values stored in etcd and back. The object
// given to Encode carries no metadata.resourceVersion (etcd's mod revision
// is the version, as in kube-apiserver) and must not be changed; Decode's
// result is owned by the store, which stamps the revision into it.
type Codec interface {
	Encode(obj meta.Object) ([]byte, error)
	Decode(data []byte) (meta.Object, error)
}

// Sniffer is a Codec that tells at a glance whether it reads a value: a
// new cache then keeps the values it recognizes as they are and decodes
// each when it is first read, and skips the others (such as values kube
// encrypted at rest) at once. Recognizes must be cheap; a recognized value
// that later fails to decode reads as an empty object, and is logged.
type Sniffer interface {
	Codec
	Recognizes(value []byte) bool
}

// JSON stores every object as JSON, as kube-apiserver stores custom
// resources. It is the default Codec.
type JSON struct{}

// Encode implements Codec.
func (JSON) Encode(obj meta.Object) ([]byte, error) { return codec.JSONCodec{}.Encode(obj) }

// Decode implements Codec.
func (JSON) Decode(data []byte) (meta.Object, error) {
	d, err := codec.JSONCodec{}.Decode(data)
	return d.Object, err
}

// Recognizes implements Sniffer: a JSON object.
func (JSON) Recognizes(value []byte) bool {
	value = bytes.TrimLeft(value, " \t\r\n")
	return len(value) > 0 && value[0] == '{'
}

// protobufMagic starts kube's protobuf envelope.
var protobufMagic = []byte("k8s\x00")

// Kube stores objects as kube-apiserver does: built-in kinds in kube's
// protobuf envelope ("k8s\x00", then runtime.Unknown), everything else
// (custom resources) as JSON. Protobuf is a codec that knows the built-in
// kinds' messages, such as codec/protobuf's Codec over the library's
// descriptors (codec/protobuf/builtinproto); the kinds it does not support are
// stored as JSON. Decode tells the two apart by the envelope's magic, so
// it reads whatever either server wrote.
//
// Kube also knows, whatever Protobuf is, the one kind kube-apiserver
// stores that no API serves: core/v1 RangeAllocation, the node port bitmap
// kapi and kube-apiserver share at <prefix>/ranges/servicenodeports
// (apiserver.Write.UpdateRecord), in kube's protobuf.
type Kube struct {
	Protobuf codec.Codec
}

// protobufFor is the protobuf codec of kind gvk, nil when none knows it.
func (k Kube) protobufFor(gvk meta.GroupVersionKind) codec.Codec {
	switch {
	case k.Protobuf != nil && codec.Supports(k.Protobuf, gvk):
		return k.Protobuf
	case gvk == rangeAllocationKind:
		return rangeAllocationCodec()
	}
	return nil
}

// Encode implements Codec.
func (k Kube) Encode(obj meta.Object) ([]byte, error) {
	gv := meta.ParseGroupVersion(obj.APIVersion())
	gvk := meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: obj.Kind()}
	if c := k.protobufFor(gvk); c != nil {
		return c.Encode(obj)
	}
	return JSON{}.Encode(obj)
}

// Decode implements Codec.
func (k Kube) Decode(data []byte) (meta.Object, error) {
	if bytes.HasPrefix(data, protobufMagic) {
		c := k.Protobuf
		if gvk, ok := envelopeKind(data[len(protobufMagic):]); ok && gvk == rangeAllocationKind {
			c = k.protobufFor(gvk)
		}
		if c == nil {
			return nil, fmt.Errorf("store/etcd: a protobuf value and no protobuf codec")
		}
		d, err := c.Decode(data)
		return d.Object, err
	}
	return JSON{}.Decode(data)
}

// Recognizes implements Sniffer: kube's protobuf envelope of a kind k
// encodes in protobuf, or a JSON object.
func (k Kube) Recognizes(value []byte) bool {
	if !bytes.HasPrefix(value, protobufMagic) {
		return JSON{}.Recognizes(value)
	}
	gvk, ok := envelopeKind(value[len(protobufMagic):])
	return ok && k.protobufFor(gvk) != nil
}

// rangeAllocationKind is core/v1 RangeAllocation.
var rangeAllocationKind = meta.GroupVersionKind{Version: "v1", Kind: "RangeAllocation"}

// rangeAllocationCodec is a protobuf codec of RangeAllocation alone, from
// a descriptor of kube's message (k8s.io/api/core/v1 generated.proto:
// metadata 1, range 2, data 3) over codec/protobuf's ObjectMeta.
var rangeAllocationCodec = sync.OnceValue(func() *protobuf.Codec {
	files := protobuf.BuiltinFiles()
	objectMeta, err := files.FindDescriptorByName("k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta")
	if err != nil {
		panic(err) // cannot happen: codec/protobuf defines it
	}
	field := func(num int32, name string, t descriptorpb.FieldDescriptorProto_Type, typeName, json string) *descriptorpb.FieldDescriptorProto {
		f := &descriptorpb.FieldDescriptorProto{Name: proto.String(name), Number: proto.Int32(num),
			Label: descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(), Type: t.Enum(), JsonName: proto.String(json)}
		if typeName != "" {
			f.TypeName = proto.String(typeName)
		}
		return f
	}
	fd, err := protodesc.NewFile(&descriptorpb.FileDescriptorProto{
		Name:       proto.String("kapi/store/etcd/k8s.io/api/core/v1/rangeallocation.proto"),
		Package:    proto.String("k8s.io.api.core.v1"),
		Syntax:     proto.String("proto2"),
		Dependency: []string{objectMeta.ParentFile().Path()},
		MessageType: []*descriptorpb.DescriptorProto{{
			Name: proto.String("RangeAllocation"),
			Field: []*descriptorpb.FieldDescriptorProto{
				field(1, "metadata", descriptorpb.FieldDescriptorProto_TYPE_MESSAGE, "."+string(objectMeta.FullName()), "metadata,omitempty,nonnull"),
				field(2, "range", descriptorpb.FieldDescriptorProto_TYPE_STRING, "", "range,nonnull"),
				field(3, "data", descriptorpb.FieldDescriptorProto_TYPE_BYTES, "", "data"),
			},
		}},
	}, files)
	if err != nil {
		panic(err) // cannot happen: the descriptor above is fixed
	}
	md := fd.Messages().ByName("RangeAllocation")
	return protobuf.New(func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		if gvk == rangeAllocationKind {
			return md
		}
		return nil
	})
})

// envelopeKind reads the apiVersion and kind of kube's protobuf envelope
// (runtime.Unknown, whose field 1 is the TypeMeta: apiVersion 1, kind 2)
// without decoding the object.
func envelopeKind(b []byte) (meta.GroupVersionKind, bool) {
	typeMeta, ok := protoField(b, 1)
	if !ok {
		return meta.GroupVersionKind{}, false
	}
	apiVersion, _ := protoField(typeMeta, 1)
	kind, ok := protoField(typeMeta, 2)
	if !ok || len(kind) == 0 {
		return meta.GroupVersionKind{}, false
	}
	gv := meta.ParseGroupVersion(string(apiVersion))
	return meta.GroupVersionKind{Group: gv.Group, Version: gv.Version, Kind: string(kind)}, true
}

// protoField returns the first length-delimited field num of the protobuf
// message b.
func protoField(b []byte, num protowire.Number) ([]byte, bool) {
	for len(b) > 0 {
		n, typ, l := protowire.ConsumeTag(b)
		if l < 0 {
			return nil, false
		}
		b = b[l:]
		if n == num && typ == protowire.BytesType {
			v, l := protowire.ConsumeBytes(b)
			return v, l >= 0
		}
		l = protowire.ConsumeFieldValue(n, typ, b)
		if l < 0 {
			return nil, false
		}
		b = b[l:]
	}
	return nil, false
}

// withoutResourceVersion returns obj without metadata.resourceVersion,
// sharing everything else: the form values are stored in.
func withoutResourceVersion(obj meta.Object) meta.Object {
	md := obj.Metadata()
	if _, ok := md["resourceVersion"]; !ok {
		return obj
	}
	out := make(meta.Object, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	m := make(map[string]any, len(md))
	for k, v := range md {
		if k != "resourceVersion" {
			m[k] = v
		}
	}
	out["metadata"] = m
	return out
}
