package builtin

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
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

// Most of kube's printers describe a column by the documentation of the
// API field it shows, which changes from release to release. Such a
// column's description is written as a reference, propertyDoc or
// sinceRelease, that buildResources resolves against the release it
// builds (describeColumns): once per release, never per server.

// docRef starts a description that is a reference to resolve.
const docRef = "\x00doc\x00"

// propertyDoc describes a column by the description of a property of an
// OpenAPI component (e.g. "io.k8s.api.apps.v1.DaemonSetStatus",
// "numberReady") in the served release's components, as kube's printers
// use the API type's SwaggerDoc (the enum values the OpenAPI description
// appends are not part of it).
func propertyDoc(component, property string) string {
	return docRef + "property\x00" + component + "\x00" + property
}

// sinceRelease is the description from, a propertyDoc or text, from minor
// release 1.minor on, and before in the releases before it: text kube
// worded otherwise then, or took from a version of the API type kapi does
// not publish.
func sinceRelease(minor int, before, from string) string {
	if strings.Contains(before, "\x00") {
		panic("builtin: sinceRelease's earlier description must be text")
	}
	return docRef + "since\x00" + strconv.Itoa(minor) + "\x00" + before + "\x00" + from
}

// describeColumns returns cols with their descriptions as release r has
// them; cols itself, shared by every release, is never changed.
func describeColumns(r apiserver.Release, cols []apiserver.PrinterColumn) []apiserver.PrinterColumn {
	var out []apiserver.PrinterColumn
	for i, c := range cols {
		if !strings.HasPrefix(c.Description, docRef) {
			continue
		}
		if out == nil {
			out = slices.Clone(cols)
		}
		out[i].Description = describe(r, c.Description)
	}
	if out == nil {
		return cols
	}
	return out
}

// describe resolves a description written by propertyDoc or sinceRelease
// for release r. It panics on a reference r's components do not resolve:
// a mistake in kapi's own columns, which the tests build every release's
// columns to catch.
func describe(r apiserver.Release, d string) string {
	ref, ok := strings.CutPrefix(d, docRef)
	if !ok {
		return d
	}
	kind, rest, _ := strings.Cut(ref, "\x00")
	switch kind {
	case "property":
		component, property, _ := strings.Cut(rest, "\x00")
		c, _ := OpenAPIComponentsFor(r)[component].(map[string]any)
		props, _ := c["properties"].(map[string]any)
		p, ok := props[property].(map[string]any)
		if !ok {
			panic(fmt.Sprintf("builtin: release %s has no component property %s %s to describe a column", r, component, property))
		}
		text, _ := p["description"].(string)
		text, _, _ = strings.Cut(text, "\n\nPossible enum values:")
		return text
	case "since":
		minor, rest, _ := strings.Cut(rest, "\x00")
		before, from, _ := strings.Cut(rest, "\x00")
		n, _ := strconv.Atoi(minor)
		if r.AtLeast(n) {
			return describe(r, from)
		}
		return before
	}
	panic(fmt.Sprintf("builtin: unknown column description reference %q", d))
}

// containersColumn and imagesColumn are the Containers and Images columns
// of every kind that holds a pod template, at podSpec's path.
func containersColumn(priority int32, podSpec ...string) apiserver.PrinterColumn {
	return column("Containers", "string", "Names of each container in the template.", priority,
		func(o meta.Object, _ time.Time) any { n, _ := containerCells(field(o, podSpec...)); return n })
}

func imagesColumn(priority int32, podSpec ...string) apiserver.PrinterColumn {
	return column("Images", "string", "Images referenced by each container in the template.", priority,
		func(o meta.Object, _ time.Time) any { _, i := containerCells(field(o, podSpec...)); return i })
}

func field(o meta.Object, path ...string) any {
	v, _ := meta.NestedField(o, path...)
	return v
}

func str(o meta.Object, path ...string) string { return meta.AsString(field(o, path...)) }

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
	for _, c := range meta.AsList(field(o, "spec", "template", "spec", "containers")) {
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
	sel, err := selectors.LabelSelectorFromObject(v)
	if err != nil {
		return ""
	}
	return sel.String()
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// formatLabelSelector is labelSelectorString with "<none>" for empty, as
// kube's FormatLabelSelector prints.
func formatLabelSelector(v any) string {
	if s := labelSelectorString(v); s != "" {
		return s
	}
	return "<none>"
}

// containerCells are the Containers and Images cells of a pod spec:
// names and images joined by commas.
func containerCells(podSpec any) (names, images string) {
	spec, _ := podSpec.(map[string]any)
	var n, im []string
	for _, c := range meta.AsList(spec["containers"]) {
		m, _ := c.(map[string]any)
		name, _ := m["name"].(string)
		image, _ := m["image"].(string)
		n, im = append(n, name), append(im, image)
	}
	return strings.Join(n, ","), strings.Join(im, ",")
}

// since is the age of a timestamp as kube's printers show it, "<unknown>"
// for none.
func since(ts string, now time.Time) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if ts == "" || err != nil {
		return "<unknown>"
	}
	return apiserver.HumanDuration(now.Sub(t))
}

// boolPtr prints an optional boolean as kube's printBoolPtr: True, False
// or <unset>.
func boolPtr(v any) string {
	switch v {
	case true:
		return "True"
	case false:
		return "False"
	}
	return "<unset>"
}

// flag reads an optional boolean, def when unset.
func flag(v any, def bool) bool {
	if b, ok := v.(bool); ok {
		return b
	}
	return def
}

// intOrString prints an IntOrString as kube does: the number or the string.
func intOrString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	n, _ := meta.AsInt64(v)
	return fmt.Sprint(n)
}

// listWithMore joins up to max items and counts the rest, as kube's
// printers list addresses and ports: "a,b,c + 2 more...", "<unset>" when
// empty.
func listWithMore(list []string, max int) string {
	if len(list) > max {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:max], ","), len(list)-max)
	}
	if len(list) == 0 {
		return "<unset>"
	}
	return strings.Join(list, ",")
}

// ageColumn is the Age column under the name some printers give it.
func ageColumn(name string) apiserver.PrinterColumn {
	c := apiserver.AgeColumn()
	c.Name = name
	return c
}

// quantityString prints a resource quantity as its cell: the string, "0"
// for none.
func quantityString(v any) string {
	if v == nil {
		return "0"
	}
	return intOrString(v)
}

func stringOr(v any, def string) string {
	if s, ok := v.(string); ok {
		return s
	}
	return def
}

func stringList(v any) []string {
	var out []string
	for _, s := range meta.AsList(v) {
		str, _ := s.(string)
		out = append(out, str)
	}
	return out
}
