package policy

import (
	"fmt"
	"slices"
	"strings"
)

// LabelSelector is a metav1.LabelSelector: every matchLabels pair and
// every matchExpressions requirement must hold. The zero value (and an
// empty selector) matches everything.
type LabelSelector struct {
	labels map[string]string
	exprs  []labelExpr
}

type labelExpr struct {
	key, op string
	values  []string
}

// ParseLabelSelector reads a JSON-shaped metav1.LabelSelector (nil: match
// everything), with kube's messages for what it refuses.
func ParseLabelSelector(v any) (LabelSelector, error) {
	var s LabelSelector
	m, _ := v.(map[string]any)
	if m == nil {
		return s, nil
	}
	if ml, ok := m["matchLabels"].(map[string]any); ok {
		s.labels = make(map[string]string, len(ml))
		for k, v := range ml {
			str, _ := v.(string)
			s.labels[k] = str
		}
	}
	exprs, _ := m["matchExpressions"].([]any)
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		var x labelExpr
		x.key, _ = em["key"].(string)
		x.op, _ = em["operator"].(string)
		for _, v := range asList(em["values"]) {
			if str, ok := v.(string); ok {
				x.values = append(x.values, str)
			}
		}
		switch x.op {
		case "In", "NotIn":
			if len(x.values) == 0 {
				return s, fmt.Errorf("for 'in', 'notin' operators, values set can't be empty")
			}
		case "Exists", "DoesNotExist":
			if len(x.values) > 0 {
				return s, fmt.Errorf("values set must be empty for exists and does not exist")
			}
		default:
			return s, fmt.Errorf("%q is not a valid label selector operator", x.op)
		}
		s.exprs = append(s.exprs, x)
	}
	return s, nil
}

// Empty reports whether the selector matches everything.
func (s LabelSelector) Empty() bool { return len(s.labels) == 0 && len(s.exprs) == 0 }

// Matches reports whether labels satisfy the selector.
func (s LabelSelector) Matches(labels map[string]string) bool {
	for k, v := range s.labels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, x := range s.exprs {
		v, ok := labels[x.key]
		switch x.op {
		case "In":
			if !ok || !slices.Contains(x.values, v) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(x.values, v) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
}

// String is the selector in kube's text form.
func (s LabelSelector) String() string {
	var parts []string
	for k, v := range s.labels {
		parts = append(parts, k+"="+v)
	}
	for _, x := range s.exprs {
		switch x.op {
		case "Exists":
			parts = append(parts, x.key)
		case "DoesNotExist":
			parts = append(parts, "!"+x.key)
		default:
			parts = append(parts, fmt.Sprintf("%s %s (%s)", x.key, strings.ToLower(x.op), strings.Join(x.values, ",")))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// labelsOf reads an object's metadata.labels.
func labelsOf(obj map[string]any) map[string]string {
	md, _ := obj["metadata"].(map[string]any)
	l, _ := md["labels"].(map[string]any)
	if len(l) == 0 {
		return nil
	}
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[k], _ = v.(string)
	}
	return out
}

func asList(v any) []any { l, _ := v.([]any); return l }

func asMaps(v any) []map[string]any {
	var out []map[string]any
	for _, e := range asList(v) {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }

func strs(v any) []string {
	var out []string
	for _, e := range asList(v) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
