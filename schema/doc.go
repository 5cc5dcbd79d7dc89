// Package schema is kapi's OpenAPI v3 schema engine: the structural schemas
// of CustomResourceDefinitions (and the published schemas of built-in
// kinds), checked, navigated and applied to objects the way kube-apiserver
// 1.33 does, with its wording. It is kapi's one schema model: apiserver
// validates, prunes and defaults with it, apiserver/openapi publishes it,
// and fieldmanager converts it to structured-merge-diff's schema for
// server-side apply. It imports nothing of kapi but meta, so every layer
// above may use it.
//
// # What it does
//
//   - [Parse] reads a CRD's openAPIV3Schema and applies every check
//     kube-apiserver applies to a new v1 CRD (structural rules, CRD OpenAPI
//     rules, patterns, defaults), reporting [meta.FieldErrors] worded like
//     kube's (`properties[spec].type: Required value: must not be empty for
//     specified object fields`). [ParseWithOptions] relaxes the checks for
//     non-structural schemas and returns unknown keywords;
//     [ParseComponents] reads the components of a published OpenAPI
//     document, resolving $refs: each reference's node carries the
//     component's fields and names it ([Schema.Component]), so the model
//     keeps both what navigation needs and the named types server-side
//     apply keeps apart. [ObjectMeta] is metav1.ObjectMeta's component.
//   - $refs are read in one place, ref.go: [RefName], [RefOf] (kube's
//     allOf wrapper of a reference), [Refs] (every component a raw
//     document refers to) and [Ref], which the OpenAPI document builders
//     use to write references into what they publish.
//   - [Schema.Prune] drops unknown fields and returns their paths for the
//     `unknown field "spec.foo"` warnings (fieldValidation=Warn) or errors
//     (Strict); at a resource root and in embedded resources apiVersion,
//     kind and metadata are kept and metadata is pruned to [ObjectMeta].
//   - [Schema.Default] applies defaults (and drops non-nullable nulls,
//     [Schema.PruneNulls]).
//   - [Schema.Validate] returns one field error per problem, worded like
//     kube's validation of custom resources.
//   - Navigation ([Schema.Property], [Schema.ItemSchema],
//     [Schema.ListType], [Schema.PatchMergeKey], ...) for patches and
//     server-side apply; [Schema.ToOpenAPI] for the OpenAPI documents.
//
// # Contract
//
// Parse a schema once per type (a CRD version, a built-in kind) and keep
// the *Schema with the type: parsing checks and compiles the whole schema
// (patterns, sorted property names), the operations then cost only what
// the object costs. A *Schema from Parse or ParseComponents is immutable
// and safe for concurrent use; its nodes may be shared (built-in kinds
// share ObjectMeta, PodSpec, ...). Prune and
// Default change the object they are given (the caller owns it: see meta's
// immutability rule); Validate only reads. None of the operations panics on
// any JSON-shaped input (maps, slices, strings, bools, int64/float64 and
// the other number types JSON decoders produce, nil), and each costs
// O(size of the object): work follows the data, never the whole schema.
// Outputs are deterministic: properties are visited by name.
//
// # Pipeline
//
// For a write, in kube's order:
//
//	unknown := s.Prune(obj, true)     // warnings, or 400 with fieldValidation=Strict
//	s.Default(obj)
//	errs := s.Validate(obj)           // 422: meta.Invalid(gk, name, errs)
//
// For a built-in kind (schemas whose defaults are Go zero values, see
// [Schema.Default]): Prune, [Schema.PruneNulls], Validate, then Default.
//
// For a CRD (status subresource writes validate the status with
// ValidateValue(status, "status")):
//
//	s, unknownKeywords, err := schema.ParseWithOptions(v.Schema.OpenAPIV3Schema, schema.ParseOptions{
//		FieldPath:  "spec.versions[0].schema.openAPIV3Schema",
//		StructPath: "spec.versions.schema.openAPIV3Schema",
//	})
//	// err is a meta.FieldErrors (422) or a *schema.DecodeError (400)
//
// # Not (yet) done
//
// CEL rules (x-kubernetes-validations) are kept here and run by package
// schema/cel, which also ratchets Validate's errors on update (as kube
// 1.33 does); the metadata of embedded resources is checked for name, generateName and
// namespace only (not labels, annotations, owner references). Built-in
// kinds are validated by kube with Go code (400 "cannot unmarshal" errors
// for types, checks such as unique container names): Validate applies
// their published schema, with the custom-resource wording.
package schema
