package fieldmanager

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"github.com/kapi-dev/kapi/meta"
)

// This file computes, for a non-apply write, what structured-merge-diff's
// Updater.Update would: the fields the write added, changed and removed,
// and the managers' sets that follow. It walks the plain decoded values
// beside the schema once, where SMD validates both objects and then
// compares them through its generic value wrappers (most of a create's
// cost). Wherever it is not certain to agree with SMD (a value that does
// not fit the schema, duplicate or defaulted list keys, managers recorded
// at another version) it gives up and the caller asks SMD, which then
// decides and words any error. FuzzFastUpdateMatchesStructuredMergeDiff
// holds the two to the same results.

// kind is what a decoded JSON value is, as the schema sees it.
type kind uint8

const (
	absent kind = iota // no such field or item
	null
	scalar
	list
	object
	foreign // a Go type the JSON decoder never makes: left to SMD
)

func kindOf(v any, present bool) kind {
	if !present {
		return absent
	}
	switch v.(type) {
	case nil:
		return null
	case string, bool, int64, float64, int, int32:
		return scalar
	case []any:
		return list
	case map[string]any:
		return object
	}
	return foreign
}

// part names the parts of a schema atom, as a set.
type part uint8

const (
	mapPart part = 1 << iota
	scalarPart
	listPart
)

func parts(a schema.Atom) part {
	var p part
	if a.Map != nil {
		p |= mapPart
	}
	if a.Scalar != nil {
		p |= scalarPart
	}
	if a.List != nil {
		p |= listPart
	}
	return p
}

// deduce is SMD's deduceAtom: the part of the atom a value of kind k
// selects, or the whole atom when none does.
func deduce(a schema.Atom, k kind) part {
	all := parts(a)
	switch {
	case k == scalar && all&scalarPart != 0:
		return scalarPart
	case k == list && all&listPart != 0:
		return listPart
	case k == object && all&mapPart != 0:
		return mapPart
	}
	return all
}

// handled is the part SMD's handleAtom handles: map, then scalar, then list.
func handled(p part) part {
	switch {
	case p&mapPart != 0:
		return mapPart
	case p&scalarPart != 0:
		return scalarPart
	case p&listPart != 0:
		return listPart
	}
	return 0
}

// comparer walks two objects beside a schema, recording the comparison:
// the paths added or modified (changed) and those removed, as sets, or,
// for a create, only the changed ones, straight into a FieldsV1 trie
// (owned; see createFast).
type comparer struct {
	schema           *schema.Schema
	path             fieldpath.Path
	changes, removes *fieldpath.Set
	owned            map[string]any
	keys             []string // path's FieldsV1 keys, with owned
	badKey           bool     // a path element did not serialize
}

// push and pop move the walk into an item and back out.
func (c *comparer) push(pe fieldpath.PathElement) {
	c.path = append(c.path, pe)
	if c.owned != nil {
		k, err := serializePathElement(pe)
		c.badKey = c.badKey || err != nil
		c.keys = append(c.keys, k)
	}
}

func (c *comparer) pop() {
	c.path = c.path[:len(c.path)-1]
	if c.owned != nil {
		c.keys = c.keys[:len(c.keys)-1]
	}
}

// changed and removed record the current path.
func (c *comparer) changed() {
	if c.owned != nil {
		ownPath(c.owned, c.keys)
		return
	}
	c.changes.Insert(c.path)
}

func (c *comparer) removed() {
	if c.owned == nil {
		c.removes.Insert(c.path)
	}
}

// compare is TypedValue.Compare of lhs and rhs, each first validated as
// FromUnstructured with AllowDuplicates does, with the comparison's Added
// and Modified as one set (changed), since every use takes their union;
// ok is false when the walk cannot be sure to match SMD.
func (m *Manager) compare(lhs, rhs map[string]any) (changed, removed *fieldpath.Set, ok bool) {
	c := comparer{schema: m.typed.Schema, changes: fieldpath.NewSet(), removes: fieldpath.NewSet()}
	if !c.node(m.typed.TypeRef, plain(lhs), true, plain(rhs), true) {
		return nil, nil, false
	}
	return c.changes, c.removes, true
}

// node compares one position present on at least one side.
func (c *comparer) node(tr schema.TypeRef, lv any, lok bool, rv any, rok bool) bool {
	a, ok := c.schema.Resolve(tr)
	if !ok {
		return false
	}
	lk, rk := kindOf(lv, lok), kindOf(rv, rok)
	if lk == foreign || rk == foreign {
		return false
	}
	lp, rp := handled(deduce(a, lk)), handled(deduce(a, rk))
	if lk != absent && rk != absent && lp != rp {
		// A value that changed kind under a schema that allows several
		// (preserved unknown fields, int-or-string): SMD handles the
		// position once with each side's part, the other side seen
		// through it as absent.
		if !fits(a, lp, lv, lk) || !fits(a, rp, rv, rk) {
			return false
		}
		lleaf, ok := c.part(a, lp, lv, lk, rv, rk, true)
		if !ok {
			return false
		}
		rleaf, ok := c.part(a, rp, lv, lk, rv, rk, true)
		if !ok {
			return false
		}
		if (lleaf || rleaf) && !equalValues(lv, rv) {
			c.changed()
		}
		return true
	}
	p := rp
	if rk == absent {
		p = lp
	}
	leaf, ok := c.part(a, p, lv, lk, rv, rk, false)
	if !ok {
		return false
	}
	switch {
	case lk == absent:
		c.changed()
	case rk == absent:
		c.removed()
	case leaf && !equalValues(lv, rv):
		c.changed()
	}
	return true
}

// fits tells whether a value of kind k is valid as part p of atom a, on
// its own (SMD validates each object before comparing).
func fits(a schema.Atom, p part, v any, k kind) bool {
	switch p {
	case scalarPart:
		return validScalar(*a.Scalar, v, k)
	case mapPart:
		return k == object || k == null
	case listPart:
		return k == list || k == null
	}
	return false
}

// part handles one position as part p of its atom: a leaf (scalar,
// atomic or empty on both sides) or the walk of its items. Through a part
// that is not its own (other), a side is seen as absent, as SMD ignores
// the error of reading it so; otherwise such a side is invalid.
func (c *comparer) part(a schema.Atom, p part, lv any, lk kind, rv any, rk kind, other bool) (leaf, ok bool) {
	switch p {
	case scalarPart:
		lok, rok := validScalar(*a.Scalar, lv, lk), validScalar(*a.Scalar, rv, rk)
		return true, (lok && rok) || (other && (lok || rok))
	case mapPart:
		lm, lok := asMap(lv, lk)
		rm, rok := asMap(rv, rk)
		if (!lok || !rok) && !other {
			return false, false
		}
		if a.Map.ElementRelationship == schema.Atomic || (len(lm) == 0 && len(rm) == 0) {
			return true, c.validMap(a.Map, lm) && c.validMap(a.Map, rm)
		}
		return false, c.mapItems(a.Map, lm, rm)
	case listPart:
		ll, lok := asList(lv, lk)
		rl, rok := asList(rv, rk)
		if (!lok || !rok) && !other {
			return false, false
		}
		if a.List.ElementRelationship == schema.Atomic || (len(ll) == 0 && len(rl) == 0) {
			return true, c.validList(a.List, ll) && c.validList(a.List, rl)
		}
		return false, c.listItems(a.List, ll, rl)
	}
	return false, false
}

func asMap(v any, k kind) (map[string]any, bool) {
	switch k {
	case absent, null:
		return nil, true
	case object:
		return v.(map[string]any), true
	}
	return nil, false
}

func asList(v any, k kind) ([]any, bool) {
	switch k {
	case absent, null:
		return nil, true
	case list:
		return v.([]any), true
	}
	return nil, false
}

// fieldType is the type of a map's key; ok is false for a key a struct
// does not declare.
func fieldType(t *schema.Map, key string) (schema.TypeRef, bool) {
	if f, ok := t.FindField(key); ok {
		return f.Type, true
	}
	return t.ElementType, t.ElementType != (schema.TypeRef{})
}

func (c *comparer) mapItems(t *schema.Map, lm, rm map[string]any) bool {
	visit := func(key string, lv any, lok bool, rv any, rok bool) bool {
		tr, ok := fieldType(t, key)
		if !ok {
			return false
		}
		c.push(fieldpath.PathElement{FieldName: &key})
		ok = c.node(tr, lv, lok, rv, rok)
		c.pop()
		return ok
	}
	for key, lv := range lm {
		rv, rok := rm[key]
		if !visit(key, lv, true, rv, rok) {
			return false
		}
	}
	for key, rv := range rm {
		if _, ok := lm[key]; !ok && !visit(key, nil, false, rv, true) {
			return false
		}
	}
	return true
}

func (c *comparer) listItems(t *schema.List, ll, rl []any) bool {
	if t.ElementRelationship != schema.Associative {
		return false // SMD cannot index it either, and fails
	}
	lpes, lidx, ok := c.index(t, ll)
	if !ok {
		return false
	}
	rpes, ridx, ok := c.index(t, rl)
	if !ok {
		return false
	}
	items := func(idx fieldpath.PathElementMap, pe fieldpath.PathElement) []int {
		if v, ok := idx.Get(pe); ok {
			return v.([]int)
		}
		return nil
	}
	visit := func(pe fieldpath.PathElement, lv any, lok bool, rv any, rok bool) bool {
		c.push(pe)
		ok := c.node(t.ElementType, lv, lok, rv, rok)
		c.pop()
		return ok
	}
	// As SMD: an element that occurs at most once on each side is compared;
	// one with duplicates is replaced as a whole.
	element := func(pe fieldpath.PathElement) bool {
		l, r := items(lidx, pe), items(ridx, pe)
		switch {
		case len(l) <= 1 && len(r) <= 1:
			var lv, rv any
			if len(l) == 1 {
				lv = ll[l[0]]
			}
			if len(r) == 1 {
				rv = rl[r[0]]
			}
			return visit(pe, lv, len(l) == 1, rv, len(r) == 1)
		case len(l) >= 2 && len(r) >= 2:
			if !c.validItems(t, ll, l) || !c.validItems(t, rl, r) {
				return false
			}
			if !equalItems(ll, l, rl, r) {
				c.push(pe)
				c.changed()
				c.pop()
			}
		case len(l) >= 2:
			if !c.validItems(t, ll, l) || (len(r) == 1 && !visit(pe, nil, false, rl[r[0]], true)) {
				return false
			}
			c.push(pe)
			c.removed()
			c.pop()
		default:
			if !c.validItems(t, rl, r) || (len(l) == 1 && !visit(pe, ll[l[0]], true, nil, false)) {
				return false
			}
			c.push(pe)
			c.changed()
			c.pop()
		}
		return true
	}
	for _, pe := range lpes {
		if !element(pe) {
			return false
		}
	}
	for _, pe := range rpes {
		if _, ok := lidx.Get(pe); !ok && !element(pe) {
			return false
		}
	}
	return true
}

// index gives the items of an associative list their path elements: the
// distinct elements in order, and where each occurs. ok is false for an
// item SMD would reject.
func (c *comparer) index(t *schema.List, list []any) ([]fieldpath.PathElement, fieldpath.PathElementMap, bool) {
	pes := make([]fieldpath.PathElement, 0, len(list))
	idx := fieldpath.MakePathElementMap(len(list))
	for i, it := range list {
		pe, ok := c.itemElement(t, it)
		if !ok {
			return nil, idx, false
		}
		if at, dup := idx.Get(pe); dup {
			idx.Insert(pe, append(at.([]int), i))
			continue
		}
		idx.Insert(pe, []int{i})
		pes = append(pes, pe)
	}
	return pes, idx, true
}

func (c *comparer) validItems(t *schema.List, list []any, at []int) bool {
	for _, i := range at {
		if !c.valid(t.ElementType, list[i]) {
			return false
		}
	}
	return true
}

func equalItems(ll []any, l []int, rl []any, r []int) bool {
	if len(l) != len(r) {
		return false
	}
	for i := range l {
		if !equalValues(ll[l[i]], rl[r[i]]) {
			return false
		}
	}
	return true
}

// itemElement is SMD's path element of an associative list's item: its
// keys' values (a key it omits takes the schema's default, or is left
// out), or the item itself in a set. Items keyed by a list or map are
// left to SMD.
func (c *comparer) itemElement(t *schema.List, item any) (fieldpath.PathElement, bool) {
	if len(t.Keys) == 0 {
		if kindOf(item, true) != scalar {
			return fieldpath.PathElement{}, false
		}
		v := value.NewValueInterface(item)
		return fieldpath.PathElement{Value: &v}, true
	}
	m, ok := item.(map[string]any)
	if !ok {
		return fieldpath.PathElement{}, false
	}
	keys := make(value.FieldList, 0, len(t.Keys))
	for _, name := range t.Keys {
		v, ok := m[name]
		if !ok {
			a, found := c.schema.Resolve(t.ElementType)
			if !found || a.Map == nil {
				return fieldpath.PathElement{}, false
			}
			f, _ := a.Map.FindField(name)
			if v = f.Default; v == nil {
				continue
			}
		}
		if k := kindOf(v, true); k != scalar && k != null {
			return fieldpath.PathElement{}, false
		}
		keys = append(keys, value.Field{Name: name, Value: value.NewValueInterface(v)})
	}
	if len(keys) == 0 {
		return fieldpath.PathElement{}, false
	}
	keys.Sort()
	return fieldpath.PathElement{Key: &keys}, true
}

// valid is SMD's validation (with duplicates allowed) of one value, for
// the contents of atomic maps and lists, which the comparison does not
// descend into.
func (c *comparer) valid(tr schema.TypeRef, v any) bool {
	a, ok := c.schema.Resolve(tr)
	if !ok {
		return false
	}
	k := kindOf(v, true)
	if k == foreign {
		return false
	}
	switch handled(deduce(a, k)) {
	case scalarPart:
		return validScalar(*a.Scalar, v, k)
	case mapPart:
		m, ok := asMap(v, k)
		return ok && c.validMap(a.Map, m)
	case listPart:
		l, ok := asList(v, k)
		return ok && c.validList(a.List, l)
	}
	return false
}

func (c *comparer) validMap(t *schema.Map, m map[string]any) bool {
	for key, v := range m {
		tr, ok := fieldType(t, key)
		if !ok || !c.valid(tr, v) {
			return false
		}
	}
	return true
}

func (c *comparer) validList(t *schema.List, l []any) bool {
	for _, it := range l {
		if t.ElementRelationship == schema.Associative {
			if _, ok := c.itemElement(t, it); !ok {
				return false
			}
		}
		if !c.valid(t.ElementType, it) {
			return false
		}
	}
	return true
}

// validScalar is SMD's validateScalar: absent and null always fit.
func validScalar(t schema.Scalar, v any, k kind) bool {
	switch k {
	case absent, null:
		return true
	case scalar:
	default:
		return false
	}
	switch v.(type) {
	case string:
		return t == schema.String || t == schema.Untyped
	case bool:
		return t == schema.Boolean || t == schema.Untyped
	default: // a number
		return t == schema.Numeric || t == schema.Untyped
	}
}

// equalValues is SMD's value.Equals over decoded JSON: integers and floats
// compare as numbers, null equals only null.
func equalValues(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equalValues(av, bv) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equalValues(a[i], bl[i]) {
				return false
			}
		}
		return true
	}
	return equalNumbers(a, b)
}

func equalNumbers(a, b any) bool {
	ai, aInt := asInt(a)
	bi, bInt := asInt(b)
	if aInt && bInt {
		return ai == bi
	}
	af, aok := asFloat(a)
	bf, bok := asFloat(b)
	return aok && bok && af == bf
}

func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case int:
		return int64(v), true
	case int32:
		return int64(v), true
	}
	return 0, false
}

func asFloat(v any) (float64, bool) {
	if f, ok := v.(float64); ok {
		return f, true
	}
	if i, ok := asInt(v); ok {
		return float64(i), true
	}
	return 0, false
}

// updateFast is SMD's Updater.Update of fields from live (nil for a
// create) to obj under currentOperation, the new managers' sets; ok is
// false when the caller must ask SMD instead.
func (m *Manager) updateFast(c *call, live, obj meta.Object, fields fieldpath.ManagedFields) (fieldpath.ManagedFields, bool) {
	for _, vs := range fields {
		if vs.APIVersion() != c.gv {
			return nil, false // SMD converts, compares again, drops unserved versions
		}
	}
	lhs := map[string]any(live)
	if live == nil {
		lhs = m.emptyObject(c.APIVersion)
	}
	changed, removed, ok := m.compare(lhs, obj)
	if !ok {
		return nil, false
	}
	// Sets recorded under an older schema are brought up to date; only
	// the schema of the typed value is read.
	schemaOf, err := m.emptyTyped(c.APIVersion)
	if err != nil {
		return nil, false
	}
	managers := make(fieldpath.ManagedFields, len(fields)+1)
	for name, vs := range fields {
		set, err := typed.ReconcileFieldSetWithSchema(vs.Set(), schemaOf)
		if err != nil {
			return nil, false
		}
		if set != nil {
			vs = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
		}
		managers[name] = vs
	}
	if filter := c.updater.IgnoreFilter[c.gv]; filter != nil {
		changed, removed = filter.Filter(changed), filter.Filter(removed)
	}
	// Other managers lose what the write changed or removed.
	for name, vs := range managers {
		set := vs.Set()
		if conflict := set.Intersection(changed); !conflict.Empty() {
			set = set.Difference(conflict)
		}
		if !removed.Empty() {
			set = set.Difference(removed)
		}
		switch {
		case set.Empty():
			delete(managers, name)
		case set != vs.Set():
			managers[name] = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
		}
	}
	// The writer owns it.
	if !changed.Empty() {
		managers[currentOperation] = fieldpath.NewVersionedSet(changed, c.gv, false)
	}
	return managers, true
}
