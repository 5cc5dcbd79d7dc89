package builtin

import (
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	_ "time/tzdata"

	"github.com/kapi-dev/kapi/apiserver"
	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/schema"
	"github.com/kapi-dev/kapi/selectors"
)

// The checks kube's Go validation (pkg/apis/*/validation) makes that a
// schema cannot, with kube's field paths, error types and messages: field
// errors (fieldErrs) and the generic checks every kind uses (enums,
// non-negative numbers, int-or-percent values, immutability,
// metav1.Conditions). What they check has a file each: pod specs
// (validation_podspec.go), selectors and labels (validation_selectors.go),
// ports, names, IPs, resources, workloads (validation_*.go), quantities
// (quantity.go), and how kube's messages print values
// (validation_gostrings.go). Each kind's Validate and ValidateUpdate (in
// its own <group>_<kind>_validation.go) call them in kube's order, so that
// several errors come in kube's order too.

// fieldErrs collects field errors.
type fieldErrs struct {
	list meta.FieldErrors
	// release is the kube release whose rules apply where they changed
	// since 1.33; empty means apiserver.DefaultRelease.
	release apiserver.Release
	// declared are the errors of kube 1.37's declarative validation, which
	// come after the others (all).
	declared meta.FieldErrors
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

func sortedMapKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
	case meta.RawJSON:
		return normalizeNumbers(t.Value)
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

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// immutable is kube's ValidateImmutableField: shown is how kube's message
// renders the new value.
func (e *fieldErrs) immutable(path string, next, old any, shown any) {
	if !equalJSON(next, old) {
		e.invalid(path, shown, "field is immutable")
	}
}

// declarativeImmutable is immutable for a field whose immutability kube
// 1.37 checks by a declarative rule (+k8s:immutable), which reports the
// change with no value (null) after the kind's other errors; before, with
// shown, in turn (1.36 has the rules as alpha ones, which its handwritten
// validation shadows).
func (e *fieldErrs) declarativeImmutable(path string, next, old any, shown any) {
	if !e.release.AtLeast(37) {
		e.immutable(path, next, old, shown)
		return
	}
	if !equalJSON(next, old) {
		e.declared = append(e.declared, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: nil, Detail: "field is immutable"})
	}
}

// declarativeRequired is required for a field kube 1.37 requires by a
// declarative rule (+required), reported after the kind's other errors.
func (e *fieldErrs) declarativeRequired(path string) {
	if !e.release.AtLeast(37) {
		e.required(path)
		return
	}
	e.declared = append(e.declared, meta.FieldError{Type: meta.ErrorRequired, Field: path})
}

// declarativeInvalid is invalid, reported as kube 1.37's declarative
// validation does (after the kind's other errors) when declarative.
func (e *fieldErrs) declarativeInvalid(declarative bool, path string, value any, detail string) {
	if !declarative {
		e.invalid(path, value, detail)
		return
	}
	e.declared = append(e.declared, meta.FieldError{Type: meta.ErrorInvalid, Field: path, Value: value, Detail: detail})
}

// all is the errors in kube's order: the kind's handwritten validation's,
// then its declarative validation's (kube 1.37 appends those).
func (e *fieldErrs) all() meta.FieldErrors {
	if len(e.declared) == 0 {
		return e.list
	}
	return append(e.list[:len(e.list):len(e.list)], e.declared...)
}

// schemaEdited returns a copy of s in which the node at path (property
// names; "[]" for a list's items) is edited, sharing everything else: for
// a kind whose kube validation differs from what its published schema
// says (a field kube defaults instead of requiring, an enum kube checks
// at another path). nil when the path is not in s. The copies share what
// parsing derived (the type check, patterns, property names): an edit may
// change Required, Enum and the like, or replace the node by another
// parsed schema, never its Type or its properties.
func schemaEdited(s *schema.Schema, path []string, edit func(*schema.Schema)) *schema.Schema {
	if s == nil {
		return nil
	}
	cp := *s
	if len(path) == 0 {
		edit(&cp)
		return &cp
	}
	if path[0] == "[]" {
		if cp.Items = schemaEdited(s.Items, path[1:], edit); cp.Items == nil {
			return nil
		}
		return &cp
	}
	child := schemaEdited(s.Properties[path[0]], path[1:], edit)
	if child == nil {
		return nil
	}
	cp.Properties = make(map[string]*schema.Schema, len(s.Properties))
	for k, v := range s.Properties {
		cp.Properties[k] = v
	}
	cp.Properties[path[0]] = child
	return &cp
}

// positiveIntOrPercent is kube's ValidatePositiveIntOrPercent and
// IsNotMoreThan100Percent: a non-negative integer or a percentage up to
// 100%, the value printed as kube prints an intstr.IntOrString.
func (e *fieldErrs) positiveIntOrPercent(path string, v any) {
	if n, ok := meta.AsInt64(v); ok {
		e.nonNegative(path, n)
		return
	}
	s, ok := v.(string)
	if !ok {
		return
	}
	if !percentRE.MatchString(s) {
		e.invalid(path, intOrStringValue(s), "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')")
		return
	}
	if percentOver100(s) {
		e.invalid(path, intOrStringValue(s), "must not be greater than 100%")
	}
}

var conditionReasonRE = regexp.MustCompile(`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`)

// conditions is kube's ValidateConditions of metav1.Conditions: unique,
// qualified-name types, a known status, a transition time and a reason.
func (e *fieldErrs) conditions(path string, v any) {
	seen := map[string]bool{}
	for i, c := range meta.AsList(v) {
		cond := asMap(c)
		p := fmt.Sprintf("%s[%d]", path, i)
		typ, _ := cond["type"].(string)
		if seen[typ] {
			e.duplicate(p+".type", typ)
		}
		seen[typ] = true
		e.invalidAll(p+".type", typ, selectors.QualifiedNameErrors(typ))
		status, _ := cond["status"].(string)
		if status != "True" && status != "False" && status != "Unknown" {
			e.notSupported(p+".status", status, "False", "True", "Unknown")
		}
		if n, ok := meta.AsInt64(cond["observedGeneration"]); ok && n < 0 {
			e.invalid(p+".observedGeneration", n, "must be greater than or equal to zero")
		}
		mustBeSet := "must be set" // apimachinery 0.34 dropped the detail
		if e.release.AtLeast(34) {
			mustBeSet = ""
		}
		if t, _ := cond["lastTransitionTime"].(string); t == "" {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + ".lastTransitionTime", Detail: mustBeSet})
		}
		reason, _ := cond["reason"].(string)
		switch {
		case reason == "":
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: p + ".reason", Detail: mustBeSet})
		case !conditionReasonRE.MatchString(reason):
			e.invalid(p+".reason", reason, "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')")
		}
		if len(reason) > 1024 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: p + ".reason", Detail: "may not be more than 1024 bytes"})
		}
		if m, _ := cond["message"].(string); len(m) > 32*1024 {
			e.list = append(e.list, meta.FieldError{Type: meta.ErrorTooLong, Field: p + ".message", Detail: "may not be more than 32768 bytes"})
		}
	}
}
