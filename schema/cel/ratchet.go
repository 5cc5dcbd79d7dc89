package cel

import (
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
)

// Ratchet drops from errs, the schema's errors for obj on an update from
// old, those kube-apiserver 1.33 forgives (validation ratcheting): an
// error is kept only when no node on its path, from the root down as
// far as new and old values correlate (the same property, the same key
// of a map, the same keys' item of a list of type map; not an item of any
// other list, nor below the root's apiVersion and kind), is unchanged.
func Ratchet(s *schema.Schema, errs meta.FieldErrors, obj, old map[string]any) meta.FieldErrors {
	if len(errs) == 0 || old == nil {
		return errs
	}
	root := &correlation{value: obj, old: old, schema: s}
	kept := errs[:0:0]
	for _, e := range errs {
		if !forgiven(root, e.Field) {
			kept = append(kept, e)
		}
	}
	return kept
}

// forgiven walks path from root and reports whether an unchanged
// correlated node lies on it.
func forgiven(root *correlation, path string) bool {
	c := root
	if c.unchanged() {
		return true
	}
	if path == "" || path == "<nil>" {
		return false
	}
	top := true
	for rest := path; rest != "" && c != nil; {
		var next *correlation
		switch {
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return false
			}
			seg := rest[1:end]
			rest = strings.TrimPrefix(rest[end+1:], ".")
			if i, err := strconv.Atoi(seg); err == nil && isList(c.value) {
				next = c.index(i)
			} else {
				next = c.key(seg)
			}
		default:
			name, after := splitSegment(c, rest)
			rest = after
			if top && (name == "apiVersion" || name == "kind") {
				return false
			}
			next = c.key(name)
		}
		top = false
		if next == nil {
			return false
		}
		if next.unchanged() {
			return true
		}
		c = next
	}
	return false
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// splitSegment takes the next property name or map key off a dotted
// path: in a map, the longest key of the value the path starts with (keys
// may hold dots).
func splitSegment(c *correlation, rest string) (string, string) {
	if m, ok := meta.AsMap(c.value); ok && c.schema != nil && len(c.schema.Properties) == 0 {
		best := ""
		for k := range m {
			if len(k) > len(best) && strings.HasPrefix(rest, k) &&
				(len(rest) == len(k) || rest[len(k)] == '.' || rest[len(k)] == '[') {
				best = k
			}
		}
		if best != "" {
			return best, strings.TrimPrefix(rest[len(best):], ".")
		}
	}
	end := strings.IndexAny(rest, ".[")
	if end < 0 {
		return rest, ""
	}
	return rest[:end], strings.TrimPrefix(rest[end:], ".")
}
