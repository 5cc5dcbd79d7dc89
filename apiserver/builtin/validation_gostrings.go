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
	"github.com/kapi-dev/kapi/quantity"
)

// How kube's validation messages print values. A field error's value is
// one of kube's Go values; kube 1.33 prints it as Go's %#v does (Go
// syntax), kube 1.34 and later as encoding/json encodes it (JSON): the
// server's release picks (apiserver.Release.ValueStyle). A kubeValue
// carries both; the helpers here build them from the decoded object.

// kubeValue is a Go value of kube's as a field error reports it.
type kubeValue struct {
	goSyntax string // as Go's %#v prints it
	json     string // as encoding/json encodes it
}

// FormatValue prints v in style s.
func (v kubeValue) FormatValue(s meta.ValueStyle) string {
	if s == meta.JSONValues {
		return v.json
	}
	return v.goSyntax
}

func (v kubeValue) String() string { return v.goSyntax }

// jsonText is v as encoding/json encodes it (a map's keys sorted; <, >
// and & escaped); null when it cannot be encoded.
func jsonText(v any) string {
	b, err := json.Marshal(normalizeNumbers(v))
	if err != nil {
		return "null"
	}
	return string(b)
}

// jsonStruct is a struct of kube's internal types as encoding/json
// encodes it: the types have no json tags, so every field, by its Go
// name, in order. fields are name, value pairs; a value is a kubeValue
// (its JSON), a json.RawMessage, or a plain value (jsonText).
func jsonStruct(fields ...any) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := 0; i+1 < len(fields); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := fields[i].(string)
		b.WriteString(strconv.Quote(name))
		b.WriteByte(':')
		b.WriteString(jsonField(fields[i+1]))
	}
	b.WriteByte('}')
	return b.String()
}

func jsonField(v any) string {
	switch t := v.(type) {
	case kubeValue:
		return t.json
	case json.RawMessage:
		return string(t)
	}
	return jsonText(v)
}

// plainName is a value of a named string type with a String method
// (core.ResourceName): 1.33 prints its String(), unquoted; JSON quotes it.
func plainName(s string) kubeValue { return kubeValue{s, jsonText(s)} }

// quantityValue is a resource.Quantity: 1.33 prints its Go struct, JSON
// its canonical text.
func quantityValue(q quantity.Quantity) kubeValue {
	return kubeValue{q.Canonical().GoString(), jsonText(q.String())}
}

// goPointer is how a set pointer field prints inside a Go value; the
// address is kube's process's, so any stands.
func goPointer(typ string, set bool) string {
	if !set {
		return "(" + typ + ")(nil)"
	}
	return "(" + typ + ")(0xc000010000)"
}

// goStrings is a []string.
func goStrings(s []string) kubeValue { return kubeValue{fmt.Sprintf("%#v", s), jsonText(s)} }

func supported(values ...string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "supported values: " + strings.Join(q, ", ")
}

// typedStrings is a []T of strings (T named by typ).
func typedStrings(typ string, v any) kubeValue {
	return kubeValue{goTypedStrings(typ, v), jsonText(stringListOrNil(v))}
}

// stringListOrNil is v's strings, nil when v is no list (JSON's null).
func stringListOrNil(v any) []string {
	list := meta.AsList(v)
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, x := range list {
		out[i], _ = x.(string)
	}
	return out
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
// the object's keys in the order the client wrote them. Its JSON is
// those bytes (null for none), as encoding/json compacts them.
func goRawExtension(v any) kubeValue {
	raw := "[]uint8(nil)"
	if r, ok := v.(meta.RawJSON); ok {
		parts := make([]string, len(r.Raw))
		for i, c := range r.Raw {
			parts[i] = fmt.Sprintf("0x%x", c)
		}
		return kubeValue{"runtime.RawExtension{Raw:[]uint8{" + strings.Join(parts, ", ") + "}, Object:runtime.Object(nil)}", jsonText(json.RawMessage(r.Raw))}
	}
	jsonRaw := "null"
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
			jsonRaw = jsonText(json.RawMessage(b))
		}
	}
	return kubeValue{"runtime.RawExtension{Raw:" + raw + ", Object:runtime.Object(nil)}", jsonRaw}
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

// stringMapValue is a map[string]string.
func stringMapValue(v any) kubeValue {
	m := asMap(v)
	if m == nil {
		return kubeValue{goStringMap(v), "null"}
	}
	return kubeValue{goStringMap(v), jsonText(m)}
}

// labelSelectorValue is a metav1.LabelSelector (its JSON by its json tags:
// empty fields left out).
func labelSelectorValue(v any) kubeValue {
	sel := asMap(v)
	var fields []string
	if m := asMap(sel["matchLabels"]); len(m) > 0 {
		fields = append(fields, `"matchLabels":`+jsonText(m))
	}
	if list := meta.AsList(sel["matchExpressions"]); len(list) > 0 {
		var reqs []string
		for _, r := range list {
			req := asMap(r)
			key, _ := req["key"].(string)
			op, _ := req["operator"].(string)
			text := `{"key":` + jsonText(key) + `,"operator":` + jsonText(op)
			if vs := stringListOrNil(req["values"]); len(vs) > 0 {
				text += `,"values":` + jsonText(vs)
			}
			reqs = append(reqs, text+"}")
		}
		fields = append(fields, `"matchExpressions":[`+strings.Join(reqs, ",")+"]")
	}
	return kubeValue{goLabelSelector(v), "{" + strings.Join(fields, ",") + "}"}
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

// intOrStringValue is an intstr.IntOrString (JSON: the number or the string).
func intOrStringValue(v any) kubeValue {
	if n, ok := meta.AsInt64(v); ok {
		return kubeValue{goIntOrString(v), strconv.FormatInt(n, 10)}
	}
	s, _ := v.(string)
	return kubeValue{goIntOrString(v), jsonText(s)}
}

// goIntOrString renders an intstr.IntOrString as Go's %#v does.
func goIntOrString(v any) string {
	if n, ok := meta.AsInt64(v); ok {
		return fmt.Sprintf("intstr.IntOrString{Type:0, IntVal:%d, StrVal:\"\"}", n)
	}
	s, _ := v.(string)
	return fmt.Sprintf("intstr.IntOrString{Type:1, IntVal:0, StrVal:%q}", s)
}

// volumeNodeAffinityJSON is a core.VolumeNodeAffinity as JSON (kube's
// internal types: Go field names).
func volumeNodeAffinityJSON(v any) string {
	required, ok := asMap(v)["required"].(map[string]any)
	if !ok {
		return jsonStruct("Required", nil)
	}
	var terms []string
	for _, t := range meta.AsList(required["nodeSelectorTerms"]) {
		term := asMap(t)
		terms = append(terms, jsonStruct("MatchExpressions", json.RawMessage(nodeSelectorRequirementsJSON(term["matchExpressions"])),
			"MatchFields", json.RawMessage(nodeSelectorRequirementsJSON(term["matchFields"]))))
	}
	list := "null"
	if terms != nil {
		list = "[" + strings.Join(terms, ",") + "]"
	}
	return jsonStruct("Required", json.RawMessage(jsonStruct("NodeSelectorTerms", json.RawMessage(list))))
}

func nodeSelectorRequirementsJSON(v any) string {
	list := meta.AsList(v)
	if list == nil {
		return "null"
	}
	reqs := make([]string, len(list))
	for i, r := range list {
		req := asMap(r)
		key, _ := req["key"].(string)
		op, _ := req["operator"].(string)
		reqs[i] = jsonStruct("Key", key, "Operator", op, "Values", stringListOrNil(req["values"]))
	}
	return "[" + strings.Join(reqs, ",") + "]"
}

// podTemplateValue is a core.PodTemplateSpec. Go's %#v of the whole
// internal template kapi does not print ({...}); its JSON holds the
// template's metadata inline (ObjectMeta is embedded) by its json tags,
// then "Spec", which kapi does not print either ({...}).
func podTemplateValue(v any) kubeValue {
	md := asMap(asMap(v)["metadata"])
	var fields []string
	for _, k := range []string{"name", "generateName", "namespace", "labels", "annotations", "finalizers"} {
		switch x := md[k].(type) {
		case string:
			if x != "" {
				fields = append(fields, strconv.Quote(k)+":"+jsonText(x))
			}
		case map[string]any, []any:
			if len(meta.AsList(x)) > 0 || len(asMap(x)) > 0 {
				fields = append(fields, strconv.Quote(k)+":"+jsonText(x))
			}
		}
	}
	fields = append(fields, `"Spec":{...}`)
	return kubeValue{"core.PodTemplateSpec{...}", "{" + strings.Join(fields, ",") + "}"}
}
