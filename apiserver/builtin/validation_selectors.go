package builtin

import (
	"fmt"
	_ "time/tzdata"

	"github.com/kapi-dev/kapi/meta"
	"github.com/kapi-dev/kapi/selectors"
)

// Label selectors, label maps and node selectors, as kube's validation
// checks them (apimachinery's ValidateLabelSelector and ValidateLabels,
// core's node selector and topology terms).

// topologyTerm is kube's ValidateTopologySelectorTerm: each expression has
// values, unique, a label-name key not repeated. It returns the term as a
// key → values set, to compare terms.
func (e *fieldErrs) topologyTerm(path string, term map[string]any) map[string]map[string]bool {
	exprs := map[string]map[string]bool{}
	for i, x := range meta.AsList(term["matchLabelExpressions"]) {
		req := asMap(x)
		p := fmt.Sprintf("%s.matchLabelExpressions[%d]", path, i)
		values := meta.AsList(req["values"])
		if len(values) == 0 {
			e.required(p + ".values")
		}
		set := map[string]bool{}
		for j, v := range values {
			s, _ := v.(string)
			if set[s] {
				e.duplicate(fmt.Sprintf("%s.values[%d]", p, j), s)
			}
			set[s] = true
		}
		key, _ := req["key"].(string)
		e.invalidAll(p+".key", key, selectors.QualifiedNameErrors(key))
		if _, ok := exprs[key]; ok {
			e.duplicate(p+".key", key)
		}
		exprs[key] = set
	}
	return exprs
}

// nodeSelector is kube's ValidateNodeSelector (a volume's node affinity).
func (e *fieldErrs) nodeSelector(path string, sel map[string]any) {
	terms := meta.AsList(sel["nodeSelectorTerms"])
	if len(terms) == 0 {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".nodeSelectorTerms",
			Detail: "must have at least one node selector term"})
		return
	}
	for i, t := range terms {
		term := asMap(t)
		tp := fmt.Sprintf("%s.nodeSelectorTerms[%d]", path, i)
		for j, r := range meta.AsList(term["matchExpressions"]) {
			e.nodeSelectorRequirement(fmt.Sprintf("%s.matchExpressions[%d]", tp, j), asMap(r), true)
		}
		for j, r := range meta.AsList(term["matchFields"]) {
			e.nodeSelectorRequirement(fmt.Sprintf("%s.matchFields[%d]", tp, j), asMap(r), false)
		}
	}
}

// nodeSelectorRequirement is kube's ValidateNodeSelectorRequirement, or
// for matchFields ValidateNodeFieldSelectorRequirement.
func (e *fieldErrs) nodeSelectorRequirement(path string, req map[string]any, labels bool) {
	op, _ := req["operator"].(string)
	values := meta.AsList(req["values"])
	key, _ := req["key"].(string)
	required := func(detail string) {
		e.list = append(e.list, meta.FieldError{Type: meta.ErrorRequired, Field: path + ".values", Detail: detail})
	}
	if !labels {
		if op == "In" || op == "NotIn" {
			if len(values) != 1 {
				required("must be only one value when `operator` is 'In' or 'NotIn' for node field selector")
			}
		} else {
			e.invalid(path+".operator", op, "not a valid selector operator")
		}
		if key != "metadata.name" {
			e.invalid(path+".key", key, "not a valid field selector key")
			return
		}
		for i, v := range values {
			s, _ := v.(string)
			e.dnsSubdomain(fmt.Sprintf("%s.values[%d]", path, i), s)
		}
		return
	}
	switch op {
	case "In", "NotIn":
		if len(values) == 0 {
			required("must be specified when `operator` is 'In' or 'NotIn'")
		}
	case "Exists", "DoesNotExist":
		if len(values) > 0 {
			e.forbidden(path+".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
		}
	case "Gt", "Lt":
		if len(values) != 1 {
			required("must be specified single value when `operator` is 'Lt' or 'Gt'")
		}
	default:
		e.invalid(path+".operator", op, "not a valid selector operator")
	}
	e.invalidAll(path+".key", key, selectors.QualifiedNameErrors(key))
	for i, v := range values {
		s, _ := v.(string)
		e.invalidAll(fmt.Sprintf("%s.values[%d]", path, i), s, selectors.LabelValueErrors(s))
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
	for i, r := range meta.AsList(sel["matchExpressions"]) {
		req := asMap(r)
		p := fmt.Sprintf("%s.matchExpressions[%d]", path, i)
		op, _ := req["operator"].(string)
		values := meta.AsList(req["values"])
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

// selectorMatches reports whether a metav1.LabelSelector (nil: nothing)
// selects labels.
func selectorMatches(sel any, labels any) bool {
	if sel == nil {
		return false
	}
	s, err := selectors.LabelSelectorFromObject(sel)
	if err != nil {
		return false
	}
	l := map[string]string{}
	for k, v := range asMap(labels) {
		l[k], _ = v.(string)
	}
	return s.Matches(l)
}
