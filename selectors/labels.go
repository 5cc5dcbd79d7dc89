package selectors

import (
	"slices"
	"strings"
)

// Operator relates a key (or field) to values in one requirement. The string
// values are those of Kubernetes' selection.Operator.
type Operator string

// The operators of label and field requirements. Field requirements only use
// [Equals] (for both "=" and "==") and [NotEquals].
const (
	Exists       Operator = "exists" // key
	DoesNotExist Operator = "!"      // !key
	Equals       Operator = "="      // key=value
	DoubleEquals Operator = "=="     // key==value
	NotEquals    Operator = "!="     // key!=value
	In           Operator = "in"     // key in (v1,v2)
	NotIn        Operator = "notin"  // key notin (v1,v2)
	GreaterThan  Operator = "gt"     // key>N
	LessThan     Operator = "lt"     // key<N
)

// Labels is a read-only view of an object's labels. Matching only looks keys
// up, so callers can match labels in whatever form they keep them without
// building a map per match.
type Labels interface {
	// Lookup returns the value of the label key and whether it is set.
	Lookup(key string) (value string, ok bool)
}

// LabelSet is a map of labels that implements [Labels].
type LabelSet map[string]string

// Lookup implements [Labels].
func (s LabelSet) Lookup(key string) (string, bool) {
	v, ok := s[key]
	return v, ok
}

// LabelRequirement is one parsed requirement of a [LabelSelector]: a key, an
// operator and the values it relates them to. It is immutable.
type LabelRequirement struct {
	key    string
	op     Operator
	values []string // sorted, without duplicates; one value for =, ==, !=, gt, lt; none for exists, !
	num    int64    // the integer of gt and lt
}

// Key returns the label key the requirement is about.
func (r LabelRequirement) Key() string { return r.key }

// Operator returns the requirement's operator.
func (r LabelRequirement) Operator() Operator { return r.op }

// Values returns a copy of the requirement's values, sorted and without
// duplicates. It is empty for [Exists] and [DoesNotExist] and has exactly one
// element for [Equals], [DoubleEquals], [NotEquals], [GreaterThan] and
// [LessThan].
func (r LabelRequirement) Values() []string { return slices.Clone(r.values) }

func (r *LabelRequirement) hasValue(v string) bool {
	for _, x := range r.values {
		if x == v {
			return true
		}
	}
	return false
}

func (r *LabelRequirement) matches(ls Labels) bool {
	switch r.op {
	case Exists:
		_, ok := ls.Lookup(r.key)
		return ok
	case DoesNotExist:
		_, ok := ls.Lookup(r.key)
		return !ok
	case Equals, DoubleEquals, In:
		v, ok := ls.Lookup(r.key)
		return ok && r.hasValue(v)
	case NotEquals, NotIn:
		v, ok := ls.Lookup(r.key)
		return !ok || !r.hasValue(v)
	case GreaterThan, LessThan:
		v, ok := ls.Lookup(r.key)
		if !ok {
			return false
		}
		n, ok := parseInt64(v)
		if !ok {
			return false
		}
		if r.op == GreaterThan {
			return n > r.num
		}
		return n < r.num
	}
	return false
}

// String returns the requirement in selector syntax, as Kubernetes writes it:
// "key", "!key", "key=v", "key==v", "key!=v", "key in (a,b)",
// "key notin (a,b)", "key>N", "key<N".
func (r LabelRequirement) String() string {
	var b strings.Builder
	r.writeTo(&b)
	return b.String()
}

func (r *LabelRequirement) writeTo(b *strings.Builder) {
	if r.op == DoesNotExist {
		b.WriteByte('!')
	}
	b.WriteString(r.key)
	switch r.op {
	case Exists, DoesNotExist:
		return
	case Equals, DoubleEquals, NotEquals:
		b.WriteString(string(r.op))
	case GreaterThan:
		b.WriteByte('>')
	case LessThan:
		b.WriteByte('<')
	case In, NotIn:
		b.WriteString(" " + string(r.op) + " (")
		for i, v := range r.values {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(v)
		}
		b.WriteByte(')')
		return
	}
	if len(r.values) > 0 {
		b.WriteString(r.values[0])
	}
}

func (r *LabelRequirement) equal(o *LabelRequirement) bool {
	return r.key == o.key && r.op == o.op && slices.Equal(r.values, o.values)
}

// LabelSelector is a parsed, immutable label selector: the AND of its
// requirements, kept sorted by key so that [LabelSelector.String] is
// canonical. The zero value selects everything. Values are safe to copy and
// to share between goroutines; Matches neither allocates nor locks.
type LabelSelector struct {
	reqs    []LabelRequirement
	nothing bool
}

// EverythingLabels returns the selector that matches every set of labels
// (the zero LabelSelector). Its String is "" and Empty is true.
func EverythingLabels() LabelSelector { return LabelSelector{} }

// NothingLabels returns a selector that matches no labels at all. Like
// Kubernetes' labels.Nothing, its String is "" and Empty is false. Parsing
// never produces it.
func NothingLabels() LabelSelector { return LabelSelector{nothing: true} }

// Matches reports whether labels (nil means no labels) satisfy every
// requirement of s. It does not allocate.
func (s LabelSelector) Matches(labels map[string]string) bool {
	// A map in an interface is not boxed, so this does not allocate; a copy
	// of the loop with direct map lookups measured no faster.
	return s.MatchesLabels(LabelSet(labels))
}

// MatchesLabels is [LabelSelector.Matches] over any [Labels] view. It does
// not allocate when the view's Lookup does not.
func (s LabelSelector) MatchesLabels(labels Labels) bool {
	if s.nothing {
		return false
	}
	for i := range s.reqs {
		if !s.reqs[i].matches(labels) {
			return false
		}
	}
	return true
}

// Empty reports whether s does not restrict the selection at all, that is
// whether it has no requirements (and is not [NothingLabels]).
func (s LabelSelector) Empty() bool { return !s.nothing && len(s.reqs) == 0 }

// String returns the canonical form of s: its requirements, sorted by key
// then by their own text, joined by ",". Parsing it gives back an equal
// selector, so it works as a cache key.
func (s LabelSelector) String() string {
	var b strings.Builder
	for i := range s.reqs {
		if i > 0 {
			b.WriteByte(',')
		}
		s.reqs[i].writeTo(&b)
	}
	return b.String()
}

// Requirements returns a copy of the requirements of s in canonical order.
func (s LabelSelector) Requirements() []LabelRequirement { return slices.Clone(s.reqs) }

// RequiresExactMatch reports whether s can only match labels where key has
// one specific value, and returns it: true when a requirement on key is
// "key=v", "key==v" or "key in (v)". Callers use it to pick an index.
//
// Kubernetes only looks at the first requirement on key; this looks at all
// of them, so "a!=x,a=y" and "a=y,a!=x" both answer ("y", true).
func (s LabelSelector) RequiresExactMatch(key string) (value string, ok bool) {
	for i := range s.reqs {
		r := &s.reqs[i]
		if r.key != key {
			continue
		}
		switch r.op {
		case Equals, DoubleEquals, In:
			if len(r.values) == 1 {
				return r.values[0], true
			}
		}
	}
	return "", false
}

// Equal reports whether s and o have the same requirements (and so the same
// String) and are both, or neither, [NothingLabels].
func (s LabelSelector) Equal(o LabelSelector) bool {
	return s.nothing == o.nothing && slices.EqualFunc(s.reqs, o.reqs, func(a, b LabelRequirement) bool { return a.equal(&b) })
}

// compareLabelRequirements orders requirements by key (as Kubernetes does),
// then by their text, so that String is canonical even when a key repeats.
func compareLabelRequirements(a, b LabelRequirement) int {
	if c := strings.Compare(a.key, b.key); c != 0 {
		return c
	}
	return strings.Compare(a.String(), b.String())
}
