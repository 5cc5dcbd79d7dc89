package schema

import (
	"fmt"
	"sort"
)

// Component names whose published schema ("type: object", or no type at
// all, and nothing else) stands for arbitrary JSON: a CRD schema's
// additionalProperties, items and default, which Go code reads through
// types of their own.
var arbitraryObjects = map[string]bool{
	"io.k8s.apimachinery.pkg.runtime.RawExtension":                                          true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1":                                         true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON":                         true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool":        true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrArray":       true,
	"io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray": true,
}

// ParseComponents parses the component schemas of an OpenAPI v3 document
// in the dialect kube-apiserver publishes (components.schemas: name →
// schema), resolving each "$ref" to "#/components/schemas/<name>" (see
// [RefName]): the referring node takes the component's fields, and its
// [Schema.Component] names the component, so that every kind's schema can
// be navigated, pruned, defaulted and validated without lookups, and
// converted with its named types kept:
//
//   - {"allOf": [{"$ref": X}], "description": …, "default": …}, kube's way
//     of annotating a reference, becomes X with that description and default;
//   - IntOrString (format "int-or-string") becomes x-kubernetes-int-or-string;
//   - RawExtension, FieldsV1 and a CRD schema's JSON values and unions
//     keep unknown fields;
//   - Validate does not check the uniqueness of list-type set and map
//     items: kube validates built-in kinds with Go code, which accepts
//     duplicate finalizers or owner references (the list types stay for
//     navigation and server-side apply).
//
// Only the NonStructural checks apply. Recursive references make cyclic
// schemas, which the operations handle (they follow the data) but
// [Schema.ToOpenAPI] cuts. Cost: O(total size), once.
func ParseComponents(components map[string]any) (map[string]*Schema, error) {
	d := &decoder{opts: ParseOptions{NonStructural: true}, info: map[*Schema]*nodeInfo{}, refs: map[*Schema]string{}}
	names := make([]string, 0, len(components))
	for n := range components {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make(map[string]*Schema, len(components))
	for _, n := range names {
		d.opts.StructPath = n
		s := d.schema(components[n], "", "")
		if d.decodeErr != nil {
			d.decodeErr.prefix = n
			return nil, d.decodeErr
		}
		if arbitraryObjects[n] {
			s.XPreserveUnknownFields = true
		}
		s.Component = &Component{Name: n, Schema: s} // references copy it with the node
		out[n] = s
	}
	for s := range d.info {
		if s.Format == "int-or-string" {
			s.XIntOrString, s.OneOf, s.AnyOf = true, nil, nil
		}
	}
	done := map[*Schema]bool{}
	var finalize func(*Schema) error
	finalize = func(s *Schema) error {
		if done[s] {
			return nil
		}
		done[s] = true // before recursing: a cycle copies a partial node
		if ref, ok := d.refs[s]; ok {
			name, ok := RefName(ref)
			t := out[name]
			if !ok || t == nil {
				return fmt.Errorf("schema: reference to unknown component %q", ref)
			}
			if err := finalize(t); err != nil {
				return err
			}
			*s = *t
			return nil
		}
		if len(s.AllOf) == 1 && s.Type == "" && len(s.Properties) == 0 && s.Items == nil {
			if _, isRef := d.refs[s.AllOf[0]]; isRef {
				inner := s.AllOf[0]
				if err := finalize(inner); err != nil {
					return err
				}
				w := *s
				*s = *inner
				overlay(s, &w)
			}
		}
		return nil
	}
	nodes := make([]*Schema, 0, len(d.info))
	for s := range d.info {
		nodes = append(nodes, s)
	}
	for _, s := range nodes {
		if err := finalize(s); err != nil {
			return nil, err
		}
	}
	seen := map[*Schema]bool{}
	for _, n := range names {
		compileTree(out[n], seen)
	}
	seen = map[*Schema]bool{}
	for _, n := range names {
		withoutListChecks(out[n], seen)
	}
	for _, n := range names {
		if errs := d.patternErrors(out[n], n); len(errs) > 0 {
			return nil, errs
		}
	}
	return out, nil
}

// overlay copies onto s what an allOf wrapper says next to its reference:
// description, default, nullability and the x-kubernetes-* extensions
// (kube puts x-kubernetes-patch-strategy: retainKeys there, for example).
func overlay(s, w *Schema) {
	if w.Description != "" {
		s.Description = w.Description
	}
	if w.DefaultValue != nil {
		s.DefaultValue = w.DefaultValue
	}
	s.Nullable = s.Nullable || w.Nullable
	s.XPreserveUnknownFields = s.XPreserveUnknownFields || w.XPreserveUnknownFields
	s.XEmbeddedResource = s.XEmbeddedResource || w.XEmbeddedResource
	s.XIntOrString = s.XIntOrString || w.XIntOrString
	if w.XListType != "" {
		s.XListType = w.XListType
	}
	if len(w.XListMapKeys) > 0 {
		s.XListMapKeys = w.XListMapKeys
	}
	if w.XMapType != "" {
		s.XMapType = w.XMapType
	}
	if w.XPatchMergeKey != "" {
		s.XPatchMergeKey = w.XPatchMergeKey
	}
	if w.XPatchStrategy != "" {
		s.XPatchStrategy = w.XPatchStrategy
	}
	if len(w.Extensions) > 0 {
		ext := make(map[string]any, len(s.Extensions)+len(w.Extensions))
		for k, v := range s.Extensions {
			ext[k] = v
		}
		for k, v := range w.Extensions {
			ext[k] = v
		}
		s.Extensions = ext
	}
}
