package schema

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"

	"github.com/kapi-dev/kapi/meta"
)

// This file holds the checks kube-apiserver applies to the openAPIV3Schema
// of a v1 CustomResourceDefinition (apiextensions-apiserver 1.33:
// pkg/apis/apiextensions/validation and pkg/apiserver/schema), with the
// same messages and paths, in this order:
//
//  1. with the status subresource, the root restrictions; nullable at the root;
//  2. the structural-schema rules (sorted by message, as kube sorts them),
//     or, when there are none, the defaults (pruned, valid);
//  3. the OpenAPI rules of CRDs, walking the schema (properties by name);
//  4. when nothing else failed but the schema uses a keyword structural
//     schemas cannot express, that error.

// p is a kube field.Path under construction.
type p string

func (x p) child(name string) p {
	switch x {
	case noPath:
		return x
	case "":
		return p(name)
	}
	return x + "." + p(name)
}
func (x p) key(k string) p {
	if x == noPath {
		return x
	}
	return x + "[" + p(k) + "]"
}
func (x p) index(i int) p {
	if x == noPath {
		return x
	}
	return x + "[" + p(strconv.Itoa(i)) + "]"
}

// noPath is the base of a first run of the CRD rules that builds no
// paths: a valid schema, the common case, is checked without them; an
// invalid one is checked again with them for the messages.
const noPath p = "\x00"

func (x p) String() string { return string(x) }

func required(at p, detail string) meta.FieldError {
	return meta.FieldError{Type: meta.ErrorRequired, Field: at.String(), Detail: detail}
}

func forbidden(at p, detail string) meta.FieldError {
	return meta.FieldError{Type: meta.ErrorForbidden, Field: at.String(), Detail: detail}
}

func invalid(at p, value any, detail string) meta.FieldError {
	return meta.FieldError{Type: meta.ErrorInvalid, Field: at.String(), Value: value, Detail: detail}
}

func notSupported(at p, value any, values ...string) meta.FieldError {
	return meta.FieldError{Type: meta.ErrorNotSupported, Field: at.String(), Value: value, Detail: "supported values: " + quoteList(values)}
}

// goSlice renders a []string the way %#v does in kube's messages.
type goSlice []string

func (g goSlice) String() string { return fmt.Sprintf("%#v", []string(g)) }

func (d *decoder) crdErrors(root *Schema, opts ParseOptions) meta.FieldErrors {
	if errs := d.crdRules(root, opts, noPath); len(errs) == 0 {
		return nil
	}
	return d.crdRules(root, opts, p(opts.FieldPath))
}

// crdRules checks the CRD rules with paths under base.
func (d *decoder) crdRules(root *Schema, opts ParseOptions, base p) meta.FieldErrors {
	var errs meta.FieldErrors

	if opts.StatusSubresource {
		errs = append(errs, statusRootErrors(root, d.info[root], base)...)
	}
	if root.Nullable {
		errs = append(errs, forbidden(base.child("nullable"), "nullable cannot be true at the root"))
	}

	initErr := d.structuralInitError(root)
	if initErr == "" {
		structural := d.structuralInvariants(root, rootLevel, base)
		structural = append(structural, d.completeness(root, base)...)
		sort.SliceStable(structural, func(i, j int) bool { return structural[i].Error() < structural[j].Error() })
		if len(structural) > 0 {
			errs = append(errs, structural...)
		} else {
			compileTree(root, map[*Schema]bool{})
			errs = append(errs, d.defaultErrors(root, base, true, false)...)
		}
	}

	errs = append(errs, d.openAPIErrors(root, base, ssv{allowDefaults: true}, true)...)

	if len(errs) == 0 && initErr != "" {
		errs = append(errs, invalid(base, "", initErr))
	}
	return errs
}

// patternErrors checks only the regular expressions (NonStructural). The
// walk builds a node's path only when it has an error: the published
// schemas of built-in kinds share nodes, so every component walks a large
// graph, and eager paths dominated loading them.
func (d *decoder) patternErrors(root *Schema, base string) meta.FieldErrors {
	var errs meta.FieldErrors
	seen := map[*Schema]bool{}
	type elem struct {
		field, key string
		index      int // -1: none
	}
	var path []elem
	render := func() p {
		at := p(base)
		for _, e := range path {
			at = at.child(e.field)
			switch {
			case e.key != "":
				at = at.key(e.key)
			case e.index >= 0:
				at = at.index(e.index)
			}
		}
		return at
	}
	var walk func(*Schema)
	step := func(s *Schema, e elem) {
		if s == nil {
			return
		}
		path = append(path, e)
		walk(s)
		path = path[:len(path)-1]
	}
	walk = func(s *Schema) {
		if seen[s] {
			return
		}
		seen[s] = true
		if s.Pattern != "" {
			if _, err := compilePattern(s.Pattern); err != nil {
				errs = append(errs, invalid(render().child("pattern"), s.Pattern, "must be a valid regular expression, but isn't: "+err.Error()))
			}
		}
		for k, prop := range s.Properties {
			step(prop, elem{"properties", k, -1})
		}
		step(s.AdditionalPropertiesSchema(), elem{"additionalProperties", "", -1})
		step(s.Items, elem{"items", "", -1})
		for i, b := range s.AllOf {
			step(b, elem{"allOf", "", i})
		}
		for i, b := range s.AnyOf {
			step(b, elem{"anyOf", "", i})
		}
		for i, b := range s.OneOf {
			step(b, elem{"oneOf", "", i})
		}
		step(s.Not, elem{"not", "", -1})
	}
	if root != nil {
		walk(root)
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Field < errs[j].Field })
	return errs
}

func sortedSchemaKeys(m map[string]*Schema) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

var allowedAtRoot = "[Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations]"

func statusRootErrors(s *Schema, info *nodeInfo, base p) meta.FieldErrors {
	if s.Type != "" && s.Type != "object" {
		return meta.FieldErrors{invalid(base.child("type"), s.Type,
			`only "object" is allowed as the type at the root of the schema if the status subresource is enabled`)}
	}
	other := s.Nullable || s.DefaultValue != nil || len(s.Enum) > 0 || s.MaxProperties != nil || s.MinProperties != nil ||
		s.AdditionalProperties != nil || len(s.AllOf) > 0 || len(s.AnyOf) > 0 || len(s.OneOf) > 0 || s.Not != nil ||
		s.XEmbeddedResource || s.XIntOrString || s.XListType != "" || len(s.XListMapKeys) > 0 || s.XMapType != "" ||
		(info != nil && (info.ref || info.id || info.additionalItems || info.patternProperties || info.definitions || info.dependencies))
	if other {
		return meta.FieldErrors{invalid(base, meta.NoValue,
			fmt.Sprintf("only %s fields are allowed at the root of the schema if the status subresource is enabled", allowedAtRoot))}
	}
	return nil
}

// structuralInitError is the error kube's NewStructural returns for
// keywords structural schemas cannot hold; "" when none.
func (d *decoder) structuralInitError(root *Schema) string {
	msg := ""
	seen := map[*Schema]bool{}
	var walk func(*Schema)
	walk = func(s *Schema) {
		if s == nil || seen[s] || msg != "" {
			return
		}
		seen[s] = true
		if info := d.info[s]; info != nil {
			switch {
			case info.itemsArray:
				msg = "OpenAPIV3Schema 'items' must be a schema, but is an array"
			case info.preserveFalse:
				msg = "internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined"
			case info.id:
				msg = "OpenAPIV3Schema 'id' is not supported"
			case info.dollarSchema:
				msg = "OpenAPIV3Schema 'schema' is not supported"
			case info.ref:
				msg = "OpenAPIV3Schema '$ref' is not supported"
			case info.patternProperties:
				msg = "OpenAPIV3Schema 'patternProperties' is not supported"
			case info.dependencies:
				msg = "OpenAPIV3Schema 'dependencies' is not supported"
			case info.additionalItems:
				msg = "OpenAPIV3Schema 'additionalItems' is not supported"
			case info.definitions:
				msg = "OpenAPIV3Schema 'definitions' is not supported"
			}
		}
		for _, k := range sortedSchemaKeys(s.Properties) {
			walk(s.Properties[k])
		}
		walk(s.AdditionalPropertiesSchema())
		walk(s.Items)
		for _, list := range [][]*Schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, b := range list {
				walk(b)
			}
		}
		walk(s.Not)
	}
	walk(root)
	return msg
}

type level int

const (
	rootLevel level = iota
	itemLevel
	fieldLevel
)

func (d *decoder) structuralInvariants(s *Schema, lvl level, at p) meta.FieldErrors {
	if s == nil {
		return nil
	}
	var errs meta.FieldErrors
	if s.Type == "array" && s.Items == nil {
		errs = append(errs, required(at.child("items"), "must be specified"))
	}
	errs = append(errs, d.structuralInvariants(s.Items, itemLevel, at.child("items"))...)
	for _, k := range sortedSchemaKeys(s.Properties) {
		errs = append(errs, d.structuralInvariants(s.Properties[k], fieldLevel, at.child("properties").key(k))...)
	}
	if s.AdditionalProperties != nil {
		if lvl == rootLevel {
			errs = append(errs, forbidden(at.child("additionalProperties"), "must not be used at the root"))
		}
		if s.AdditionalProperties.Schema != nil {
			errs = append(errs, d.structuralInvariants(s.AdditionalProperties.Schema, fieldLevel, at.child("additionalProperties"))...)
		}
	}
	if s.XIntOrString && s.XPreserveUnknownFields {
		errs = append(errs, invalid(at.child("x-kubernetes-preserve-unknown-fields"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	if s.XIntOrString && s.XEmbeddedResource {
		errs = append(errs, invalid(at.child("x-kubernetes-embedded-resource"), true, "must be false if x-kubernetes-int-or-string is true"))
	}
	errs = append(errs, d.valueValidation(s, isIntOrStringAnyOf(s.AnyOf), len(s.AllOf) > 0 && isIntOrStringAnyOf(s.AllOf[0].AnyOf), at)...)

	checkMetadata := lvl == rootLevel || s.XEmbeddedResource
	switch {
	case s.XEmbeddedResource && s.Type != "object":
		if s.Type == "" {
			errs = append(errs, required(at.child("type"), "must be object if x-kubernetes-embedded-resource is true"))
		} else {
			errs = append(errs, invalid(at.child("type"), s.Type, "must be object if x-kubernetes-embedded-resource is true"))
		}
	case s.Type == "" && !s.XIntOrString && !s.XPreserveUnknownFields:
		switch lvl {
		case rootLevel:
			errs = append(errs, required(at.child("type"), "must not be empty at the root"))
		case itemLevel:
			errs = append(errs, required(at.child("type"), "must not be empty for specified array items"))
		default:
			errs = append(errs, required(at.child("type"), "must not be empty for specified object fields"))
		}
	}
	if s.XEmbeddedResource && s.AdditionalProperties != nil {
		errs = append(errs, forbidden(at.child("additionalProperties"), "must not be used if x-kubernetes-embedded-resource is set"))
	}
	if lvl == rootLevel && s.Type != "" && s.Type != "object" {
		errs = append(errs, invalid(at.child("type"), s.Type, "must be object at the root"))
	}
	if checkMetadata {
		for _, f := range []string{"kind", "apiVersion"} {
			if prop, ok := s.Properties[f]; ok && prop.Type != "string" {
				errs = append(errs, invalid(at.child("properties").key(f).child("type"), prop.Type, "must be string"))
			}
		}
	}
	if md, ok := s.Properties["metadata"]; ok {
		mp := at.child("properties").key("metadata")
		if checkMetadata && md.Type != "object" {
			errs = append(errs, invalid(mp.child("type"), md.Type, "must be object"))
		}
		if lvl == rootLevel && !d.onlyNameConstraints(md) {
			errs = append(errs, forbidden(mp, "must not specify anything other than name and generateName, but metadata is implicitly specified"))
		}
	}
	if s.XEmbeddedResource && !s.XPreserveUnknownFields && len(s.Properties) == 0 {
		errs = append(errs, required(at.child("properties"), "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"))
	}
	return errs
}

// onlyNameConstraints reports whether the root metadata schema says
// nothing but its type, a default, and the schemas of name and
// generateName.
func (d *decoder) onlyNameConstraints(md *Schema) bool {
	for k := range md.Properties {
		if k != "name" && k != "generateName" {
			return false
		}
	}
	c := *md
	c.Type, c.DefaultValue, c.Properties, c.c = "", nil, nil, nil
	return reflect.DeepEqual(c, Schema{})
}

func isIntOrStringAnyOf(list []*Schema) bool {
	if len(list) != 2 {
		return false
	}
	only := func(s *Schema, t string) bool {
		c := *s
		c.c = nil
		return reflect.DeepEqual(c, Schema{Type: t})
	}
	return only(list[0], "integer") && only(list[1], "string")
}

// valueValidation checks the allOf/anyOf/oneOf/not of a node and its
// pattern.
func (d *decoder) valueValidation(s *Schema, skipAnyOf, skipFirstAllOfAnyOf bool, at p) meta.FieldErrors {
	var errs meta.FieldErrors
	if !skipAnyOf {
		for i, b := range s.AnyOf {
			errs = append(errs, d.nested(b, false, at.child("anyOf").index(i))...)
		}
	}
	for i, b := range s.AllOf {
		errs = append(errs, d.nested(b, skipFirstAllOfAnyOf && i == 0, at.child("allOf").index(i))...)
	}
	for i, b := range s.OneOf {
		errs = append(errs, d.nested(b, false, at.child("oneOf").index(i))...)
	}
	if s.Not != nil {
		errs = append(errs, d.nested(s.Not, false, at.child("not"))...)
	}
	if s.Pattern != "" {
		if _, err := compilePattern(s.Pattern); err != nil {
			errs = append(errs, invalid(at.child("pattern"), s.Pattern, "must be a valid regular expression, but isn't: "+err.Error()))
		}
	}
	return errs
}

// nested checks a schema inside allOf/anyOf/oneOf/not: value validations
// only.
func (d *decoder) nested(s *Schema, skipAnyOf bool, at p) meta.FieldErrors {
	errs := d.valueValidation(s, skipAnyOf, false, at)
	if s.Items != nil {
		errs = append(errs, d.nested(s.Items, false, at.child("items"))...)
	}
	for _, k := range sortedSchemaKeys(s.Properties) {
		errs = append(errs, d.nested(s.Properties[k], false, at.child("properties").key(k))...)
	}
	if s.Type != "" {
		errs = append(errs, forbidden(at.child("type"), "must be empty to be structural"))
	}
	if s.AdditionalProperties != nil {
		errs = append(errs, forbidden(at.child("additionalProperties"), "must be undefined to be structural"))
	}
	if s.DefaultValue != nil {
		errs = append(errs, forbidden(at.child("default"), "must be undefined to be structural"))
	}
	if s.Title != "" {
		errs = append(errs, forbidden(at.child("title"), "must be empty to be structural"))
	}
	if s.Description != "" {
		errs = append(errs, forbidden(at.child("description"), "must be empty to be structural"))
	}
	if s.Nullable {
		errs = append(errs, forbidden(at.child("nullable"), "must be false to be structural"))
	}
	if s.XPreserveUnknownFields {
		errs = append(errs, forbidden(at.child("x-kubernetes-preserve-unknown-fields"), "must be false to be structural"))
	}
	if s.XEmbeddedResource {
		errs = append(errs, forbidden(at.child("x-kubernetes-embedded-resource"), "must be false to be structural"))
	}
	if s.XIntOrString {
		errs = append(errs, forbidden(at.child("x-kubernetes-int-or-string"), "must be false to be structural"))
	}
	if len(s.XListMapKeys) > 0 {
		errs = append(errs, forbidden(at.child("x-kubernetes-list-map-keys"), "must be empty to be structural"))
	}
	if s.XListType != "" {
		errs = append(errs, forbidden(at.child("x-kubernetes-list-type"), "must be undefined to be structural"))
	}
	if s.XMapType != "" {
		errs = append(errs, forbidden(at.child("x-kubernetes-map-type"), "must be undefined to be structural"))
	}
	if info := d.info[s]; info != nil && info.xValidations {
		errs = append(errs, forbidden(at.child("x-kubernetes-validations"), "must be empty to be structural"))
	}
	if _, ok := s.Properties["metadata"]; ok {
		errs = append(errs, forbidden(at.child("properties").key("metadata"), "must not be specified in a nested context"))
	}
	return errs
}

// completeness checks that the properties and items the root's value
// validations name exist in the structural part (kube checks the root's
// only).
func (d *decoder) completeness(root *Schema, at p) meta.FieldErrors {
	var errs meta.FieldErrors
	var vv func(v *Schema, s *Schema, sPath, vPath p)
	var nested func(v *Schema, s *Schema, sPath, vPath p)
	vv = func(v, s *Schema, sPath, vPath p) {
		if v.Not != nil {
			nested(v.Not, s, sPath, vPath.child("not"))
		}
		for i, b := range v.AllOf {
			nested(b, s, sPath, vPath.child("allOf").index(i))
		}
		for i, b := range v.AnyOf {
			nested(b, s, sPath, vPath.child("anyOf").index(i))
		}
		for i, b := range v.OneOf {
			nested(b, s, sPath, vPath.child("oneOf").index(i))
		}
	}
	nested = func(v, s *Schema, sPath, vPath p) {
		if s == nil {
			errs = append(errs, required(sPath, "because it is defined in "+vPath.String()))
			return
		}
		vv(v, s, sPath, vPath)
		if v.Items != nil {
			nested(v.Items, s.Items, sPath.child("items"), vPath.child("items"))
		}
		for _, k := range sortedSchemaKeys(v.Properties) {
			if sf, ok := s.Properties[k]; ok {
				nested(v.Properties[k], sf, sPath.child("properties").key(k), vPath.child("properties").key(k))
			} else {
				errs = append(errs, required(sPath.child("properties").key(k),
					"because it is defined in "+vPath.child("properties").key(k).String()))
			}
		}
	}
	vv(root, root, at, at)
	return errs
}

// defaultErrors checks every default: pruned, and valid against its
// schema (kube's structuraldefaulting.ValidateDefaults).
func (d *decoder) defaultErrors(s *Schema, at p, isResourceRoot, insideMeta bool) meta.FieldErrors {
	if s == nil {
		return nil
	}
	var errs meta.FieldErrors
	embedded := s.XEmbeddedResource || isResourceRoot
	if s.XEmbeddedResource {
		insideMeta = false
	}
	if s.DefaultValue != nil {
		dp := at.child("default")
		if !insideMeta {
			pruned := meta.DeepCopyValue(s.DefaultValue)
			pruneValue(pruned, s, s.XEmbeddedResource, nil)
			if canonicalKey(pruned) != canonicalKey(s.DefaultValue) {
				errs = append(errs, invalid(dp, s.DefaultValue, "must not have unknown fields"))
			}
		}
		var vErrs meta.FieldErrors
		if m, ok := meta.AsMap(s.DefaultValue); ok && s.XEmbeddedResource && !insideMeta {
			vErrs = validateEmbeddedResource(fpath([]byte(dp)), m)
		}
		if len(vErrs) == 0 {
			vErrs = s.ValidateValue(s.DefaultValue, dp.String())
		}
		errs = append(errs, vErrs...)
	}
	if s.Items != nil {
		errs = append(errs, d.defaultErrors(s.Items, at.child("items"), false, insideMeta)...)
	}
	for _, k := range sortedSchemaKeys(s.Properties) {
		sub := insideMeta
		if embedded && isMetaField(k) {
			sub = true
		}
		errs = append(errs, d.defaultErrors(s.Properties[k], at.child("properties").key(k), false, sub)...)
	}
	return errs
}

// ssv carries what kube's specStandardValidator knows on the way down.
type ssv struct {
	allowDefaults      bool
	disallowReason     string
	insideResourceMeta bool
}

func (v ssv) withForbiddenDefaults(reason string) ssv {
	v.allowDefaults, v.disallowReason = false, reason
	return v
}

var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

func (d *decoder) openAPIErrors(s *Schema, at p, v ssv, isRoot bool) meta.FieldErrors {
	if s == nil {
		return nil
	}
	info := d.info[s]
	if info == nil {
		info = &nodeInfo{}
	}
	var errs meta.FieldErrors

	// specStandardValidatorV3.validate
	if s.Type != "" && !slices.Contains(openAPIV3Types, s.Type) {
		errs = append(errs, notSupported(at.child("type"), s.Type, openAPIV3Types...))
	}
	if s.DefaultValue != nil && !v.allowDefaults {
		detail := "must not be set"
		if v.disallowReason != "" {
			detail += " " + v.disallowReason
		}
		errs = append(errs, forbidden(at.child("default"), detail))
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{info.id, "id"}, {info.additionalItems, "additionalItems"}, {info.patternProperties, "patternProperties"},
		{info.definitions, "definitions"}, {info.dependencies, "dependencies"}, {info.ref, "$ref"}} {
		if f.on {
			errs = append(errs, forbidden(at.child(f.name), f.name+" is not supported"))
		}
	}
	if s.Type == "null" {
		errs = append(errs, forbidden(at.child("type"), "type cannot be set to null, use nullable as an alternative"))
	}
	if info.itemsArray {
		errs = append(errs, forbidden(at.child("items"), "items must be a schema object and not an array"))
	}
	if v.insideResourceMeta && s.XEmbeddedResource {
		errs = append(errs, forbidden(at.child("x-kubernetes-embedded-resource"), "must not be used inside of resource meta"))
	}

	if s.UniqueItems {
		errs = append(errs, forbidden(at.child("uniqueItems"), "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"))
	}
	if ap := s.AdditionalProperties; ap != nil {
		if len(s.Properties) != 0 && (!ap.Allows || ap.Schema != nil) {
			errs = append(errs, forbidden(at.child("additionalProperties"), "additionalProperties and properties are mutual exclusive"))
		}
		sub := v
		if v.insideResourceMeta {
			sub = v.withForbiddenDefaults("inside additionalProperties applying to object metadata")
		}
		errs = append(errs, d.openAPIErrors(ap.Schema, at.child("additionalProperties"), sub, false)...)
	}
	for _, k := range sortedSchemaKeys(s.Properties) {
		sub := v
		if (isRoot || s.XEmbeddedResource) && isMetaField(k) {
			sub.insideResourceMeta = true
			if isRoot {
				sub = sub.withForbiddenDefaults("in top-level " + k)
			}
		}
		errs = append(errs, d.openAPIErrors(s.Properties[k], at.child("properties").key(k), sub, false)...)
	}
	errs = append(errs, d.openAPIErrors(s.Not, at.child("not"), v, false)...)
	for i, b := range s.AllOf {
		errs = append(errs, d.openAPIErrors(b, at.child("allOf").index(i), v, false)...)
	}
	for i, b := range s.OneOf {
		errs = append(errs, d.openAPIErrors(b, at.child("oneOf").index(i), v, false)...)
	}
	for i, b := range s.AnyOf {
		errs = append(errs, d.openAPIErrors(b, at.child("anyOf").index(i), v, false)...)
	}
	errs = append(errs, d.openAPIErrors(s.Items, at.child("items"), v, false)...)

	if info.preserveFalse {
		errs = append(errs, invalid(at.child("x-kubernetes-preserve-unknown-fields"), false, "must be true or undefined"))
	}
	if s.XMapType != "" && s.Type != "object" {
		if s.Type == "" {
			errs = append(errs, required(at.child("type"), "must be object if x-kubernetes-map-type is specified"))
		} else {
			errs = append(errs, invalid(at.child("type"), s.Type, "must be object if x-kubernetes-map-type is specified"))
		}
	}
	if s.XMapType != "" && s.XMapType != "atomic" && s.XMapType != "granular" {
		errs = append(errs, notSupported(at.child("x-kubernetes-map-type"), s.XMapType, "atomic", "granular"))
	}
	if s.XListType != "" && s.Type != "array" {
		if s.Type == "" {
			errs = append(errs, required(at.child("type"), "must be array if x-kubernetes-list-type is specified"))
		} else {
			errs = append(errs, invalid(at.child("type"), s.Type, "must be array if x-kubernetes-list-type is specified"))
		}
	} else if s.XListType == "set" && s.Items != nil {
		is := s.Items
		switch is.Type {
		case "array":
			if is.XListType != "" && is.XListType != "atomic" {
				errs = append(errs, invalid(at.child("items").child("x-kubernetes-list-type"), is.XListType,
					"must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		case "object":
			if is.XMapType != "atomic" {
				var shown any = "null" // kube shows the items' list type here
				if is.XListType != "" {
					shown = is.XListType
				}
				errs = append(errs, invalid(at.child("items").child("x-kubernetes-map-type"), shown,
					"must be atomic as item of a list with x-kubernetes-list-type=set"))
			}
		}
	}
	if s.XListType != "" && s.XListType != "atomic" && s.XListType != "set" && s.XListType != "map" {
		errs = append(errs, notSupported(at.child("x-kubernetes-list-type"), s.XListType, "atomic", "set", "map"))
	}
	if len(s.XListMapKeys) > 0 {
		if s.XListType == "" {
			errs = append(errs, required(at.child("x-kubernetes-list-type"), "must be map if x-kubernetes-list-map-keys is non-empty"))
		} else if s.XListType != "map" {
			errs = append(errs, invalid(at.child("x-kubernetes-list-type"), s.XListType, "must be map if x-kubernetes-list-map-keys is non-empty"))
		}
	}
	if s.XListType == "map" {
		if len(s.XListMapKeys) == 0 {
			errs = append(errs, required(at.child("x-kubernetes-list-map-keys"), "must not be empty if x-kubernetes-list-type is map"))
		}
		if s.Items == nil && !info.itemsArray {
			errs = append(errs, required(at.child("items"), "must have a schema if x-kubernetes-list-type is map"))
		}
		if is := s.Items; is != nil {
			if is.Type != "object" {
				errs = append(errs, invalid(at.child("items").child("type"), is.Type, "must be object if parent array's x-kubernetes-list-type is map"))
			} else {
				keys := map[string]bool{}
				for _, k := range s.XListMapKeys {
					if prop, ok := is.Properties[k]; ok {
						if prop.Type == "array" || prop.Type == "object" {
							errs = append(errs, invalid(at.child("items").child("properties").key(k).child("type"), is.Type,
								"must be a scalar type if parent array's x-kubernetes-list-type is map"))
						}
					} else {
						errs = append(errs, invalid(at.child("x-kubernetes-list-map-keys"), goSlice(s.XListMapKeys), "entries must all be names of item properties"))
					}
					if keys[k] {
						errs = append(errs, invalid(at.child("x-kubernetes-list-map-keys"), goSlice(s.XListMapKeys), "must not contain duplicate entries"))
					}
					keys[k] = true
				}
			}
		}
	}
	if is := s.Items; is != nil && (s.XListType == "set" || s.XListType == "map") {
		if is.Nullable {
			errs = append(errs, forbidden(at.child("items").child("nullable"), "cannot be nullable when x-kubernetes-list-type is "+s.XListType))
		}
		if s.XListType == "map" {
			for _, k := range s.XListMapKeys {
				prop, ok := is.Properties[k]
				if !ok {
					continue
				}
				if !slices.Contains(is.Required, k) && prop.DefaultValue == nil {
					errs = append(errs, required(at.child("items").child("properties").key(k).child("default"),
						"this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"))
				}
				if prop.Nullable {
					errs = append(errs, forbidden(at.child("items").child("properties").key(k).child("nullable"),
						"this property is in x-kubernetes-list-map-keys, so it cannot be nullable"))
				}
			}
		}
	}
	return errs
}
