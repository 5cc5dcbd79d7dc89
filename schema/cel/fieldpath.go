package cel

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kapi-dev/kapi/schema"
)

// ValidFieldPath checks a rule's fieldPath against the node's schema and
// returns it normalized as kube prints field paths: ".spec.x" is
// "spec.x", ".labels['a.b']" is "labels[a.b]". Only property and map key
// accessors are allowed, with single-quoted keys in brackets.
func ValidFieldPath(path string, s *schema.Schema) (string, error) {
	toks, err := fieldPathTokens(path)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	appendName := func(name string) error {
		if s.Properties != nil {
			prop, ok := s.Properties[name]
			if !ok {
				return errors.New("does not refer to a valid field")
			}
			if out.Len() > 0 {
				out.WriteByte('.')
			}
			out.WriteString(name)
			s = prop
			return nil
		}
		if s.AdditionalProperties != nil {
			out.WriteString("[" + name + "]")
			s = s.AdditionalPropertiesSchema()
			if s == nil {
				s = &schema.Schema{}
			}
			return nil
		}
		return errors.New("does not refer to a valid field")
	}
	for i := 0; i < len(toks); i++ {
		switch toks[i] {
		case "[":
			if i+2 >= len(toks) {
				return "", errors.New("unexpected end of JSON path")
			}
			q := toks[i+1]
			if len(q) < 2 || q[0] != '\'' || q[len(q)-1] != '\'' {
				return "", fmt.Errorf("expected single quoted string but got %s", q)
			}
			name, err := unescapeSingleQuoted(q[1 : len(q)-1])
			if err != nil {
				return "", fmt.Errorf("invalid string literal: %w", err)
			}
			if err := appendName(name); err != nil {
				return "", err
			}
			if toks[i+2] != "]" {
				return "", fmt.Errorf("expected ] but got %s", toks[i+2])
			}
			i += 2
		case ".":
			if i+1 >= len(toks) {
				return "", errors.New("unexpected end of JSON path")
			}
			if err := appendName(toks[i+1]); err != nil {
				return "", err
			}
			i++
		default:
			return "", fmt.Errorf("expected [ or . but got: %s", toks[i])
		}
	}
	return out.String(), nil
}

// fieldPathTokens splits a path into ".", "[", "]", quoted strings and
// names.
func fieldPathTokens(path string) ([]string, error) {
	var toks []string
	for i := 0; i < len(path); {
		switch c := path[i]; {
		case c == '\'':
			j := i + 1
			for j < len(path) && !(path[j] == '\'' && path[j-1] != '\\') {
				j++
			}
			if j >= len(path) {
				toks = append(toks, path[i:])
				return toks, nil
			}
			toks = append(toks, path[i:j+1])
			i = j + 1
		case c == '.' || c == '[' || c == ']':
			toks = append(toks, string(c))
			i++
		default:
			j := i
			for j < len(path) && !strings.ContainsRune(".[]", rune(path[j])) {
				j++
			}
			toks = append(toks, path[i:j])
			i = j
		}
	}
	return toks, nil
}

func unescapeSingleQuoted(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\'':
			b.WriteByte('\'')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", fmt.Errorf("invalid escape char \\%c", s[i])
		}
	}
	return b.String(), nil
}
