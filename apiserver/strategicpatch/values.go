package strategicpatch

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// This file holds the helpers on JSON-shaped values: copying, equality,
// first-position indexes, and the clean-up of patch values taken as they
// are.

// copyValue returns a deep copy of a JSON-shaped value. Scalars and values of
// other Go types are shared (they are immutable, or not ours to copy); nil
// maps and lists stay nil.
func copyValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		return copyMap(t)
	case []any:
		return copyList(t)
	default:
		return v
	}
}

func copyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = copyValue(v)
	}
	return out
}

func copyList(l []any) []any {
	if l == nil {
		return nil
	}
	out := make([]any, len(l))
	for i, v := range l {
		out[i] = copyValue(v)
	}
	return out
}

// equal reports whether two values are equal the way Kubernetes compares
// merge keys and primitive list items (Go's ==: int64(1) and float64(1)
// differ). Where == would panic (two maps, two lists) it compares deeply.
func equal(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case int64:
		y, ok := b.(int64)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(a, b)
	}
}

// hashable reports whether v can be a Go map key without panicking and
// compares there exactly as equal does.
func hashable(v any) bool {
	switch v.(type) {
	case nil, string, int64, float64, bool,
		int, int8, int16, int32, uint, uint8, uint16, uint32, uint64, float32:
		return true
	}
	return false
}

// firstIndex finds the first position of a value in a list of keys (list
// items, or their merge-key values), as a linear search from the start
// would. Short lists are scanned; longer ones are hashed, so that merging
// large lists stays linear whatever the patch holds.
type firstIndex struct {
	keys []any
	head map[any]int   // bucketOf(key) → first position; nil while scanning
	more map[any][]int // bucketOf(key) → the other positions, ascending
}

// scanLimit is the list length up to which a linear scan beats hashing.
// BenchmarkFirstIndex (n lookups among n keys; 2 cores, noisy): the scan
// wins at 8 and 16 keys (about 0.5 and 2 µs, against 1.7 and 5), hashing
// at 64 (11 µs, against 30); 32 is about even.
const scanLimit = 24

// absent marks an item without a merge key in a firstIndex: it never
// equals a lookup value.
type absentKey struct{}

var absent any = absentKey{}

func newFirstIndex(keys []any) *firstIndex {
	x := &firstIndex{keys: keys}
	if len(keys) > scanLimit {
		x.hash()
	}
	return x
}

func (x *firstIndex) hash() {
	x.head = make(map[any]int, len(x.keys))
	for i, k := range x.keys {
		if k != absent {
			x.insert(bucketOf(k), i)
		}
	}
}

// insert records position i in bucket b.
func (x *firstIndex) insert(b any, i int) {
	h, ok := x.head[b]
	switch {
	case !ok:
		x.head[b] = i
		return
	case i < h:
		x.head[b], i = i, h
	}
	if x.more == nil {
		x.more = map[any][]int{}
	}
	ms := x.more[b]
	at, _ := slices.BinarySearch(ms, i)
	x.more[b] = slices.Insert(ms, at, i)
}

// add appends a key at the end.
func (x *firstIndex) add(k any) {
	x.keys = append(x.keys, k)
	switch {
	case x.head == nil && len(x.keys) > scanLimit:
		x.hash()
	case x.head != nil && k != absent:
		x.insert(bucketOf(k), len(x.keys)-1)
	}
}

// update changes the key at position i.
func (x *firstIndex) update(i int, k any) {
	old := x.keys[i]
	x.keys[i] = k
	if x.head == nil || k == absent || (old != absent && bucketOf(old) == bucketOf(k)) {
		return // a stale position is skipped, and dropped, by find
	}
	x.insert(bucketOf(k), i)
}

// find returns the first position of v, or -1.
func (x *firstIndex) find(v any) int {
	if x.head == nil {
		for i, k := range x.keys {
			if k != absent && equal(k, v) {
				return i
			}
		}
		return -1
	}
	b := bucketOf(v)
	for {
		h, ok := x.head[b]
		if !ok {
			return -1
		}
		if k := x.keys[h]; k != absent && bucketOf(k) == b {
			if equal(k, v) {
				return h
			}
			break // another value of the bucket: look further
		}
		// The key at h has changed since: drop h.
		if ms := x.more[b]; len(ms) > 0 {
			x.head[b], x.more[b] = ms[0], ms[1:]
		} else {
			delete(x.head, b)
		}
	}
	for _, i := range x.more[b] {
		if k := x.keys[i]; k != absent && equal(k, v) {
			return i
		}
	}
	return -1
}

// canonicalKey is the bucket of a value that cannot be a map key.
type canonicalKey string

// bucketOf returns a map key for v such that equal values share it.
func bucketOf(v any) any {
	if hashable(v) {
		return v
	}
	var b strings.Builder
	writeCanonical(&b, v)
	return canonicalKey(b.String())
}

// writeCanonical writes an encoding of v that is the same for equal values.
func writeCanonical(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("n")
	case string:
		b.WriteString("s")
		b.WriteString(strconv.Quote(t))
	case int64:
		b.WriteString("i")
		b.WriteString(strconv.FormatInt(t, 10))
	case float64:
		if t == 0 {
			t = 0 // -0 == 0
		}
		b.WriteString("f")
		b.WriteString(strconv.FormatFloat(t, 'g', -1, 64))
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("{")
		for _, k := range keys {
			b.WriteString(strconv.Quote(k))
			writeCanonical(b, t[k])
			b.WriteString(",")
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for _, e := range t {
			writeCanonical(b, e)
			b.WriteString(",")
		}
		b.WriteString("]")
	default:
		if hashable(v) {
			fmt.Fprintf(b, "%T(%v)", v, v)
		} else {
			b.WriteString("?") // compared by reflect.DeepEqual: one bucket
		}
	}
}

// cleanPatchValue returns a copy of a patch value that is taken as it is
// (the original has no such field, or a field of another type), without
// its directives: an object holding "$patch" is dropped (keep is false),
// wherever it is nested. With dropNulls, null fields of objects are dropped
// too (null list items stay). Other directive keys ("$retainKeys",
// "$setElementOrder/…", "$deleteFromPrimitiveList/…") are kept, as
// Kubernetes keeps them; the API server's pruning reports them.
func cleanPatchValue(v any, dropNulls bool) (out any, keep bool) {
	switch t := v.(type) {
	case map[string]any:
		if t == nil {
			return t, true
		}
		if d, ok := t[directiveMarker]; ok && (d != nil || !dropNulls) {
			return nil, false
		}
		m := make(map[string]any, len(t))
		for k, e := range t {
			if e == nil {
				if !dropNulls {
					m[k] = nil
				}
				continue
			}
			if c, ok := cleanPatchValue(e, dropNulls); ok {
				m[k] = c
			}
		}
		return m, true
	case []any:
		if t == nil {
			return t, true
		}
		l := make([]any, 0, len(t))
		for _, e := range t {
			if c, ok := cleanPatchValue(e, dropNulls); ok {
				l = append(l, c)
			}
		}
		return l, true
	default:
		return v, true
	}
}
