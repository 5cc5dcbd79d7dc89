package protobuf

import (
	"fmt"
	"sync"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Proto packages of the Kubernetes types the library defines itself.
const (
	runtimePkg  = "k8s.io.apimachinery.pkg.runtime"
	metaPkg     = "k8s.io.apimachinery.pkg.apis.meta.v1"
	intstrPkg   = "k8s.io.apimachinery.pkg.util.intstr"
	resourcePkg = "k8s.io.apimachinery.pkg.api.resource"
)

// Full names of the messages the transcoder treats specially.
const (
	nameTime         = metaPkg + ".Time"
	nameMicroTime    = metaPkg + ".MicroTime"
	nameDuration     = metaPkg + ".Duration"
	nameFieldsV1     = metaPkg + ".FieldsV1"
	nameRawExtension = runtimePkg + ".RawExtension"
	nameIntOrString  = intstrPkg + ".IntOrString"
	nameQuantity     = resourcePkg + ".Quantity"
	nameQuantityVal  = resourcePkg + ".QuantityValue"

	apiextensionsPkg               = "k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.v1"
	nameJSON                       = apiextensionsPkg + ".JSON"
	nameJSONSchemaPropsOrBool      = apiextensionsPkg + ".JSONSchemaPropsOrBool"
	nameJSONSchemaPropsOrArray     = apiextensionsPkg + ".JSONSchemaPropsOrArray"
	nameJSONSchemaPropsOrStringArr = apiextensionsPkg + ".JSONSchemaPropsOrStringArray"

	nameListMeta      = metaPkg + ".ListMeta"
	nameObjectMeta    = metaPkg + ".ObjectMeta"
	nameStatus        = metaPkg + ".Status"
	nameDeleteOptions = metaPkg + ".DeleteOptions"
	nameWatchEvent    = metaPkg + ".WatchEvent"
	namePartial       = metaPkg + ".PartialObjectMetadata"
	namePartialList   = metaPkg + ".PartialObjectMetadataList"
)

// goBuiltins maps Go types (import path + "." + type name) of
// k8s.io/apimachinery to the library's own descriptors, so that
// DescriptorsFromGoTypes never reflects over them: their Go structs either
// carry custom marshalling (Time, Quantity, ...) or are shared by every API
// group.
var goBuiltins = map[string]protoreflect.FullName{
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":                      nameTime,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":                 nameMicroTime,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":                  nameDuration,
	"k8s.io/apimachinery/pkg/apis/meta/v1.FieldsV1":                  nameFieldsV1,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ListMeta":                  nameListMeta,
	"k8s.io/apimachinery/pkg/apis/meta/v1.ShardInfo":                 metaPkg + ".ShardInfo",
	"k8s.io/apimachinery/pkg/apis/meta/v1.ObjectMeta":                nameObjectMeta,
	"k8s.io/apimachinery/pkg/apis/meta/v1.OwnerReference":            metaPkg + ".OwnerReference",
	"k8s.io/apimachinery/pkg/apis/meta/v1.ManagedFieldsEntry":        metaPkg + ".ManagedFieldsEntry",
	"k8s.io/apimachinery/pkg/apis/meta/v1.Status":                    nameStatus,
	"k8s.io/apimachinery/pkg/apis/meta/v1.StatusDetails":             metaPkg + ".StatusDetails",
	"k8s.io/apimachinery/pkg/apis/meta/v1.StatusCause":               metaPkg + ".StatusCause",
	"k8s.io/apimachinery/pkg/apis/meta/v1.WatchEvent":                nameWatchEvent,
	"k8s.io/apimachinery/pkg/apis/meta/v1.DeleteOptions":             nameDeleteOptions,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Preconditions":             metaPkg + ".Preconditions",
	"k8s.io/apimachinery/pkg/apis/meta/v1.PartialObjectMetadata":     namePartial,
	"k8s.io/apimachinery/pkg/apis/meta/v1.PartialObjectMetadataList": namePartialList,
	"k8s.io/apimachinery/pkg/runtime.TypeMeta":                       runtimePkg + ".TypeMeta",
	"k8s.io/apimachinery/pkg/runtime.Unknown":                        runtimePkg + ".Unknown",
	"k8s.io/apimachinery/pkg/runtime.RawExtension":                   nameRawExtension,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":                nameIntOrString,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":                  nameQuantity,
	"k8s.io/apimachinery/pkg/api/resource.QuantityValue":             nameQuantityVal,
}

// Short names for descriptorpb's field types.
const (
	tString  = descriptorpb.FieldDescriptorProto_TYPE_STRING
	tBytes   = descriptorpb.FieldDescriptorProto_TYPE_BYTES
	tBool    = descriptorpb.FieldDescriptorProto_TYPE_BOOL
	tInt32   = descriptorpb.FieldDescriptorProto_TYPE_INT32
	tInt64   = descriptorpb.FieldDescriptorProto_TYPE_INT64
	tMessage = descriptorpb.FieldDescriptorProto_TYPE_MESSAGE
)

// fileBuilder accumulates one FileDescriptorProto (proto2, one package).
type fileBuilder struct {
	fd   *descriptorpb.FileDescriptorProto
	deps map[string]bool
}

func newFileBuilder(path, pkg string) *fileBuilder {
	return &fileBuilder{
		fd: &descriptorpb.FileDescriptorProto{
			Name:    proto.String(path),
			Package: proto.String(pkg),
			Syntax:  proto.String("proto2"),
		},
		deps: map[string]bool{},
	}
}

func (b *fileBuilder) message(name string) *descriptorpb.DescriptorProto {
	m := &descriptorpb.DescriptorProto{Name: proto.String(name)}
	b.fd.MessageType = append(b.fd.MessageType, m)
	return m
}

func (b *fileBuilder) depend(path string) {
	if path != b.fd.GetName() && !b.deps[path] {
		b.deps[path] = true
		b.fd.Dependency = append(b.fd.Dependency, path)
	}
}

// fieldProto makes one field. typeName is a full message name (without the
// leading dot) for message fields. jsonName follows the convention of
// doc.go; "" leaves json_name unset.
func fieldProto(num int32, name string, t descriptorpb.FieldDescriptorProto_Type, typeName string, repeated bool, jsonName string) *descriptorpb.FieldDescriptorProto {
	label := descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL
	if repeated {
		label = descriptorpb.FieldDescriptorProto_LABEL_REPEATED
	}
	f := &descriptorpb.FieldDescriptorProto{
		Name:   proto.String(name),
		Number: proto.Int32(num),
		Label:  label.Enum(),
		Type:   t.Enum(),
	}
	if typeName != "" {
		f.TypeName = proto.String("." + typeName)
	}
	if jsonName != "" {
		f.JsonName = proto.String(jsonName)
	}
	return f
}

// addMapField adds a map<key, value> field to m (declared in package pkg),
// with its implicit entry message.
func addMapField(pkg string, m *descriptorpb.DescriptorProto, num int32, name string,
	key descriptorpb.FieldDescriptorProto_Type, val descriptorpb.FieldDescriptorProto_Type, valType string, jsonName string) {
	entry := &descriptorpb.DescriptorProto{
		Name: proto.String(mapEntryName(name)),
		Field: []*descriptorpb.FieldDescriptorProto{
			fieldProto(1, "key", key, "", false, ""),
			fieldProto(2, "value", val, valType, false, ""),
		},
		Options: &descriptorpb.MessageOptions{MapEntry: proto.Bool(true)},
	}
	m.NestedType = append(m.NestedType, entry)
	m.Field = append(m.Field, fieldProto(num, name, tMessage, pkg+"."+m.GetName()+"."+entry.GetName(), true, jsonName))
}

// mapEntryName is protoc's name for the entry message of a map field:
// "matchLabels" -> "MatchLabelsEntry".
func mapEntryName(field string) string {
	b := make([]byte, 0, len(field)+5)
	upper := true
	for i := 0; i < len(field); i++ {
		c := field[i]
		switch {
		case c == '_':
			upper = true
		case upper:
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			b = append(b, c)
			upper = false
		default:
			b = append(b, c)
		}
	}
	return string(append(b, "Entry"...))
}

// Paths of the library's descriptor files.
const (
	runtimeFile  = "kapi/builtin/k8s.io/apimachinery/pkg/runtime/generated.proto"
	intstrFile   = "kapi/builtin/k8s.io/apimachinery/pkg/util/intstr/generated.proto"
	resourceFile = "kapi/builtin/k8s.io/apimachinery/pkg/api/resource/generated.proto"
	metaFile     = "kapi/builtin/k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto"
)

// builtinFileProtos returns the library's descriptor files, dependencies
// first. Field numbers and names are Kubernetes' (see apimachinery's
// generated.proto files); json_name carries the JSON field spec.
func builtinFileProtos() []*descriptorpb.FileDescriptorProto {
	// k8s.io/apimachinery/pkg/runtime
	rt := newFileBuilder(runtimeFile, runtimePkg)
	m := rt.message("TypeMeta")
	m.Field = append(m.Field,
		fieldProto(1, "apiVersion", tString, "", false, "apiVersion,omitempty,nonnull"),
		fieldProto(2, "kind", tString, "", false, "kind,omitempty,nonnull"))
	m = rt.message("Unknown")
	m.Field = append(m.Field,
		fieldProto(1, "typeMeta", tMessage, runtimePkg+".TypeMeta", false, ",inline,nonnull"),
		fieldProto(2, "raw", tBytes, "", false, "-"),
		fieldProto(3, "contentEncoding", tString, "", false, "contentEncoding,nonnull"),
		fieldProto(4, "contentType", tString, "", false, "contentType,nonnull"))
	m = rt.message("RawExtension")
	m.Field = append(m.Field, fieldProto(1, "raw", tBytes, "", false, "-"))

	// k8s.io/apimachinery/pkg/util/intstr
	is := newFileBuilder(intstrFile, intstrPkg)
	m = is.message("IntOrString")
	m.Field = append(m.Field,
		fieldProto(1, "type", tInt64, "", false, "type,nonnull"),
		fieldProto(2, "intVal", tInt32, "", false, "intVal,nonnull"),
		fieldProto(3, "strVal", tString, "", false, "strVal,nonnull"))

	// k8s.io/apimachinery/pkg/api/resource
	rs := newFileBuilder(resourceFile, resourcePkg)
	for _, name := range []string{"Quantity", "QuantityValue"} {
		m = rs.message(name)
		m.Field = append(m.Field, fieldProto(1, "string", tString, "", false, "string,nonnull"))
	}

	// k8s.io/apimachinery/pkg/apis/meta/v1
	mb := newFileBuilder(metaFile, metaPkg)
	mb.depend(runtimeFile)
	time := metaPkg + ".Time"
	for _, name := range []string{"Time", "MicroTime"} {
		m = mb.message(name)
		m.Field = append(m.Field,
			fieldProto(1, "seconds", tInt64, "", false, "seconds,nonnull"),
			fieldProto(2, "nanos", tInt32, "", false, "nanos,nonnull"))
	}
	m = mb.message("Duration")
	m.Field = append(m.Field, fieldProto(1, "duration", tInt64, "", false, "duration,nonnull"))
	m = mb.message("FieldsV1")
	m.Field = append(m.Field, fieldProto(1, "Raw", tBytes, "", false, "-"))

	m = mb.message("ShardInfo")
	m.Field = append(m.Field, fieldProto(1, "selector", tString, "", false, "selector,nonnull"))
	m = mb.message("ListMeta")
	m.Field = append(m.Field,
		fieldProto(1, "selfLink", tString, "", false, "selfLink,omitempty,nonnull"),
		fieldProto(2, "resourceVersion", tString, "", false, "resourceVersion,omitempty,nonnull"),
		fieldProto(3, "continue", tString, "", false, "continue,omitempty,nonnull"),
		fieldProto(4, "remainingItemCount", tInt64, "", false, "remainingItemCount,omitempty"),
		fieldProto(5, "shardInfo", tMessage, metaPkg+".ShardInfo", false, "shardInfo,omitempty"))

	m = mb.message("OwnerReference")
	m.Field = append(m.Field,
		fieldProto(1, "kind", tString, "", false, "kind,nonnull"),
		fieldProto(3, "name", tString, "", false, "name,nonnull"),
		fieldProto(4, "uid", tString, "", false, "uid,nonnull"),
		fieldProto(5, "apiVersion", tString, "", false, "apiVersion,nonnull"),
		fieldProto(6, "controller", tBool, "", false, "controller,omitempty"),
		fieldProto(7, "blockOwnerDeletion", tBool, "", false, "blockOwnerDeletion,omitempty"))

	m = mb.message("ManagedFieldsEntry")
	m.Field = append(m.Field,
		fieldProto(1, "manager", tString, "", false, "manager,omitempty,nonnull"),
		fieldProto(2, "operation", tString, "", false, "operation,omitempty,nonnull"),
		fieldProto(3, "apiVersion", tString, "", false, "apiVersion,omitempty,nonnull"),
		fieldProto(4, "time", tMessage, time, false, "time,omitempty"),
		fieldProto(6, "fieldsType", tString, "", false, "fieldsType,omitempty,nonnull"),
		fieldProto(7, "fieldsV1", tMessage, metaPkg+".FieldsV1", false, "fieldsV1,omitempty"),
		fieldProto(8, "subresource", tString, "", false, "subresource,omitempty,nonnull"))

	m = mb.message("ObjectMeta")
	m.Field = append(m.Field,
		fieldProto(1, "name", tString, "", false, "name,omitempty,nonnull"),
		fieldProto(2, "generateName", tString, "", false, "generateName,omitempty,nonnull"),
		fieldProto(3, "namespace", tString, "", false, "namespace,omitempty,nonnull"),
		fieldProto(4, "selfLink", tString, "", false, "selfLink,omitempty,nonnull"),
		fieldProto(5, "uid", tString, "", false, "uid,omitempty,nonnull"),
		fieldProto(6, "resourceVersion", tString, "", false, "resourceVersion,omitempty,nonnull"),
		fieldProto(7, "generation", tInt64, "", false, "generation,omitempty,nonnull"),
		fieldProto(8, "creationTimestamp", tMessage, time, false, "creationTimestamp,omitempty,omitzero,nonnull"),
		fieldProto(9, "deletionTimestamp", tMessage, time, false, "deletionTimestamp,omitempty"),
		fieldProto(10, "deletionGracePeriodSeconds", tInt64, "", false, "deletionGracePeriodSeconds,omitempty"))
	addMapField(metaPkg, m, 11, "labels", tString, tString, "", "labels,omitempty")
	addMapField(metaPkg, m, 12, "annotations", tString, tString, "", "annotations,omitempty")
	m.Field = append(m.Field,
		fieldProto(13, "ownerReferences", tMessage, metaPkg+".OwnerReference", true, "ownerReferences,omitempty"),
		fieldProto(14, "finalizers", tString, "", true, "finalizers,omitempty"),
		fieldProto(17, "managedFields", tMessage, metaPkg+".ManagedFieldsEntry", true, "managedFields,omitempty"))

	m = mb.message("StatusCause")
	m.Field = append(m.Field,
		fieldProto(1, "reason", tString, "", false, "reason,omitempty,nonnull"),
		fieldProto(2, "message", tString, "", false, "message,omitempty,nonnull"),
		fieldProto(3, "field", tString, "", false, "field,omitempty,nonnull"))
	m = mb.message("StatusDetails")
	m.Field = append(m.Field,
		fieldProto(1, "name", tString, "", false, "name,omitempty,nonnull"),
		fieldProto(2, "group", tString, "", false, "group,omitempty,nonnull"),
		fieldProto(3, "kind", tString, "", false, "kind,omitempty,nonnull"),
		fieldProto(4, "causes", tMessage, metaPkg+".StatusCause", true, "causes,omitempty"),
		fieldProto(5, "retryAfterSeconds", tInt32, "", false, "retryAfterSeconds,omitempty,nonnull"),
		fieldProto(6, "uid", tString, "", false, "uid,omitempty,nonnull"))
	m = mb.message("Status")
	m.Field = append(m.Field,
		fieldProto(1, "metadata", tMessage, metaPkg+".ListMeta", false, "metadata,omitempty,nonnull"),
		fieldProto(2, "status", tString, "", false, "status,omitempty,nonnull"),
		fieldProto(3, "message", tString, "", false, "message,omitempty,nonnull"),
		fieldProto(4, "reason", tString, "", false, "reason,omitempty,nonnull"),
		fieldProto(5, "details", tMessage, metaPkg+".StatusDetails", false, "details,omitempty"),
		fieldProto(6, "code", tInt32, "", false, "code,omitempty,nonnull"))

	m = mb.message("WatchEvent")
	m.Field = append(m.Field,
		fieldProto(1, "type", tString, "", false, "type,nonnull"),
		fieldProto(2, "object", tMessage, nameRawExtension, false, "object,nonnull"))

	m = mb.message("Preconditions")
	m.Field = append(m.Field,
		fieldProto(1, "uid", tString, "", false, "uid,omitempty"),
		fieldProto(2, "resourceVersion", tString, "", false, "resourceVersion,omitempty"))
	m = mb.message("DeleteOptions")
	m.Field = append(m.Field,
		fieldProto(1, "gracePeriodSeconds", tInt64, "", false, "gracePeriodSeconds,omitempty"),
		fieldProto(2, "preconditions", tMessage, metaPkg+".Preconditions", false, "preconditions,omitempty"),
		fieldProto(3, "orphanDependents", tBool, "", false, "orphanDependents,omitempty"),
		fieldProto(4, "propagationPolicy", tString, "", false, "propagationPolicy,omitempty"),
		fieldProto(5, "dryRun", tString, "", true, "dryRun,omitempty"),
		fieldProto(6, "ignoreStoreReadErrorWithClusterBreakingPotential", tBool, "", false, "ignoreStoreReadErrorWithClusterBreakingPotential,omitempty"))

	m = mb.message("PartialObjectMetadata")
	m.Field = append(m.Field,
		fieldProto(1, "metadata", tMessage, nameObjectMeta, false, "metadata,omitempty,nonnull"))
	m = mb.message("PartialObjectMetadataList")
	m.Field = append(m.Field,
		fieldProto(1, "metadata", tMessage, nameListMeta, false, "metadata,omitempty,nonnull"),
		fieldProto(2, "items", tMessage, namePartial, true, "items"))

	return []*descriptorpb.FileDescriptorProto{rt.fd, is.fd, rs.fd, mb.fd}
}

// builtinFiles is the library's descriptor files, built once. It is never
// changed after it is built.
var builtinFiles = sync.OnceValue(func() []protoreflect.FileDescriptor {
	reg := new(protoregistry.Files)
	var out []protoreflect.FileDescriptor
	for _, fdp := range builtinFileProtos() {
		fd, err := protodesc.NewFile(fdp, reg)
		if err != nil {
			panic(fmt.Sprintf("kapi/codec/protobuf: built-in descriptor %s: %v", fdp.GetName(), err))
		}
		if err := reg.RegisterFile(fd); err != nil {
			panic(fmt.Sprintf("kapi/codec/protobuf: built-in descriptor %s: %v", fdp.GetName(), err))
		}
		out = append(out, fd)
	}
	return out
})

// BuiltinFiles returns a new registry holding the library's descriptors of
// Kubernetes' shared types, under their Kubernetes full names:
// k8s.io.apimachinery.pkg.runtime.{TypeMeta,Unknown,RawExtension},
// k8s.io.apimachinery.pkg.util.intstr.IntOrString,
// k8s.io.apimachinery.pkg.api.resource.{Quantity,QuantityValue} and
// k8s.io.apimachinery.pkg.apis.meta.v1.{Time, MicroTime, Duration, FieldsV1,
// ListMeta, ShardInfo, ObjectMeta, OwnerReference, ManagedFieldsEntry,
// Status, StatusDetails, StatusCause, WatchEvent, DeleteOptions,
// Preconditions, PartialObjectMetadata, PartialObjectMetadataList}.
// Use it as the resolver of protodesc.NewFile when building descriptors by
// hand; the caller may register more files in it.
func BuiltinFiles() *protoregistry.Files {
	reg := new(protoregistry.Files)
	for _, fd := range builtinFiles() {
		if err := reg.RegisterFile(fd); err != nil {
			panic(err) // cannot happen: the files registered once already
		}
	}
	return reg
}

// builtinMessage returns one of the library's message descriptors.
func builtinMessage(name protoreflect.FullName) protoreflect.MessageDescriptor {
	for _, fd := range builtinFiles() {
		if md := fd.Messages().ByName(name.Name()); md != nil && md.FullName() == name {
			return md
		}
	}
	return nil
}
