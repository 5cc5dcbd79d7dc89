package builtin

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// The checks kube's Go validation (pkg/apis/*/validation) makes that a
// schema cannot, shared by the kinds: pod specs (in every pod template),
// label selectors, ports, enums; with kube's field paths, error types and
// messages. Each kind's Validate and ValidateUpdate (in its own file) call
// them in kube's order, so that several errors come in kube's order too.

// fieldErrs collects field errors.
type fieldErrs struct {
	list meta.FieldErrors
	// release is the kube release whose rules apply where they changed
	// since 1.33; empty means apiserver.DefaultRelease.
	release apiserver.Release
}

func (e *fieldErrs) required(path string) {
	e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path})
}

func (e *fieldErrs) invalid(path string, value any, detail string) {
	e.list = append(e.list, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: value, Detail: detail})
}

func (e *fieldErrs) invalidAll(path string, value any, details []string) {
	for _, d := range details {
		e.invalid(path, value, d)
	}
}

func (e *fieldErrs) forbidden(path, detail string) {
	e.list = append(e.list, meta.FieldError{Type: meta.ErrorForbidden, Field: path, Detail: detail})
}

func (e *fieldErrs) duplicate(path string, value any) {
	e.list = append(e.list, meta.FieldError{Type: meta.ErrorDuplicate, Field: path, Value: value})
}

// notSupported lists the supported values quoted, as kube does.
func (e *fieldErrs) notSupported(path string, value any, supported ...string) {
	quoted := make([]string, len(supported))
	for i, s := range supported {
		quoted[i] = strconv.Quote(s)
	}
	e.list = append(e.list, meta.FieldError{Type: meta.ErrorNotSupported, Field: path, Value: value,
		Detail: "supported values: " + strings.Join(quoted, ", ")})
}

// enum checks an optional enumerated string (kube's NotSupported).
func (e *fieldErrs) enum(path string, v any, supported ...string) {
	s, ok := v.(string)
	if !ok {
		return
	}
	for _, x := range supported {
		if s == x {
			return
		}
	}
	e.notSupported(path, s, supported...)
}

// nonNegative is kube's ValidateNonnegativeField.
func (e *fieldErrs) nonNegative(path string, v any) {
	if n, ok := meta.AsInt64(v); ok && n < 0 {
		e.invalid(path, n, "must be greater than or equal to 0")
	}
}

// portNumber is kube's IsValidPortNum on a set value.
func (e *fieldErrs) portNumber(path string, n int64) {
	if n < 1 || n > 65535 {
		e.invalid(path, n, "must be between 1 and 65535, inclusive")
	}
}

// labels is kube's ValidateLabels: qualified-name keys, label values.
func (e *fieldErrs) labels(path string, v any) {
	m := asMap(v)
	for _, k := range sortedMapKeys(m) {
		e.invalidAll(path, k, selectors.QualifiedNameErrors(k))
		if s, ok := m[k].(string); ok {
			e.invalidAll(path, s, selectors.LabelValueErrors(s))
		}
	}
}

// labelSelector is kube's ValidateLabelSelector: its matchLabels as
// labels, then each expression's operator (and whether it needs values),
// key and values.
func (e *fieldErrs) labelSelector(path string, v any) {
	sel := asMap(v)
	e.labels(path+".matchLabels", sel["matchLabels"])
	for i, r := range asList(sel["matchExpressions"]) {
		req := asMap(r)
		p := fmt.Sprintf("%s.matchExpressions[%d]", path, i)
		op, _ := req["operator"].(string)
		values := asList(req["values"])
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + ".values",
					Detail: "must be specified when `operator` is 'In' or 'NotIn'"})
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				e.forbidden(p+".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		default:
			e.invalid(p+".operator", op, "not a valid selector operator")
		}
		key, _ := req["key"].(string)
		e.invalidAll(p+".key", key, selectors.QualifiedNameErrors(key))
		for j, x := range values {
			if s, ok := x.(string); ok {
				e.invalidAll(fmt.Sprintf("%s.values[%d]", p, j), s, selectors.LabelValueErrors(s))
			}
		}
	}
}

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// selectorMatches reports whether a metav1.LabelSelector (nil: nothing)
// selects labels.
func selectorMatches(sel any, labels any) bool {
	if sel == nil {
		return false
	}
	s, ok := parseLabelSelector(sel)
	if !ok {
		return false
	}
	l := map[string]string{}
	for k, v := range asMap(labels) {
		l[k], _ = v.(string)
	}
	return s.Matches(l)
}

// podTemplate is kube's ValidatePodTemplateSpec for a workload's
// template at path: its labels and annotations, its pod spec.
func (e *fieldErrs) podTemplate(path string, tmpl map[string]any) {
	md := asMap(tmpl["metadata"])
	e.labels(path+".labels", md["labels"])
	for _, k := range sortedMapKeys(asMap(md["annotations"])) {
		e.invalidAll(path+".annotations", k, selectors.QualifiedNameErrors(strings.ToLower(k)))
	}
	e.podSpec(path+".spec", asMap(tmpl["spec"]))
}

// podSpec is the part of kube's ValidatePodSpec users hit: containers
// (required, DNS-label names unique among all containers, images,
// ports, pull policies), restart and DNS policies.
func (e *fieldErrs) podSpec(path string, spec map[string]any) {
	names := map[string]bool{}
	containers := asList(spec["containers"])
	if len(containers) == 0 {
		e.required(path + ".containers")
	}
	for i, c := range containers {
		e.container(fmt.Sprintf("%s.containers[%d]", path, i), asMap(c), names)
		if e.release.AtLeast(35) { // ContainerRestartRules, beta and on by default since 1.35
			e.containerRestartRules(fmt.Sprintf("%s.containers[%d]", path, i), asMap(c))
		}
	}
	for i, c := range asList(spec["initContainers"]) {
		e.container(fmt.Sprintf("%s.initContainers[%d]", path, i), asMap(c), names)
	}
	e.enum(path+".restartPolicy", spec["restartPolicy"], "Always", "OnFailure", "Never")
	e.enum(path+".dnsPolicy", spec["dnsPolicy"], "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	if n, ok := meta.AsInt64(spec["activeDeadlineSeconds"]); ok && n <= 0 {
		e.invalid(path+".activeDeadlineSeconds", n, "must be between 1 and 2147483647, inclusive")
	}
}

// container is kube's validateContainerCommon for what users hit.
func (e *fieldErrs) container(path string, c map[string]any, names map[string]bool) {
	name, _ := c["name"].(string)
	switch {
	case name == "":
		e.required(path + ".name")
	case names[name]:
		e.duplicate(path+".name", name)
	default:
		e.invalidAll(path+".name", name, schema.DNS1123Label(name))
	}
	names[name] = true
	image, _ := c["image"].(string)
	if image == "" {
		e.required(path + ".image")
	} else if strings.TrimSpace(image) != image {
		e.invalid(path+".image", image, "must not have leading or trailing whitespace")
	}
	for j, p := range asList(c["ports"]) {
		e.containerPort(fmt.Sprintf("%s.ports[%d]", path, j), asMap(p))
	}
	e.enum(path+".imagePullPolicy", c["imagePullPolicy"], "Always", "IfNotPresent", "Never")
}

func (e *fieldErrs) containerPort(path string, p map[string]any) {
	if name, _ := p["name"].(string); name != "" {
		e.invalidAll(path+".name", name, portNameErrors(name))
	}
	if n, _ := meta.AsInt64(p["containerPort"]); n == 0 {
		e.required(path + ".containerPort")
	} else {
		e.portNumber(path+".containerPort", n)
	}
	if n, ok := meta.AsInt64(p["hostPort"]); ok && n != 0 {
		e.portNumber(path+".hostPort", n)
	}
	e.protocol(path+".protocol", p["protocol"])
}

func (e *fieldErrs) protocol(path string, v any) {
	if s, ok := v.(string); ok && s == "" {
		e.required(path)
		return
	}
	e.enum(path, v, "SCTP", "TCP", "UDP")
}

var portNameRE = regexp.MustCompile(`^[-a-z0-9]+$`)

// portNameErrors is kube's IsValidPortName.
func portNameErrors(name string) []string {
	var msgs []string
	if len(name) > 15 {
		msgs = append(msgs, "must be no more than 15 characters")
	}
	if !portNameRE.MatchString(name) {
		msgs = append(msgs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !strings.ContainsAny(name, "abcdefghijklmnopqrstuvwxyz") {
		msgs = append(msgs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(name, "--") {
		msgs = append(msgs, "must not contain consecutive hyphens")
	}
	if len(name) > 0 && (name[0] == '-' || name[len(name)-1] == '-') {
		msgs = append(msgs, "must not begin or end with a hyphen")
	}
	return msgs
}

// portNumOrName is kube's ValidatePortNumOrName (a target port).
func (e *fieldErrs) portNumOrName(path string, v any) {
	if n, ok := meta.AsInt64(v); ok {
		e.portNumber(path, n)
		return
	}
	if s, ok := v.(string); ok {
		if s == "" {
			e.required(path)
			return
		}
		e.invalidAll(path, s, portNameErrors(s))
	}
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
	if list := asList(sel["matchExpressions"]); list != nil {
		var parts []string
		for _, r := range list {
			req := asMap(r)
			values := "[]string(nil)"
			if vs := asList(req["values"]); vs != nil {
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

var percentRE = regexp.MustCompile(`^[0-9]+%$`)

func percentOver100(s string) bool {
	if !percentRE.MatchString(s) {
		return false
	}
	n, _ := strconv.Atoi(strings.TrimSuffix(s, "%"))
	return n > 100
}

// equalJSON compares two decoded JSON values.
func equalJSON(a, b any) bool { return reflect.DeepEqual(normalizeNumbers(a), normalizeNumbers(b)) }

// normalizeNumbers makes every number an int64 or float64 so values
// decoded by different decoders compare.
func normalizeNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = normalizeNumbers(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = normalizeNumbers(x)
		}
		return out
	}
	if n, ok := meta.AsInt64(v); ok {
		return n
	}
	return v
}
