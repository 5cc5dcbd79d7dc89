package builtin

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	_ "time/tzdata"

	"github.com/kapi-dev/kapi/meta"
)

// How kube's validation messages print values: as Go's %#v and %v
// print the Go types kube validates, so a message reads as kube's does.

// goValue prints as kube prints a Go value in a field error.
type goValue string

func (v goValue) String() string { return string(v) }

// goPointer is how a set pointer field prints inside a Go value; the
// address is kube's process's, so any stands.
func goPointer(typ string, set bool) string {
	if !set {
		return "(" + typ + ")(nil)"
	}
	return "(" + typ + ")(0xc000010000)"
}

// goStrings is a []string as Go's %#v prints it.
func goStrings(s []string) goValue { return goValue(fmt.Sprintf("%#v", s)) }

func supported(values ...string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "supported values: " + strings.Join(q, ", ")
}

// goTypedStrings renders a []T of strings as Go's %#v does.
func goTypedStrings(typ string, v any) string {
	list := meta.AsList(v)
	if list == nil {
		return "[]" + typ + "(nil)"
	}
	parts := make([]string, len(list))
	for i, x := range list {
		s, _ := x.(string)
		parts[i] = strconv.Quote(s)
	}
	return "[]" + typ + "{" + strings.Join(parts, ", ") + "}"
}

// goRawExtension renders a runtime.RawExtension holding v (JSON) as kube's
// messages show one: its bytes as they were decoded. kapi holds the value
// decoded, so the bytes are its compact encoding, keys sorted: kube shows
// the object's keys in the order the client wrote them.
func goRawExtension(v any) goValue {
	raw := "[]uint8(nil)"
	if r, ok := v.(meta.RawJSON); ok {
		parts := make([]string, len(r.Raw))
		for i, c := range r.Raw {
			parts[i] = fmt.Sprintf("0x%x", c)
		}
		return goValue("runtime.RawExtension{Raw:[]uint8{" + strings.Join(parts, ", ") + "}, Object:runtime.Object(nil)}")
	}
	if v != nil {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(normalizeNumbers(v)); err == nil {
			b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			parts := make([]string, len(b))
			for i, c := range b {
				parts[i] = fmt.Sprintf("0x%x", c)
			}
			raw = "[]uint8{" + strings.Join(parts, ", ") + "}"
		}
	}
	return goValue("runtime.RawExtension{Raw:" + raw + ", Object:runtime.Object(nil)}")
}

// decodedBytes is a `format: byte` field as kube holds it: the bytes its
// base64 text decodes to (the schema has refused any other text).
func decodedBytes(v any) []byte {
	s, _ := v.(string)
	b, _ := base64.StdEncoding.DecodeString(s)
	return b
}

// goStringMap renders a map[string]string as Go's %#v does, as kube's
// messages show label maps.
func goStringMap(v any) string {
	m := asMap(v)
	if m == nil {
		return "map[string]string(nil)"
	}
	parts := make([]string, 0, len(m))
	for _, k := range sortedMapKeys(m) {
		s, _ := m[k].(string)
		parts = append(parts, fmt.Sprintf("%q:%q", k, s))
	}
	return "map[string]string{" + strings.Join(parts, ", ") + "}"
}

// goLabelSelector renders a metav1.LabelSelector as Go's %#v does.
func goLabelSelector(v any) string {
	sel := asMap(v)
	exprs := "[]v1.LabelSelectorRequirement(nil)"
	if list := meta.AsList(sel["matchExpressions"]); list != nil {
		var parts []string
		for _, r := range list {
			req := asMap(r)
			values := "[]string(nil)"
			if vs := meta.AsList(req["values"]); vs != nil {
				var q []string
				for _, x := range vs {
					s, _ := x.(string)
					q = append(q, strconv.Quote(s))
				}
				values = "[]string{" + strings.Join(q, ", ") + "}"
			}
			key, _ := req["key"].(string)
			op, _ := req["operator"].(string)
			parts = append(parts, fmt.Sprintf("v1.LabelSelectorRequirement{Key:%q, Operator:%q, Values:%s}", key, op, values))
		}
		exprs = "[]v1.LabelSelectorRequirement{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("v1.LabelSelector{MatchLabels:%s, MatchExpressions:%s}", goStringMap(sel["matchLabels"]), exprs)
}

// goIntOrString renders an intstr.IntOrString as Go's %#v does.
func goIntOrString(v any) string {
	if n, ok := meta.AsInt64(v); ok {
		return fmt.Sprintf("intstr.IntOrString{Type:0, IntVal:%d, StrVal:\"\"}", n)
	}
	s, _ := v.(string)
	return fmt.Sprintf("intstr.IntOrString{Type:1, IntVal:0, StrVal:%q}", s)
}
