package selectors

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// LabelSelectorFromObject is kube's metav1.LabelSelectorAsSelector for a
// metav1.LabelSelector in its JSON form as decoded into map[string]any
// (matchLabels a map of strings; matchExpressions a list of key, operator
// and values): a value that is not an object selects nothing, one with
// neither matchLabels nor matchExpressions everything; otherwise every
// matchLabels pair and every expression must hold. An unknown operator,
// values for Exists or DoesNotExist, none for In or NotIn, and an invalid
// key or value are errors with kube's messages.
func LabelSelectorFromObject(v any) (LabelSelector, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return NothingLabels(), nil
	}
	matchLabels, _ := m["matchLabels"].(map[string]any)
	exprs, _ := m["matchExpressions"].([]any)
	if len(matchLabels)+len(exprs) == 0 {
		return EverythingLabels(), nil
	}
	reqs := make([]LabelRequirement, 0, len(matchLabels)+len(exprs))
	for _, k := range slices.Sorted(maps.Keys(matchLabels)) {
		s, ok := matchLabels[k].(string)
		if !ok {
			return LabelSelector{}, fmt.Errorf("matchLabels[%s]: not a string", k)
		}
		r, err := objectRequirement(k, Equals, []string{s})
		if err != nil {
			return LabelSelector{}, err
		}
		reqs = append(reqs, r)
	}
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		key, _ := em["key"].(string)
		var op Operator
		switch o, _ := em["operator"].(string); o {
		case "In":
			op = In
		case "NotIn":
			op = NotIn
		case "Exists":
			op = Exists
		case "DoesNotExist":
			op = DoesNotExist
		default:
			return LabelSelector{}, fmt.Errorf("%q is not a valid label selector operator", o)
		}
		list, _ := em["values"].([]any)
		values := make([]string, 0, len(list))
		for _, v := range list {
			s, _ := v.(string)
			values = append(values, s)
		}
		r, err := objectRequirement(key, op, values)
		if err != nil {
			return LabelSelector{}, err
		}
		reqs = append(reqs, r)
	}
	slices.SortFunc(reqs, compareLabelRequirements)
	return LabelSelector{reqs: reqs}, nil
}

// objectRequirement is kube's labels.NewRequirement with no field path: the
// key, the number of values the operator takes, then the values.
func objectRequirement(key string, op Operator, values []string) (LabelRequirement, error) {
	var errs []string
	if msgs := labelKeyErrors(key); len(msgs) > 0 {
		errs = append(errs, invalidValue("key", key, strings.Join(msgs, "; ")))
	}
	switch {
	case (op == In || op == NotIn) && len(values) == 0:
		errs = append(errs, "values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty")
	case (op == Exists || op == DoesNotExist) && len(values) > 0:
		errs = append(errs, "values: Invalid value: "+goStrings(values)+": values set must be empty for exists and does not exist")
	}
	for i, v := range values {
		if msgs := labelValueErrors(v); len(msgs) > 0 {
			errs = append(errs, invalidValue("values["+strconv.Itoa(i)+"]["+key+"]", v, strings.Join(msgs, "; ")))
		}
	}
	switch len(errs) {
	case 0:
		slices.Sort(values)
		return LabelRequirement{key: key, op: op, values: slices.Compact(values)}, nil
	case 1:
		return LabelRequirement{}, errors.New(errs[0])
	default:
		return LabelRequirement{}, errors.New("[" + strings.Join(errs, ", ") + "]")
	}
}

// goStrings is a []string as Go's %#v prints it, as kube's messages show it.
func goStrings(values []string) string { return fmt.Sprintf("%#v", values) }
