package fieldmanager

import (
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/kapi-dev/kapi/meta"
)

// A create whose request carries no managedFields is the commonest write,
// and its result is simple: one Update entry, the creator's, owning every
// field the object sets that its kind's empty object does not (minus the
// subresource's reset fields and the metadata nobody owns). createFast
// writes that entry's FieldsV1 while walking the object, where the general
// path builds sets, takes their differences and encodes them again.
// FuzzFastUpdateMatchesStructuredMergeDiff holds it to SMD too.

// memberMark is the FieldsV1 key of a path that is itself owned and has
// owned children; while a trie is built every owned path carries it.
const memberMark = "."

// createFast returns the managedFields of obj created by o's manager with
// no managed fields in the request; ok is false when the general path
// must decide.
func (m *Manager) createFast(o Options, obj meta.Object) (entries []any, ok bool) {
	o = m.withDefaults(o)
	c := comparer{schema: m.typed.Schema, owned: map[string]any{}}
	if !c.node(m.typed.TypeRef, map[string]any(m.emptyObject(o.APIVersion)), true, map[string]any(obj), true) || c.badKey {
		return nil, false
	}
	for _, keys := range m.resetKeys[o.Subresource] {
		disownTree(c.owned, keys)
	}
	for _, keys := range stripKeys {
		disownPath(c.owned, keys)
	}
	if !settle(c.owned) {
		return nil, true // nothing owned: no entry
	}
	entry := entryObject(o.identity(OperationUpdate), o.Now, c.owned)
	return []any{entry}, true
}

// ownPath marks the path of FieldsV1 keys owned in a trie being built.
func ownPath(trie map[string]any, keys []string) {
	node := trie
	for _, k := range keys {
		child, _ := node[k].(map[string]any)
		if child == nil {
			child = map[string]any{}
			node[k] = child
		}
		node = child
	}
	node[memberMark] = member{}
}

// member marks an owned node while a trie is built; settle replaces it.
type member struct{}

// keyPaths lists the paths of a set as FieldsV1 keys, computed once for
// the sets every create subtracts.
func keyPaths(set *fieldpath.Set) [][]string {
	var out [][]string
	set.Iterate(func(p fieldpath.Path) {
		keys := make([]string, len(p))
		for i, pe := range p {
			k, err := serializePathElement(pe)
			if err != nil {
				return // not reached: these sets hold field names only
			}
			keys[i] = k
		}
		out = append(out, keys)
	})
	return out
}

// stripKeys is stripSet as FieldsV1 key paths.
var stripKeys = keyPaths(stripSet)

// descend returns the trie node at the key path, and its parent, or nil.
func descend(trie map[string]any, keys []string) (parent map[string]any, key string, node map[string]any) {
	node = trie
	for _, k := range keys {
		next, _ := node[k].(map[string]any)
		if next == nil {
			return nil, "", nil
		}
		parent, key, node = node, k, next
	}
	return parent, key, node
}

// disownTree removes a path and everything under it (a reset field:
// SMD's exclude filter, a recursive difference).
func disownTree(trie map[string]any, keys []string) {
	if parent, key, _ := descend(trie, keys); parent != nil {
		delete(parent, key)
	}
}

// disownPath removes a path itself and keeps its children (a set
// difference).
func disownPath(trie map[string]any, keys []string) {
	if _, _, node := descend(trie, keys); node != nil {
		delete(node, memberMark)
	}
}

// settle turns a built trie into FieldsV1, as setToFields writes a set:
// nodes that own nothing any more go, an owned node without children is
// {}, and one with children keeps "." beside them. It reports whether node
// owns anything.
func settle(node map[string]any) bool {
	for k, v := range node {
		if child, ok := v.(map[string]any); ok && k != memberMark && !settle(child) {
			delete(node, k)
		}
	}
	_, owned := node[memberMark]
	switch {
	case owned && len(node) == 1:
		delete(node, memberMark)
	case owned:
		node[memberMark] = map[string]any{}
	}
	return owned || len(node) > 0
}
