package builtin

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/kapi-dev/kapi/quantity"
)

// kube decodes a resource quantity ("500m", "1Gi", 0.5) into a
// resource.Quantity and encodes it again, so what it stores is the
// quantity's canonical text (package quantity's String).

// maxQuantityText bounds the text parseQuantity reads: longer text (no
// real quantity is) is stored as written, so that no request makes kapi
// compute with numbers of thousands of digits.
const maxQuantityText = 128

// quantityComponent is the OpenAPI component of a quantity field.
const quantityComponent = "io.k8s.apimachinery.pkg.api.resource.Quantity"

// quantityText is a quantity field's value as text: a JSON number is a
// quantity too (`cpu: 1`).
func quantityText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case json.Number:
		return x.String(), true
	}
	return "", false
}

// parseQuantity reads a quantity field's value as kube's JSON decoding
// does (spaces trimmed); ok is false when it is not a quantity (kube
// refuses it; the schema reports that).
func parseQuantity(v any) (quantity.Quantity, bool) {
	text, ok := quantityText(v)
	if text = strings.TrimSpace(text); !ok || len(text) > maxQuantityText {
		return quantity.Quantity{}, false
	}
	q, err := quantity.Parse(text)
	return q, err == nil
}

// canonicalQuantity is the text kube stores for the quantity s.
func canonicalQuantity(s string) (string, bool) {
	q, ok := parseQuantity(s)
	if !ok {
		return "", false
	}
	return q.String(), true
}

// canonicalQuantityValue is what kube stores for a quantity field's value
// v; v itself when it is not a quantity.
func canonicalQuantityValue(v any) any {
	if q, ok := parseQuantity(v); ok {
		return q.String()
	}
	return v
}

// negativeQuantity reports whether a quantity field's value is below zero.
func negativeQuantity(v any) bool {
	q, ok := parseQuantity(v)
	return ok && q.Sign() < 0
}
