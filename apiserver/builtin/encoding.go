package builtin

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
)

// What kube's JSON encoding of the built-in types does that their schemas
// do not say: kube decodes every write into Go structs and encodes them
// again, so a zero value in an omitempty field that is not a pointer
// ("readOnly": false, "apiGroup": "", "args": []) is never stored, and a
// timestamp that is a value, not a pointer, is always there (a pod
// template's "creationTimestamp": null). encoding.json lists both, per
// OpenAPI component, as generated from the k8s.io/api types by
// kapitest/kubeproto/encodinggen (data, not code).
//
//go:embed encoding.json
var encodingJSON []byte

// encodingRules are one component's encoding facts, with where to find
// the components of its fields.
type encodingRules struct {
	omit, null map[string]bool
	// children maps a field to the component of its value, of its items
	// (lists) or of its values (maps, listed in mapped).
	children map[string]*encodingRules
	mapped   map[string]bool
	// quantity: the component is a resource quantity; quantities: it or
	// one of the components under it is.
	quantity, quantities bool
}

// encodingFacts is encoding.json: per component, the fields kube never
// stores zero (omit) and those it always writes, null when unset (null).
var encodingFacts = sync.OnceValue(func() map[string]struct{ Omit, Null []string } {
	var facts map[string]struct{ Omit, Null []string }
	if err := json.Unmarshal(encodingJSON, &facts); err != nil {
		panic(fmt.Sprintf("builtin: embedded encoding.json: %v", err))
	}
	return facts
})

// releaseEncodings builds each release's rules once.
var releaseEncodings = func() map[apiserver.Release]func() map[string]*encodingRules {
	m := map[apiserver.Release]func() map[string]*encodingRules{}
	for _, r := range apiserver.Releases() {
		m[r] = sync.OnceValue(func() map[string]*encodingRules { return buildEncodings(r) })
	}
	return m
}()

// encodings returns the encoding rules of release r, by component name,
// over that release's schemas. The facts are k8s.io/api 1.33's; from
// 1.34, ObjectMeta omits a zero creationTimestamp (omitzero), so a pod
// template or a review response no longer carries a null one.
func encodings(r apiserver.Release) map[string]*encodingRules {
	return releaseEncodings[r.OrDefault()]()
}

func buildEncodings(rel apiserver.Release) map[string]*encodingRules {
	facts := encodingFacts()
	comps := OpenAPIComponentsFor(rel)
	rules := map[string]*encodingRules{}
	var get func(name string) *encodingRules
	get = func(name string) *encodingRules {
		if r, ok := rules[name]; ok {
			return r
		}
		r := &encodingRules{omit: map[string]bool{}, null: map[string]bool{}, children: map[string]*encodingRules{},
			mapped: map[string]bool{}, quantity: name == quantityComponent}
		rules[name] = r
		f := facts[name]
		for _, k := range f.Omit {
			r.omit[k] = true
		}
		// An empty managedFields list in a request means "clear them": the
		// field manager must see it (kube's does, before encoding).
		delete(r.omit, "managedFields")
		for _, k := range f.Null {
			r.null[k] = true
		}
		if name == objectMetaComponent && rel.AtLeast(34) {
			delete(r.null, "creationTimestamp")
		}
		s, _ := comps[name].(map[string]any)
		props, _ := s["properties"].(map[string]any)
		for k, p := range props {
			if ref := valueRef(p); ref != "" {
				r.children[k] = get(ref)
				pm, _ := p.(map[string]any)
				_, r.mapped[k] = pm["additionalProperties"]
			}
		}
		return r
	}
	for name := range facts {
		get(name)
	}
	markQuantities(rules)
	return rules
}

const objectMetaComponent = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"

// markQuantities sets quantities on every component with a quantity
// somewhere under it (components may hold themselves: JSONSchemaProps).
func markQuantities(rules map[string]*encodingRules) {
	for changed := true; changed; {
		changed = false
		for _, r := range rules {
			if r.quantities {
				continue
			}
			for _, c := range r.children {
				if c.quantity || c.quantities {
					r.quantities, changed = true, true
					break
				}
			}
		}
	}
}

// valueRef is the component a property's value, items or map values are:
// "" for scalars.
func valueRef(p any) string {
	m, _ := p.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	if all, ok := m["allOf"].([]any); ok && len(all) == 1 {
		return valueRef(all[0])
	}
	if items, ok := m["items"]; ok {
		return valueRef(items)
	}
	if ap, ok := m["additionalProperties"]; ok {
		return valueRef(ap)
	}
	return ""
}

// dropZeros removes, throughout obj, the zero values kube's encoding
// would not store.
func (r *encodingRules) dropZeros(obj map[string]any) {
	for k, v := range obj {
		if r.omit[k] && isZero(v) {
			delete(obj, k)
			continue
		}
		r.descend(k, v, (*encodingRules).dropZeros)
	}
}

// canonicalQuantities writes, throughout obj, every resource quantity as
// kube stores it (canonicalQuantity).
func (r *encodingRules) canonicalQuantities(obj map[string]any) {
	for k, v := range obj {
		child := r.children[k]
		switch {
		case child == nil:
		case child.quantity && r.mapped[k]:
			if m, ok := v.(map[string]any); ok {
				for name, q := range m {
					m[name] = canonicalQuantityValue(q)
				}
			}
		case child.quantity:
			obj[k] = canonicalQuantityValue(v)
		case child.quantities:
			r.descend(k, v, (*encodingRules).canonicalQuantities)
		}
	}
}

// addNulls sets, throughout obj, the fields kube's encoding always writes
// to null where they are unset.
func (r *encodingRules) addNulls(obj map[string]any) {
	for k, v := range obj {
		r.descend(k, v, (*encodingRules).addNulls)
	}
	for k := range r.null {
		if _, ok := obj[k]; !ok {
			obj[k] = nil
		}
	}
}

// descend applies f to the objects a field holds: its value, its items or
// its map's values.
func (r *encodingRules) descend(k string, v any, f func(*encodingRules, map[string]any)) {
	child := r.children[k]
	if child == nil {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if !r.mapped[k] {
			f(child, x)
			return
		}
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				f(child, m)
			}
		}
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				f(child, m)
			}
		}
	}
}

func isZero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// kubeEncoded wraps a kind's strategy so that what it stores is what
// kube's encoding would store: zero values dropped with the defaults
// (before field tracking, as kube tracks the decoded object), and the
// always-encoded nulls added where no field changes owner for them (kube's
// field tracking never records a null): after tracking on a create, with
// the defaults on an update (a write carrying the resourceVersion of a
// stored version that has the nulls already, so they are unchanged).
type kubeEncoded struct {
	apiserver.Strategy
	rules *encodingRules
}

// Default runs the kind's defaults, then writes quantities in kube's
// canonical form and drops the zero values, and on an
// update adds the nulls (the schema's defaulting has just removed them).
func (s kubeEncoded) Default(o meta.Object) {
	s.Strategy.Default(o)
	if s.rules.quantities {
		s.rules.canonicalQuantities(o)
	}
	s.rules.dropZeros(o)
	if o.ResourceVersion() != "" {
		s.rules.addNulls(o)
	}
}

// PrepareForCreate runs the kind's preparation, then adds the nulls.
func (s kubeEncoded) PrepareForCreate(w *apiserver.Write, o meta.Object) {
	s.Strategy.PrepareForCreate(w, o)
	s.rules.addNulls(o)
}

// withKubeEncoding gives a registration kube's encoding rules for its
// kind, when there are any.
func withKubeEncoding(r *apiserver.Resource, rel apiserver.Release) {
	rules, ok := encodings(rel)[r.OpenAPIComponent]
	if !ok {
		return
	}
	inner := r.Strategy
	if inner == nil {
		inner = apiserver.GenericStrategy{}
	}
	r.Strategy = kubeEncoded{Strategy: inner, rules: rules}
}

// Unwrap is the kind's own strategy, whose capabilities (a Service's
// allocation, a Pod's graceful deletion) apiserver finds through it.
func (s kubeEncoded) Unwrap() apiserver.Strategy { return s.Strategy }

func (s kubeEncoded) withInner(inner apiserver.Strategy) apiserver.Strategy {
	s.Strategy = inner
	return s
}
