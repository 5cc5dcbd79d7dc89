// Package openapi builds the OpenAPI documents kube-apiserver serves, for
// the resources a kapi server serves:
//
//   - [Index]: the /openapi/v3 root, {"paths":{"apis/apps/v1":{"serverRelativeURL":"/openapi/v3/apis/apps/v1?hash=…"}}};
//   - [GroupVersionV3] / [V3]: one OpenAPI 3.0 document per group version,
//     with every path, operation and query parameter kube declares
//     (PATCH declares fieldValidation, fieldManager, force and dryRun, which
//     is how kubectl decides to use server-side field validation), request
//     and response bodies referencing #/components/schemas/<name>, and the
//     components: the kinds (with x-kubernetes-group-version-kind), their
//     lists and everything they reference (ObjectMeta, Status,
//     DeleteOptions, Patch, WatchEvent, APIResourceList, ...);
//   - [SwaggerV2]: /openapi/v2, Swagger 2.0, all group versions in one
//     document, and [SwaggerV2Protobuf], its protobuf form, which kubectl
//     1.27 and 1.28 read for `kubectl explain` (checked with both).
//
// Built-in kinds name their schemas in Options.Components (the data of
// package builtin); custom resources give a *schema.Schema, rendered as
// kube renders CRDs ("com.example.v1.Widget", metadata referencing
// ObjectMeta). The apimachinery components (MetaComponents) are embedded
// here, extracted from kube-apiserver 1.33's documents by
// apiserver/builtin/gen.
//
// # Contract
//
// Output bytes are deterministic (object keys sorted), so a Document's Hash
// (upper-case hex SHA-512 of its bytes, as kube computes it) is a stable
// ETag and ?hash= value: rebuild a group version's document when its
// resources change (a CRD is created, updated or deleted) and serve the new
// bytes under the new hash. The documents are not byte-identical to kube's
// (kube orders keys by struct fields) but have the same content: the
// coordination.k8s.io/v1 document equals kube's as JSON.
//
// Cost: building the documents of kapi's built-in kinds takes a few
// milliseconds and allocates a few MB (BenchmarkV3); a group version of
// custom resources, well under a millisecond. Build them when the set of
// resources changes, not per request.
//
// # Serving (kube-apiserver 1.33, observed)
//
// /openapi/v3 answers the index with Content-Type "text/plain;
// charset=utf-8" and Last-Modified, no ETag, whatever the Accept.
// /openapi/v3/<path>?hash=<Hash> answers the document with Content-Type
// application/json, ETag "<Hash>", "Cache-Control: public, immutable" and
// an Expires a year ahead; without hash, the same body with the usual
// Cache-Control; with a wrong hash, 301 to the current ?hash=; an unknown
// path, 404 with an empty body. /openapi/v2 answers JSON with ETag
// "<Hash>", or, for Accept "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"
// (or "….v2.v1.0+protobuf"), SwaggerV2Protobuf's bytes with Content-Type
// ProtobufV2MediaType and the same ETag; another Accept gets 406 with an
// empty body. kube also serves the v3 documents as protobuf, which no
// client kapi targets asks for; this package does not encode them.
package openapi
