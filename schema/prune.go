package schema

import (
	"slices"
	"strconv"

	"github.com/kapi-dev/kapi/meta"
)

// Prune removes from obj, in place, every field the schema does not
// declare, as kube-apiserver prunes custom resources (and as strict
// decoding drops unknown fields of built-in kinds), and returns the paths
// of the removed fields in kube's format, for the warnings
// `unknown field "spec.containers[0].foo"` (fieldValidation=Warn) or the
// Strict error:
//
//   - x-kubernetes-preserve-unknown-fields keeps the unknown fields of that
//     object (its declared fields are still pruned below it);
//   - additionalProperties (a schema, true or false) declares every key;
//     their values are pruned with that schema (with none for true/false:
//     nested objects are emptied, as in kube);
//   - in an x-kubernetes-embedded-resource object, and at the root when
//     isRoot, apiVersion, kind and metadata are always kept; metadata is
//     pruned to the fields of ObjectMeta ([ObjectMeta]).
//
// isRoot says obj is a whole resource (a custom resource or built-in
// object), not a part of one. The returned paths are: those in the root
// metadata, then the others sorted, then those in embedded resources'
// metadata, the order kube-apiserver reports them in. Cost: O(size of obj).
func (s *Schema) Prune(obj map[string]any, isRoot bool) []string {
	if obj == nil {
		return nil
	}
	p := &pruner{withMeta: true, parent: make([]byte, 0, 128)}
	if isRoot {
		if md, ok := meta.AsMap(obj["metadata"]); ok {
			p.parent = append(p.parent[:0], "metadata"...)
			p.prune(md, ObjectMeta(), &p.rootMeta)
			p.parent = p.parent[:0]
		}
	}
	p.pruneObject(obj, s, isRoot || s.IsEmbeddedResource())
	slices.Sort(p.rootMeta)
	slices.Sort(p.paths)
	slices.Sort(p.embeddedMeta)
	out := append(p.rootMeta, p.paths...)
	return append(out, p.embeddedMeta...)
}

// pruneValue prunes v with s the way kube's pruning package does (no
// metadata handling), for defaults.
func pruneValue(v any, s *Schema, isRoot bool, paths *[]string) {
	p := &pruner{}
	if m, ok := meta.AsMap(v); ok {
		p.pruneObject(m, s, isRoot || s.IsEmbeddedResource())
	} else {
		p.prune(v, s, &p.paths)
	}
	if paths != nil {
		*paths = p.paths
	}
}

type pruner struct {
	withMeta     bool // prune embedded metadata with ObjectMeta
	parent       []byte
	paths        []string
	rootMeta     []string
	embeddedMeta []string
}

func isMetaField(k string) bool { return k == "apiVersion" || k == "kind" || k == "metadata" }

func (p *pruner) appendKey(k string) int {
	n := len(p.parent)
	if n > 0 {
		p.parent = append(p.parent, '.')
	}
	p.parent = append(p.parent, k...)
	return n
}

func (p *pruner) appendIndex(i int) int {
	n := len(p.parent)
	p.parent = append(p.parent, '[')
	p.parent = strconv.AppendInt(p.parent, int64(i), 10)
	p.parent = append(p.parent, ']')
	return n
}

func (p *pruner) record(k string, into *[]string) {
	n := p.appendKey(k)
	*into = append(*into, string(p.parent))
	p.parent = p.parent[:n]
}

func (p *pruner) prune(x any, s *Schema, into *[]string) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipPrune(x, s, into)
		return
	}
	switch t := x.(type) {
	case map[string]any:
		p.pruneMap(t, s, s.IsEmbeddedResource(), into)
	case meta.Object:
		p.pruneMap(t, s, s.IsEmbeddedResource(), into)
	case []any:
		items := s.ItemSchema()
		for i, e := range t {
			n := p.appendIndex(i)
			p.prune(e, items, into)
			p.parent = p.parent[:n]
		}
	}
}

// pruneObject prunes an object whose schema is s, treating it as an
// embedded resource when embedded.
func (p *pruner) pruneObject(m map[string]any, s *Schema, embedded bool) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipMap(m, s, embedded, &p.paths)
		return
	}
	p.pruneMap(m, s, embedded, &p.paths)
}

func (p *pruner) pruneMap(m map[string]any, s *Schema, embedded bool, into *[]string) {
	if s == nil {
		for k := range m {
			p.record(k, into)
			delete(m, k)
		}
		return
	}
	for k, v := range m {
		if embedded && isMetaField(k) {
			p.embeddedMetadata(k, v)
			continue
		}
		if prop, ok := s.Properties[k]; ok {
			n := p.appendKey(k)
			p.prune(v, prop, into)
			p.parent = p.parent[:n]
		} else if s.AdditionalProperties != nil {
			n := p.appendKey(k)
			p.prune(v, s.AdditionalProperties.Schema, into)
			p.parent = p.parent[:n]
		} else {
			if !isMetaField(k) || len(p.parent) > 0 {
				p.record(k, into)
			}
			delete(m, k)
		}
	}
}

// embeddedMetadata prunes the metadata of an embedded resource (not the
// root's, done first by Prune) to ObjectMeta's fields.
func (p *pruner) embeddedMetadata(k string, v any) {
	if !p.withMeta || k != "metadata" || len(p.parent) == 0 {
		return
	}
	md, ok := meta.AsMap(v)
	if !ok {
		return
	}
	n := p.appendKey(k)
	p.prune(md, ObjectMeta(), &p.embeddedMeta)
	p.parent = p.parent[:n]
}

func (p *pruner) skipPrune(x any, s *Schema, into *[]string) {
	switch t := x.(type) {
	case map[string]any:
		p.skipMap(t, s, s.IsEmbeddedResource(), into)
	case meta.Object:
		p.skipMap(t, s, s.IsEmbeddedResource(), into)
	case []any:
		items := s.ItemSchema()
		if items == nil {
			return
		}
		for i, e := range t {
			n := p.appendIndex(i)
			p.skipPrune(e, items, into)
			p.parent = p.parent[:n]
		}
	}
}

func (p *pruner) skipMap(m map[string]any, s *Schema, embedded bool, into *[]string) {
	if s == nil {
		return
	}
	for k, v := range m {
		if embedded && isMetaField(k) {
			p.embeddedMetadata(k, v)
			continue
		}
		if prop, ok := s.Properties[k]; ok {
			n := p.appendKey(k)
			p.prune(v, prop, into)
			p.parent = p.parent[:n]
		} else if s.AdditionalProperties != nil {
			n := p.appendKey(k)
			p.prune(v, s.AdditionalProperties.Schema, into)
			p.parent = p.parent[:n]
		}
	}
}
