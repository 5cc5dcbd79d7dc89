package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"sync"

	"sigs.k8s.io/yaml"

	"github.com/kapi-dev/kapi/meta"
)

// Codec turns API objects into bytes of one media type and back.
type Codec interface {
	// MediaType is the concrete type written and read, such as
	// "application/json".
	MediaType() string
	// Encode serialises v: a meta.Object, a JSON-shaped value, or a Go
	// value with json tags (Status, discovery documents, ...).
	Encode(v any) ([]byte, error)
	// Decode parses one object. The result is owned by the caller.
	Decode(data []byte) (Decoded, error)
}

// KindSupporter is implemented by codecs that only speak some kinds, such
// as protobuf, which needs a message descriptor per kind.
type KindSupporter interface {
	SupportsKind(gvk meta.GroupVersionKind) bool
}

// Supports reports whether c can encode and decode objects of gvk.
func Supports(c Codec, gvk meta.GroupVersionKind) bool {
	ks, ok := c.(KindSupporter)
	return !ok || ks.SupportsKind(gvk)
}

// Decoded is a request body after parsing.
type Decoded struct {
	Object meta.Object
	// Duplicates lists the fields given more than once (at their repeated
	// key), for field validation; the last value wins, as in Kubernetes.
	// YAML duplicates have Offset -1.
	Duplicates []Field
}

// ErrNotObject means the body parsed but is not a JSON object; errors.Is
// matches the *NotObjectError the decoders return.
var ErrNotObject = errors.New("not a JSON object")

// NotObjectError is a body that parsed but is not a JSON object, worded as
// kube's decoder words it when it reads the body's apiVersion and kind.
type NotObjectError struct {
	// Type is the JSON type the body is: array, string, number, bool or null.
	Type string
}

func (e *NotObjectError) Error() string {
	return "json: cannot unmarshal " + e.Type +
		` into Go value of type struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" }`
}

// Is makes errors.Is(err, ErrNotObject) true.
func (e *NotObjectError) Is(target error) bool { return target == ErrNotObject }

// IsNull reports whether err is a body that is null (in YAML also empty,
// ~ or only comments), which kube's decoders read as an empty object.
func IsNull(err error) bool {
	var noe *NotObjectError
	return errors.As(err, &noe) && noe.Type == "null"
}

// FormatError is YAML that does not parse, worded in full as kube's YAML
// serializer words it. What JSON does not read, and YAML that reads as no
// object, is no FormatError: kube words those as its JSON reading of the
// body's apiVersion and kind. (The protobuf codec's errors are Statuses
// worded as kube's protobuf serializer.)
type FormatError struct{ Msg string }

func (e *FormatError) Error() string { return e.Msg }

// jsonType names a decoded JSON value's type as Go's decoder does.
func jsonType(v any) string {
	switch v.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return "number"
}

// JSONCodec reads and writes application/json.
type JSONCodec struct{}

// MediaType implements Codec.
func (JSONCodec) MediaType() string { return JSON }

// Encode implements Codec. An object's apiVersion and kind come first,
// then its other keys sorted, as kube-apiserver writes unstructured
// objects (TypeMetaPrefix relies on it); nested maps are sorted.
func (JSONCodec) Encode(v any) ([]byte, error) {
	var obj map[string]any
	switch o := v.(type) {
	case meta.Object:
		obj = o
	case map[string]any:
		obj = o
	default:
		return json.Marshal(v)
	}
	apiVersion, ok1 := obj["apiVersion"].(string)
	kind, ok2 := obj["kind"].(string)
	if !ok1 || !ok2 {
		return appendJSON(make([]byte, 0, 256), obj)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if k != "apiVersion" && k != "kind" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	// Encode into a pooled scratch buffer and return a copy: one
	// allocation of the final size instead of a buffer grown through
	// several, each left to the collector.
	scratch := encodeBuffers.Get().(*[]byte)
	defer encodeBuffers.Put(scratch)
	b, err := appendMembers(appendTypeMetaPrefix((*scratch)[:0], apiVersion, kind), obj, keys)
	if err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		b = b[:len(b)-1] // no comma after kind
	}
	b = append(b, '}')
	if cap(b) <= maxPooledEncodeBuffer {
		*scratch = b
	}
	return bytes.Clone(b), nil
}

// encodeBuffers holds scratch buffers for Encode; one that grew past
// maxPooledEncodeBuffer (a huge object) is not kept.
var encodeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

const maxPooledEncodeBuffer = 1 << 20

// appendTypeMetaPrefix appends `{"apiVersion":…,"kind":…,`.
func appendTypeMetaPrefix(b []byte, apiVersion, kind string) []byte {
	b = append(b, `{"apiVersion":`...)
	b = appendString(b, apiVersion)
	b = append(b, `,"kind":`...)
	b = appendString(b, kind)
	return append(b, ',')
}

// TypeMetaPrefix returns the bytes `{"apiVersion":…,"kind":…,` that start
// the JSON Encode writes for an object of that type with other fields: a
// typed list writes its items without them, as kube-apiserver does, by
// writing "{" and the rest of each cached encoding.
func TypeMetaPrefix(apiVersion, kind string) []byte {
	return appendTypeMetaPrefix(nil, apiVersion, kind)
}

// DecodeValue decodes one JSON value of any kind as Decode decodes
// objects: objects become map[string]any, integers that fit int64, other
// numbers float64. Duplicate keys keep their last value.
func DecodeValue(data []byte) (any, error) {
	v, _, err := decodeJSON(data)
	return v, err
}

// Decode implements Codec. A duplicate key keeps its last value, as
// decoding into Kubernetes' unstructured objects (custom resources) does.
func (JSONCodec) Decode(data []byte) (Decoded, error) {
	return decodeObject(data, false)
}

// TypedDecoder is a Codec that can also decode as kube-apiserver decodes a
// body into a Go type (a built-in kind).
type TypedDecoder interface {
	// DecodeTyped is Decode, except that a duplicate key whose values are
	// both objects merges the second into the first (recursively, by the
	// same rule), as encoding/json fills the same struct field or map
	// twice: {"data":{"a":"1"},"data":{"b":"2"}} is data a and b. Other
	// duplicates (arrays, scalars) keep their last value.
	DecodeTyped(data []byte) (Decoded, error)
}

// DecodeTyped implements TypedDecoder.
func (JSONCodec) DecodeTyped(data []byte) (Decoded, error) {
	return decodeObject(data, true)
}

func decodeObject(data []byte, mergeDuplicates bool) (Decoded, error) {
	d := jsonDecoder{data: data, mergeDuplicates: mergeDuplicates}
	v, dups, err := d.decode()
	if err != nil {
		return Decoded{}, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return Decoded{}, &NotObjectError{Type: jsonType(v)}
	}
	return Decoded{Object: m, Duplicates: dups}, nil
}

// DecodeJSONValue parses any JSON value (not only objects) in kapi's object
// model: maps, []any, string, bool, int64, float64, nil.
func DecodeJSONValue(data []byte) (any, error) {
	v, _, err := decodeJSON(data)
	return v, err
}

// YAMLCodec reads and writes application/yaml. It converts through JSON so
// both formats share one object model.
type YAMLCodec struct{}

// MediaType implements Codec.
func (YAMLCodec) MediaType() string { return YAML }

// Encode implements Codec.
func (YAMLCodec) Encode(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return yaml.JSONToYAML(j)
}

// Decode implements Codec. Duplicate keys are reported like JSON's.
func (YAMLCodec) Decode(data []byte) (Decoded, error) {
	return decodeYAML(data, false)
}

// DecodeTyped implements TypedDecoder.
func (YAMLCodec) DecodeTyped(data []byte) (Decoded, error) {
	return decodeYAML(data, true)
}

func decodeYAML(data []byte, typed bool) (Decoded, error) {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return Decoded{}, &FormatError{Msg: err.Error()}
	}
	d, err := decodeObject(j, typed)
	if err != nil {
		return Decoded{}, err
	}
	if _, strictErr := yaml.YAMLToJSONStrict(data); strictErr != nil {
		d.Duplicates = append(d.Duplicates, yamlDuplicates(data)...)
	}
	return d, nil
}

// Codecs is the set of codecs a server speaks, the first being the default
// for requests without Content-Type.
type Codecs []Codec

// Default returns the built-in codecs: JSON and YAML.
func Default() Codecs { return Codecs{JSONCodec{}, YAMLCodec{}} }

// ForMediaType returns the codec of a concrete media type, if any.
func (cs Codecs) ForMediaType(mediaType string) (Codec, bool) {
	for _, c := range cs {
		if c.MediaType() == mediaType {
			return c, true
		}
	}
	return nil, false
}

// MediaTypes lists the media types spoken, in order.
func (cs Codecs) MediaTypes() []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.MediaType()
	}
	return out
}

// ForContentType picks the codec for a request body's Content-Type. An
// empty Content-Type means the first codec. It returns false for a type the
// server cannot read (415).
func (cs Codecs) ForContentType(contentType string) (Codec, bool) {
	if contentType == "" {
		return cs[0], len(cs) > 0
	}
	m, ok := ParseMediaType(contentType)
	if !ok {
		return nil, false
	}
	return cs.ForMediaType(m.MediaType())
}

// Indent re-indents JSON for `pretty=true`.
func Indent(data []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, data, "", "  "); err != nil {
		return data
	}
	return buf.Bytes()
}
