package selectors

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Fields is a read-only view of the selectable fields of an object
// ("metadata.name", "status.phase", ...).
type Fields interface {
	// Lookup returns the value of field and whether the object has it.
	Lookup(field string) (value string, ok bool)
}

// FieldSet is a map of field values that implements [Fields].
type FieldSet map[string]string

// Lookup implements [Fields].
func (s FieldSet) Lookup(field string) (string, bool) {
	v, ok := s[field]
	return v, ok
}

// FieldRequirement is one term of a [FieldSelector]: Field Operator Value,
// where Operator is [Equals] (written "=" or "==") or [NotEquals] ("!=").
// Value is unescaped.
type FieldRequirement struct {
	Field    string
	Operator Operator
	Value    string
}

func (r FieldRequirement) matches(f Fields) bool {
	v, _ := f.Lookup(r.Field) // a missing field is the empty string, as in Kubernetes
	if r.Operator == NotEquals {
		return v != r.Value
	}
	return v == r.Value
}

// String returns the requirement in selector syntax with its value escaped:
// "field=value" or "field!=value".
func (r FieldRequirement) String() string {
	var b strings.Builder
	r.writeTo(&b)
	return b.String()
}

func (r *FieldRequirement) writeTo(b *strings.Builder) {
	b.WriteString(r.Field)
	if r.Operator == NotEquals {
		b.WriteString("!=")
	} else {
		b.WriteByte('=')
	}
	writeEscaped(b, r.Value)
}

// FieldSelector is a parsed, immutable field selector: the AND of its
// requirements, in canonical order. The zero value selects everything.
// Values are safe to copy and to share between goroutines; Matches neither
// allocates nor locks.
type FieldSelector struct {
	reqs    []FieldRequirement
	nothing bool
}

// EverythingFields returns the selector that matches every object (the zero
// FieldSelector).
func EverythingFields() FieldSelector { return FieldSelector{} }

// NothingFields returns a selector that matches nothing. Like Kubernetes'
// fields.Nothing, its String is "" and Empty is false. Parsing never
// produces it.
func NothingFields() FieldSelector { return FieldSelector{nothing: true} }

// Matches reports whether the fields satisfy every requirement of s. A field
// that f does not have counts as the empty string: "spec.nodeName=" matches
// an object without spec.nodeName, and "spec.nodeName!=n1" matches it too.
// It does not allocate when f's Lookup does not.
func (s FieldSelector) Matches(f Fields) bool {
	if s.nothing {
		return false
	}
	for i := range s.reqs {
		if !s.reqs[i].matches(f) {
			return false
		}
	}
	return true
}

// Empty reports whether s does not restrict the selection at all.
func (s FieldSelector) Empty() bool { return !s.nothing && len(s.reqs) == 0 }

// String returns the canonical form of s: its terms with escaped values,
// sorted, joined by ",". Parsing it gives back an equal selector.
func (s FieldSelector) String() string {
	var b strings.Builder
	for i := range s.reqs {
		if i > 0 {
			b.WriteByte(',')
		}
		s.reqs[i].writeTo(&b)
	}
	return b.String()
}

// Requirements returns a copy of the requirements of s, in the order of
// String.
func (s FieldSelector) Requirements() []FieldRequirement { return slices.Clone(s.reqs) }

// RequiresExactMatch reports whether s requires field to have one specific
// value ("field=value" or "field==value") and returns it. The API server
// uses it for the metadata.name and metadata.namespace fast paths.
func (s FieldSelector) RequiresExactMatch(field string) (value string, ok bool) {
	for _, r := range s.reqs {
		if r.Field == field && r.Operator == Equals {
			return r.Value, true
		}
	}
	return "", false
}

// Equal reports whether s and o have the same requirements in the same
// order (and so the same String) and are both, or neither, [NothingFields].
func (s FieldSelector) Equal(o FieldSelector) bool {
	return s.nothing == o.nothing && slices.Equal(s.reqs, o.reqs)
}

// Validate returns an error for the first field of s, in String order, that
// allowed rejects, worded as kube-apiserver's field label conversions word
// it for built-in kinds that list their fields and for custom resources:
// "field label not supported: spec.foo". The API server answers it with a
// 400 Bad Request.
//
// Built-in kinds without a field list of their own (ConfigMap, Deployment,
// ...) answer differently in Kubernetes; see [FieldSelector.ValidateMetadataOnly].
func (s FieldSelector) Validate(allowed func(field string) bool) error {
	for _, r := range s.reqs {
		if !allowed(r.Field) {
			return errors.New("field label not supported: " + r.Field)
		}
	}
	return nil
}

// ValidateMetadataOnly accepts only metadata.name and metadata.namespace, and
// words its error as Kubernetes' default field label conversion does for
// kinds that register none: `"spec.foo" is not a known field selector: only
// "metadata.name", "metadata.namespace"`.
func (s FieldSelector) ValidateMetadataOnly() error {
	for _, r := range s.reqs {
		if r.Field != "metadata.name" && r.Field != "metadata.namespace" {
			return fmt.Errorf("%q is not a known field selector: only %q, %q", r.Field, "metadata.name", "metadata.namespace")
		}
	}
	return nil
}

// Transform returns a copy of s with fn applied to every requirement, in
// String order, as Kubernetes' Selector.Transform does: fn may rename a
// field (kube-apiserver maps the pod field spec.host to spec.nodeName) or
// change a value, and its first error is returned. A requirement whose field
// and value both become empty is dropped.
func (s FieldSelector) Transform(fn func(field, value string) (newField, newValue string, err error)) (FieldSelector, error) {
	if s.nothing {
		return s, nil
	}
	out := make([]FieldRequirement, 0, len(s.reqs))
	for _, r := range s.reqs {
		f, v, err := fn(r.Field, r.Value)
		if err != nil {
			return FieldSelector{}, err
		}
		if f == "" && v == "" {
			continue
		}
		out = append(out, FieldRequirement{Field: f, Operator: r.Operator, Value: v})
	}
	return newFieldSelector(out), nil
}

func newFieldSelector(reqs []FieldRequirement) FieldSelector {
	if len(reqs) == 0 {
		return FieldSelector{}
	}
	if len(reqs) > 1 {
		// Sort by the text of each term, computed once per term.
		type keyed struct {
			text string
			req  FieldRequirement
		}
		ks := make([]keyed, len(reqs))
		for i, r := range reqs {
			ks[i] = keyed{r.String(), r}
		}
		slices.SortFunc(ks, func(a, b keyed) int { return strings.Compare(a.text, b.text) })
		for i := range ks {
			reqs[i] = ks[i].req
		}
	}
	return FieldSelector{reqs: reqs}
}

// EscapeFieldValue escapes a literal value for a field selector: "\" becomes
// "\\", "," becomes "\," and "=" becomes "\=" (Kubernetes' fields.EscapeValue).
func EscapeFieldValue(v string) string {
	if !strings.ContainsAny(v, `\,=`) {
		return v
	}
	var b strings.Builder
	writeEscaped(&b, v)
	return b.String()
}

func writeEscaped(b *strings.Builder, v string) {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\', ',', '=':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
}

// unescapeFieldValue undoes EscapeFieldValue, with the errors of Kubernetes'
// fields.UnescapeValue. Like it, it works on runes: when it has to rebuild
// the value, bytes that are not UTF-8 become U+FFFD.
func unescapeFieldValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	b.Grow(len(s))
	inSlash := false
	for _, c := range s {
		if inSlash {
			switch c {
			case '\\', ',', '=':
				b.WriteRune(c)
			default:
				return "", errors.New("invalid field selector: invalid escape sequence: " + string([]rune{'\\', c}))
			}
			inSlash = false
			continue
		}
		switch c {
		case '\\':
			inSlash = true
		case ',', '=':
			// Kubernetes prints the rune as a number: "... in value: 61" for "=".
			return "", errors.New("invalid field selector: unescaped character in value: " + strconv.Itoa(int(c)))
		default:
			b.WriteRune(c)
		}
	}
	if inSlash {
		return "", errors.New(`invalid field selector: invalid escape sequence: \`)
	}
	return b.String(), nil
}

// splitFieldTerms splits s at the commas that are not escaped by a
// backslash; the terms keep their escapes.
func splitFieldTerms(s string) []string {
	if s == "" {
		return nil
	}
	terms := make([]string, 0, 1)
	start, inSlash := 0, false
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:]) // an escape takes a whole rune, as in Kubernetes
		switch {
		case inSlash:
			inSlash = false
		case c == '\\':
			inSlash = true
		case c == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
		i += size
	}
	return append(terms, s[start:])
}

// splitFieldTerm splits a term at its first operator ("!=", "==" or "=",
// tried in that order at each position). The field part has no escapes.
func splitFieldTerm(term string) (field string, op Operator, rawValue string, ok bool) {
	for i := 0; i < len(term); i++ {
		switch {
		case strings.HasPrefix(term[i:], "!="):
			return term[:i], NotEquals, term[i+2:], true
		case strings.HasPrefix(term[i:], "=="):
			return term[:i], Equals, term[i+2:], true
		case term[i] == '=':
			return term[:i], Equals, term[i+1:], true
		}
	}
	return "", "", "", false
}

// ParseFieldSelector parses a field selector in Kubernetes' syntax:
//
//	<selector> ::= "" | <term> | <term> "," <selector>
//	<term>     ::= "" | FIELD ( "=" | "==" | "!=" ) VALUE
//
// FIELD is any text up to the first operator; it is neither trimmed nor
// unescaped, and which fields exist is up to the resource (see
// [FieldSelector.Validate]). VALUE escapes "\", "," and "=" with a backslash
// (see [EscapeFieldValue]); any other escape, or an unescaped "=", is an
// error. Empty terms are skipped, as is a term whose field and value are both
// empty ("=").
//
// Errors have the wording of kube-apiserver v1.33, and when several terms
// are wrong the one reported is the one Kubernetes reports (the first in
// sorted order).
func ParseFieldSelector(s string) (FieldSelector, error) {
	terms := splitFieldTerms(s)
	slices.Sort(terms) // Kubernetes checks the terms in this order.
	reqs := make([]FieldRequirement, 0, len(terms))
	for _, term := range terms {
		if term == "" {
			continue
		}
		field, op, raw, ok := splitFieldTerm(term)
		if !ok {
			return FieldSelector{}, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, term)
		}
		value, err := unescapeFieldValue(raw)
		if err != nil {
			return FieldSelector{}, err
		}
		if field == "" && value == "" {
			continue
		}
		reqs = append(reqs, FieldRequirement{Field: field, Operator: op, Value: value})
	}
	return newFieldSelector(reqs), nil
}
