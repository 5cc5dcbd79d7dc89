package policy

import "github.com/kapi-dev/kapi/selectors"

// LabelSelector is a metav1.LabelSelector as package selectors reads it
// (selectors.LabelSelectorFromObject). The zero value selects everything.
type LabelSelector = selectors.LabelSelector

// ParseLabelSelector reads a JSON-shaped metav1.LabelSelector (nil: match
// everything), with kube's messages for what it refuses.
func ParseLabelSelector(v any) (LabelSelector, error) {
	if _, ok := v.(map[string]any); !ok {
		return selectors.EverythingLabels(), nil
	}
	return selectors.LabelSelectorFromObject(v)
}

// labelsOf reads an object's metadata.labels.
func labelsOf(obj map[string]any) map[string]string {
	md, _ := obj["metadata"].(map[string]any)
	l, _ := md["labels"].(map[string]any)
	if len(l) == 0 {
		return nil
	}
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[k], _ = v.(string)
	}
	return out
}

func str(m map[string]any, k string) string { s, _ := m[k].(string); return s }
