package rbac

// labelSelector is a metav1.LabelSelector: every matchLabels pair and every
// matchExpressions requirement must hold; an empty selector matches
// everything; an invalid one (unknown operator) matches nothing.
type labelSelector struct {
	labels  map[string]string
	exprs   []labelExpr
	invalid bool
}

type labelExpr struct {
	key, op string
	values  []string
}

func parseLabelSelector(m map[string]any) labelSelector {
	var s labelSelector
	if ml, ok := m["matchLabels"].(map[string]any); ok {
		s.labels = make(map[string]string, len(ml))
		for k, v := range ml {
			str, ok := v.(string)
			if !ok {
				s.invalid = true
			}
			s.labels[k] = str
		}
	}
	exprs, _ := m["matchExpressions"].([]any)
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		var x labelExpr
		x.key, _ = em["key"].(string)
		x.op, _ = em["operator"].(string)
		x.values = strings_(em["values"])
		switch x.op {
		case "In", "NotIn":
			if len(x.values) == 0 {
				s.invalid = true
			}
		case "Exists", "DoesNotExist":
			if len(x.values) > 0 {
				s.invalid = true
			}
		default:
			s.invalid = true
		}
		s.exprs = append(s.exprs, x)
	}
	return s
}

func (s labelSelector) matches(labels map[string]string) bool {
	if s.invalid {
		return false
	}
	for k, v := range s.labels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, x := range s.exprs {
		v, ok := labels[x.key]
		switch x.op {
		case "In":
			if !ok || !contains(x.values, v) {
				return false
			}
		case "NotIn":
			if ok && contains(x.values, v) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
}
