package builtin

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// The Table columns kube-apiserver's built-in printers show for these kinds
// (kubectl get, and -o wide for priority 1).

func column(name, typ, description string, priority int32, cell func(meta.Object, time.Time) any) apiserver.PrinterColumn {
	return apiserver.PrinterColumn{Name: name, Type: typ, Description: description, Priority: priority, Cell: cell}
}

func field(o meta.Object, path ...string) any {
	v, _ := meta.NestedField(o, path...)
	return v
}

func str(o meta.Object, path ...string) string {
	s, _ := field(o, path...).(string)
	return s
}

func count(v any) int64 {
	switch c := v.(type) {
	case map[string]any:
		return int64(len(c))
	case []any:
		return int64(len(c))
	}
	return 0
}

func integer(o meta.Object, path ...string) int64 {
	n, _ := meta.AsInt64(field(o, path...))
	return n
}

func containerField(o meta.Object, name string) string {
	var out []string
	for _, c := range asList(field(o, "spec", "template", "spec", "containers")) {
		if m, ok := c.(map[string]any); ok {
			s, _ := m[name].(string)
			out = append(out, s)
		}
	}
	return strings.Join(out, ",")
}

func selectorString(v any) string {
	m, _ := v.(map[string]any)
	if len(m) == 0 {
		return "<none>"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m[k])
	}
	return strings.Join(parts, ",")
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// labelSelectorString renders a metav1.LabelSelector (matchLabels and
// matchExpressions) in the string form kube's scale subresources report:
// requirements sorted by key, values sorted ("app=d,tier in (api,web),!x").
// A selector that does not parse renders as "".
func labelSelectorString(v any) string {
	sel, _ := v.(map[string]any)
	var parts []string
	for k, val := range asMap(sel["matchLabels"]) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, val))
	}
	for _, e := range asList(sel["matchExpressions"]) {
		m, _ := e.(map[string]any)
		key, _ := m["key"].(string)
		var values []string
		for _, v := range asList(m["values"]) {
			s, _ := v.(string)
			values = append(values, s)
		}
		switch m["operator"] {
		case "In":
			parts = append(parts, fmt.Sprintf("%s in (%s)", key, strings.Join(values, ",")))
		case "NotIn":
			parts = append(parts, fmt.Sprintf("%s notin (%s)", key, strings.Join(values, ",")))
		case "Exists":
			parts = append(parts, key)
		case "DoesNotExist":
			parts = append(parts, "!"+key)
		}
	}
	parsed, err := selectors.ParseLabelSelector(strings.Join(parts, ","))
	if err != nil {
		return ""
	}
	return parsed.String()
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}
