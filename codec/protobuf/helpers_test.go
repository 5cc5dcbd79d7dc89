package protobuf

import (
	"encoding/json"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"

	"github.com/kapi-dev/kapi/codec"
	"github.com/kapi-dev/kapi/meta"
)

const testPkg = "kapi.test"

// testFile is a hand-built descriptor file: a ConfigMap like core/v1's and
// a Widget with one field of every shape the transcoder handles.
func testFile() *descriptorpb.FileDescriptorProto {
	fb := newFileBuilder("kapi/test/widget.proto", testPkg)
	fb.depend(metaFile)
	fb.depend(runtimeFile)
	fb.depend(intstrFile)
	fb.depend(resourceFile)

	m := fb.message("ConfigMap")
	m.Field = append(m.Field, fieldProto(1, "metadata", tMessage, nameObjectMeta, false, "metadata,omitempty,nonnull"))
	addMapField(testPkg, m, 2, "data", tString, tString, "", "data,omitempty")
	addMapField(testPkg, m, 3, "binaryData", tString, tBytes, "", "binaryData,omitempty")
	m.Field = append(m.Field, fieldProto(4, "immutable", tBool, "", false, "immutable,omitempty"))

	m = fb.message("StringList")
	m.Field = append(m.Field, fieldProto(1, "items", tString, "", true, ",inline"))

	m = fb.message("Empty")
	m.Field = append(m.Field, fieldProto(1, "medium", tString, "", false, "medium,omitempty,nonnull"))
	m = fb.message("Source")
	m.Field = append(m.Field,
		fieldProto(1, "emptyDir", tMessage, testPkg+".Empty", false, "emptyDir,omitempty"),
		fieldProto(2, "path", tString, "", false, "path,omitempty"))
	m = fb.message("Color")
	m.Field = append(m.Field, fieldProto(1, "color", tString, "", false, "color,omitempty,nonnull"))

	sint64 := descriptorpb.FieldDescriptorProto_TYPE_SINT64
	m = fb.message("Widget")
	m.Field = append(m.Field,
		fieldProto(1, "name", tString, "", false, "name,nonnull"),
		fieldProto(2, "count", tInt32, "", false, "count,omitempty,nonnull"),
		fieldProto(3, "replicas", tInt32, "", false, "replicas,omitempty"),
		fieldProto(4, "tags", tString, "", true, "tags"),
		fieldProto(6, "data", tBytes, "", false, "data,omitempty"),
		fieldProto(7, "created", tMessage, nameTime, false, "created,omitempty,nonnull"),
		fieldProto(8, "renewed", tMessage, nameMicroTime, false, "renewed,omitempty"),
		fieldProto(9, "timeout", tMessage, nameDuration, false, "timeout,omitempty"),
		fieldProto(10, "port", tMessage, nameIntOrString, false, "port,omitempty,nonnull"),
		fieldProto(11, "cpu", tMessage, nameQuantity, false, "cpu,omitempty"),
		fieldProto(12, "ext", tMessage, nameRawExtension, false, "ext,omitempty"),
		fieldProto(13, "fields", tMessage, nameFieldsV1, false, "fields,omitempty"),
		fieldProto(14, "source", tMessage, testPkg+".Source", false, ",inline,nonnull"),
		fieldProto(16, "verbs", tMessage, testPkg+".StringList", false, "verbs"),
		fieldProto(17, "ratio", descriptorpb.FieldDescriptorProto_TYPE_DOUBLE, "", false, "ratio,omitempty,nonnull"),
		fieldProto(18, "weight", descriptorpb.FieldDescriptorProto_TYPE_FLOAT, "", false, "weight,omitempty"),
		fieldProto(19, "big", descriptorpb.FieldDescriptorProto_TYPE_UINT64, "", false, "big,omitempty"),
		fieldProto(21, "child", tMessage, testPkg+".Widget", false, "child,omitempty"),
		fieldProto(22, "flag", tBool, "", false, "flag,nonnull"),
		fieldProto(23, "zz", sint64, "", false, "zz,omitempty"),
		fieldProto(24, "fx", descriptorpb.FieldDescriptorProto_TYPE_FIXED32, "", false, "fx,omitempty"),
		fieldProto(25, "sfx", descriptorpb.FieldDescriptorProto_TYPE_SFIXED64, "", false, "sfx,omitempty"),
		fieldProto(27, "stamp", tMessage, nameTime, false, "stamp,omitempty,omitzero,nonnull"),
		fieldProto(28, "sources", tMessage, testPkg+".Source", true, "sources,omitempty"),
		fieldProto(29, "hidden", tString, "", false, "-"),
		fieldProto(30, "paint", tMessage, testPkg+".Color", false, ",inline"),
		fieldProto(31, "plain", tMessage, testPkg+".Plain", false, "plain,omitempty"),
		fieldProto(32, "meta", tMessage, nameObjectMeta, false, "meta,omitzero,nonnull"),
		fieldProto(33, "maybe", tString, "", false, "maybe"),
	)
	ints := fieldProto(20, "ints", tInt64, "", true, "ints,omitempty")
	ints.Options = &descriptorpb.FieldOptions{Packed: proto.Bool(true)}
	m.Field = append(m.Field, ints)
	addMapField(testPkg, m, 5, "labels", tString, tString, "", "labels,omitempty")
	addMapField(testPkg, m, 15, "extra", tString, tMessage, testPkg+".StringList", "extra,omitempty")
	addMapField(testPkg, m, 26, "counts", tInt32, tString, "", "counts,omitempty")
	addMapField(testPkg, m, 34, "quotas", tString, tMessage, nameQuantity, "quotas,omitempty")
	addMapField(testPkg, m, 35, "flags", descriptorpb.FieldDescriptorProto_TYPE_BOOL, tInt64, "", "flags,omitempty")

	// Plain has no json_name: proto names and presence.
	m = fb.message("Plain")
	m.Field = append(m.Field,
		fieldProto(1, "a", tString, "", false, ""),
		fieldProto(2, "b", tInt64, "", false, ""))
	return fb.fd
}

var testDescriptors = sync.OnceValue(func() map[string]protoreflect.MessageDescriptor {
	reg := BuiltinFiles()
	fd, err := protodesc.NewFile(testFile(), reg)
	if err != nil {
		panic(err)
	}
	out := map[string]protoreflect.MessageDescriptor{}
	for i := 0; i < fd.Messages().Len(); i++ {
		md := fd.Messages().Get(i)
		out[string(md.Name())] = md
	}
	return out
})

// testCodec knows v1 ConfigMap and test.kapi.dev/v1 Widget.
func testCodec() *Codec {
	mds := testDescriptors()
	return New(func(gvk meta.GroupVersionKind) protoreflect.MessageDescriptor {
		switch gvk {
		case meta.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}:
			return mds["ConfigMap"]
		case meta.GroupVersionKind{Group: "test.kapi.dev", Version: "v1", Kind: "Widget"}:
			return mds["Widget"]
		}
		return nil
	})
}

// obj parses JSON into kapi's object model.
func obj(t testing.TB, s string) meta.Object {
	t.Helper()
	v, err := codec.DecodeJSONValue([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v.(map[string]any)
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// dropNulls removes null object members: for encoding/json a null member
// and an absent one decode alike.
func dropNulls(v any) any {
	switch v := v.(type) {
	case meta.Object:
		return dropNulls(map[string]any(v))
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}
