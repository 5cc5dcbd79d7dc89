package apiserver

import (
	"fmt"
	"strconv"
	"strings"
)

// jsonPath is the subset of Kubernetes JSONPath that printer columns use:
// `.a.b`, `['a.b']`, `[0]`, `[-1]`, `[*]`, `..` is not supported, and
// filters `[?(@.type=="Ready")]` comparing a field with a literal
// (==, !=). An optional surrounding `{...}` is accepted.
type jsonPath []pathStep

type pathStep struct {
	field    string
	index    *int
	wildcard bool
	filter   *pathFilter
}

type pathFilter struct {
	path  jsonPath
	op    string
	value string
}

// parseJSONPath compiles a printer column's jsonPath.
func parseJSONPath(s string) (jsonPath, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	if !strings.HasPrefix(s, ".") && !strings.HasPrefix(s, "[") && !strings.HasPrefix(s, "@") {
		return nil, fmt.Errorf("jsonPath %q must start with '.'", s)
	}
	s = strings.TrimPrefix(s, "@")
	var path jsonPath
	for s != "" {
		switch s[0] {
		case '.':
			s = s[1:]
			end := strings.IndexAny(s, ".[")
			if end < 0 {
				end = len(s)
			}
			if end == 0 {
				return nil, fmt.Errorf("empty field name in jsonPath")
			}
			path = append(path, pathStep{field: s[:end]})
			s = s[end:]
		case '[':
			end := matchingBracket(s)
			if end < 0 {
				return nil, fmt.Errorf("unterminated '[' in jsonPath")
			}
			step, err := parseBracket(s[1:end])
			if err != nil {
				return nil, err
			}
			path = append(path, step)
			s = s[end+1:]
		default:
			return nil, fmt.Errorf("unexpected %q in jsonPath", s[0])
		}
	}
	return path, nil
}

func matchingBracket(s string) int {
	depth, quote := 0, byte(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[':
			depth++
		case c == ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

func parseBracket(inner string) (pathStep, error) {
	inner = strings.TrimSpace(inner)
	switch {
	case inner == "*":
		return pathStep{wildcard: true}, nil
	case len(inner) >= 2 && (inner[0] == '\'' || inner[0] == '"') && inner[len(inner)-1] == inner[0]:
		return pathStep{field: inner[1 : len(inner)-1]}, nil
	case strings.HasPrefix(inner, "?(") && strings.HasSuffix(inner, ")"):
		expr := strings.TrimSpace(inner[2 : len(inner)-1])
		for _, op := range []string{"==", "!="} {
			if lhs, rhs, ok := strings.Cut(expr, op); ok {
				sub, err := parseJSONPath(strings.TrimSpace(lhs))
				if err != nil {
					return pathStep{}, err
				}
				v := strings.TrimSpace(rhs)
				if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
					v = v[1 : len(v)-1]
				}
				return pathStep{filter: &pathFilter{path: sub, op: op, value: v}}, nil
			}
		}
		return pathStep{}, fmt.Errorf("unsupported filter %q in jsonPath", inner)
	}
	n, err := strconv.Atoi(inner)
	if err != nil {
		return pathStep{}, fmt.Errorf("unsupported %q in jsonPath", inner)
	}
	return pathStep{index: &n}, nil
}

// find returns every value the path selects in v.
func (p jsonPath) find(v any) []any {
	cur := []any{v}
	for _, step := range p {
		var next []any
		for _, c := range cur {
			next = step.apply(c, next)
		}
		cur = next
		if len(cur) == 0 {
			return nil
		}
	}
	return cur
}

func (step pathStep) apply(v any, out []any) []any {
	switch {
	case step.field != "":
		if m, ok := v.(map[string]any); ok {
			if f, ok := m[step.field]; ok {
				out = append(out, f)
			}
		}
	case step.index != nil:
		if l, ok := v.([]any); ok {
			i := *step.index
			if i < 0 {
				i += len(l)
			}
			if i >= 0 && i < len(l) {
				out = append(out, l[i])
			}
		}
	case step.wildcard:
		switch c := v.(type) {
		case []any:
			out = append(out, c...)
		case map[string]any:
			for _, e := range c {
				out = append(out, e)
			}
		}
	case step.filter != nil:
		if l, ok := v.([]any); ok {
			for _, e := range l {
				got := step.filter.path.find(e)
				match := len(got) > 0 && fmt.Sprint(got[0]) == step.filter.value
				if step.filter.op == "!=" {
					match = len(got) > 0 && !match
				}
				if match {
					out = append(out, e)
				}
			}
		}
	}
	return out
}
