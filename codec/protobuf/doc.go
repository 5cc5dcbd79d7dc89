// Package protobuf reads and writes Kubernetes protobuf
// (application/vnd.kubernetes.protobuf) generically: it transcodes between
// the wire format and kapi's JSON-shaped objects (meta.Object) by walking
// protobuf message descriptors (protoreflect), with no generated
// Kubernetes types. The library never imports k8s.io/*; descriptors of
// kinds are supplied by a TypeResolver. Those of the built-in kinds ship
// as data (builtinproto.Resolver), generated with DescriptorsFromGoTypes
// from the k8s.io/api Go types (kapitest/kubeproto/protogen).
//
// # Wire format
//
// An object on the wire is enveloped: the magic bytes "k8s\x00" then a
// runtime.Unknown message {typeMeta=1 {apiVersion=1, kind=2}, raw=2 (the
// object's own message), contentEncoding=3, contentType=4}. Encode writes
// exactly what Kubernetes' serializer writes (empty contentEncoding and
// contentType included); Decode takes the kind from typeMeta and rejects a
// non-empty contentEncoding or a contentType other than MediaType.
//
// A list XList is {metadata=1 ListMeta, items=2 repeated X}; the Codec
// derives it for every kind X it knows. A watch stream is a sequence of
// frames, each a 4-byte big-endian length (Frame) and a metav1.WatchEvent
// {type=1, object=2 RawExtension{raw=1}} WITHOUT envelope (kube-apiserver
// writes events with its raw protobuf serializer), whose raw is the
// enveloped object.
//
// To serialize once per stored object version, cache EncodeMessage(obj)
// and assemble responses from it without re-encoding:
//
//	msg, _ := c.EncodeMessage(obj)                     // cached per version
//	get := protobuf.Envelope("v1", "ConfigMap", msg)    // GET
//	list := c.EncodeList("v1", "ConfigMapList", lm, [][]byte{msg, ...})
//	ev := protobuf.Frame(protobuf.EncodeWatchEvent("ADDED", get))
//
// # Descriptors and their JSON form
//
// Field numbers, proto names and types come from the descriptor. How a
// field looks in JSON is not in a standard descriptor, so this package
// reads it from the field's json_name, which holds a JSON field spec:
//
//	json_name = key [ "," option ]...
//
// with the options of Go's encoding/json tags plus two of kapi's:
//
//   - omitempty, omitzero: as in encoding/json, applied to the Go field the
//     message field stands for.
//   - nonnull: the Go field is a value, not a pointer (gogoproto's
//     nullable=false). Kubernetes always writes such a field, even when
//     zero, and JSON shows its zero value unless omitempty/omitzero drop
//     it. Without nonnull a field is a pointer (or a slice or map):
//     written only when present, shown as null when absent and not
//     omitted.
//   - inline: the key is empty; the field is an embedded Go struct without
//     a JSON name (VolumeSource in Volume, EphemeralContainerCommon,
//     PersistentVolumeSource): a nested message on the wire whose fields
//     are flattened into the enclosing JSON object. A message whose only
//     field is an inline repeated field is a named Go slice (ExtraValue,
//     Verbs): its JSON form is that field's array.
//
// The key "-" leaves a field out of JSON. A field without json_name uses
// its proto name as key, with omitempty and pointer semantics (proto2
// presence); protoc fills json_name with the lowerCamel proto name, which
// reads as a Go tag without options. DescriptorsFromGoTypes writes the
// spec from the Go struct tags and types; descriptors built by hand should
// too (BuiltinFiles has the shared meta types to depend on).
//
// Messages with these full names have a JSON form of their own, whatever
// their fields: k8s.io.apimachinery.pkg.apis.meta.v1.Time (an RFC 3339
// string in UTC, seconds; the zero time is an empty message and JSON
// null), .MicroTime (RFC 3339 with microseconds), .Duration (a Go duration
// string), .FieldsV1 (the embedded JSON),
// k8s.io.apimachinery.pkg.runtime.RawExtension (the embedded JSON; a raw
// starting with the envelope magic, as in watch events, is decoded as an
// enveloped object),
// k8s.io.apimachinery.pkg.util.intstr.IntOrString (a JSON number or
// string) and k8s.io.apimachinery.pkg.api.resource.Quantity (a string).
// bytes fields are base64 strings, proto maps JSON objects (keys sorted on
// the wire, as gogo writes them), int64/uint64 JSON integers.
//
// # Zero values
//
// Decoding produces what json.Marshal of the k8s.io/api Go object that
// Unmarshal would build produces, re-decoded with int64 integers: absent
// fields and zero values follow the Go field (value or pointer, omitempty,
// omitzero), so for example an absent non-pointer string without omitempty
// is "", an absent slice without omitempty is null, a present zero
// *int32 is 0. Encoding writes what the gogo-generated Marshal writes for
// the object that json.Unmarshal of the map would build: value fields
// always (zero when absent), pointers, slices and maps only when present,
// map entries sorted by key. For canonical inputs the bytes are identical
// to Kubernetes'; see the tests in kapitest/kubeproto.
//
// Encoding is lossy where protobuf is: JSON keys the descriptor does not
// know are dropped (a kind's descriptor is its schema), Time keeps
// seconds, MicroTime microseconds, nil and empty lists are alike.
// Quantities are written as given (Kubernetes would canonicalize "1000m"
// to "1"), after checking them against the quantity grammar.
//
// # Untrusted input
//
// Decode never panics. Unknown fields are skipped, as generated code does;
// a scalar given twice keeps the last value, a message given twice is the
// merge of its occurrences (decoded once, so that crafted duplicates cannot
// multiply the work), repeated and map fields accumulate, packed or not.
// Anything malformed is a 400 BadRequest Status naming the field path: a
// wrong magic, a truncated varint or length, a length beyond the buffer, a
// wrong wire type for a known field, nesting deeper than 10000, invalid
// UTF-8 in a string (kapi's objects are JSON, whose strings are UTF-8;
// gogo would accept it, proto3 would not), a time outside years 0-9999, an
// invalid quantity, an IntOrString of unknown type, embedded JSON that does
// not parse. A kind without descriptor is 415 UnsupportedMediaType, a body
// over MaxDecodeSize 413. Strict field validation does not apply (as in
// Kubernetes, Decoded.Duplicates is always empty).
//
// # Costs
//
// Each descriptor is compiled once per Codec into a plan (field lookup by
// number, JSON spec parsed); decoding allocates the result maps and
// strings, encoding one buffer from a pool and the returned copy.
package protobuf
