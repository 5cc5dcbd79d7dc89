// Package codec turns API objects into bytes and back, and picks the
// representation a request and its response use.
//
// A [Codec] encodes and decodes one media type: [JSONCodec] (a one-pass
// decoder that keeps integers as int64, as Kubernetes' unstructured objects
// do, and reports duplicate fields for field validation) and [YAMLCodec];
// codec/protobuf adds the Kubernetes protobuf representation. Codecs that
// only speak some kinds implement [KindSupporter].
//
// Codecs that can carry objects they already encoded implement [Framer]:
// a [List] around its items' encodings (kept as parts, streamed without
// being joined) and watch events around an object's encoding. The API
// server caches one encoding per stored version and codec, and answers
// every list page and every watcher from it, whatever the codec.
//
// [ParseAccept] and [ParseMediaType] read Accept and Content-Type headers
// with their parameters (`as=Table;g=meta.k8s.io;v=v1`, `stream=watch`), so
// the API server can negotiate as kube-apiserver does: the first acceptable
// entry it can serve wins, 406 when none, 415 for a body it cannot read.
package codec
