package builtin

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
)

// kube decodes a resource quantity ("500m", "1Gi", 0.5) into a
// resource.Quantity and encodes it again, so what it stores is the
// quantity's canonical text: the value rounded up to a billionth, written
// with the largest suffix of its kind (decimal SI, binary SI or a decimal
// exponent) that keeps the number whole: "0.5" → "500m", "1000" → "1k",
// "1024Mi" → "1Gi", "1.5Gi" → "1536Mi", 1 → "1". Text that is already in
// its canonical form is kept as written (kube keeps the parsed string), so
// "+1" stays "+1".

// maxQuantityText bounds the text canonicalQuantity reads: longer text
// (no real quantity is) is stored as written, so that no request makes kapi
// compute with numbers of thousands of digits.
const maxQuantityText = 128

// quantityComponent is the OpenAPI component of a quantity field.
const quantityComponent = "io.k8s.apimachinery.pkg.api.resource.Quantity"

// quantitySuffix is how a suffix scales the number before it.
type quantitySuffix struct {
	base, exponent int // value × base^exponent
	format         quantityFormat
}

type quantityFormat int

const (
	decimalSI quantityFormat = iota
	binarySI
	decimalExponent
)

var (
	decimalSuffixes = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binarySuffixes  = map[string]int{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
	decimalNames    = map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
	binaryNames     = []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
	bigTen          = big.NewInt(10)
	big1024         = big.NewInt(1024)
	// the largest binary quantity kube holds (larger ones are capped)
	maxBinaryQuantity = new(big.Int).SetUint64(1<<63 - 1)
)

func parseSuffix(s string) (quantitySuffix, bool) {
	if e, ok := decimalSuffixes[s]; ok {
		return quantitySuffix{10, e, decimalSI}, true
	}
	if e, ok := binarySuffixes[s]; ok {
		return quantitySuffix{2, e, binarySI}, true
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		e, err := strconv.ParseInt(s[1:], 10, 32)
		return quantitySuffix{10, int(e), decimalExponent}, err == nil
	}
	return quantitySuffix{}, false
}

// splitQuantity splits a quantity's text into its sign, the digits before
// and after the point (leading zeros dropped), and its suffix.
func splitQuantity(s string) (negative bool, whole, fraction, suffix string, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		negative = s[i] == '-'
		i++
	}
	for i < len(s) && s[i] == '0' {
		i++
	}
	digits := func() string {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return s[start:i]
	}
	whole = digits()
	if whole == "" {
		whole = "0"
	}
	if i < len(s) && s[i] == '.' {
		i++
		fraction = digits()
	}
	suffix = s[i:]
	// a suffix is letters of "eEinumkKMGTP", then an optional sign and digits
	j := 0
	for j < len(suffix) && strings.IndexByte("eEinumkKMGTP", suffix[j]) >= 0 {
		j++
	}
	if j < len(suffix) && (suffix[j] == '-' || suffix[j] == '+') {
		j++
	}
	for j < len(suffix) && suffix[j] >= '0' && suffix[j] <= '9' {
		j++
	}
	return negative, whole, fraction, suffix, j == len(suffix)
}

// canonicalQuantity is the text kube stores for the quantity s; ok is
// false when s is not a quantity (kube refuses it; kapi leaves it be).
func canonicalQuantity(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxQuantityText {
		return "", false
	}
	if s == "0" {
		return s, true
	}
	negative, whole, fraction, suffixText, ok := splitQuantity(s)
	if !ok {
		return "", false
	}
	suffix, ok := parseSuffix(suffixText)
	if !ok {
		return "", false
	}
	if keepsText(whole, fraction, suffix) {
		return s, true
	}

	// The exact value: unscaled × 10^exp10.
	unscaled, ok := new(big.Int).SetString(whole+fraction, 10)
	if !ok {
		return "", false
	}
	exp10 := -len(fraction)
	switch suffix.base {
	case 10:
		exp10 += suffix.exponent
	case 2:
		unscaled.Lsh(unscaled, uint(suffix.exponent))
	}
	// Round up to a billionth: asking for a little of a resource gets some.
	if exp10 < -9 && unscaled.Sign() != 0 {
		if shift := -9 - exp10; shift > len(unscaled.String()) {
			unscaled = big.NewInt(1) // less than a billionth (1e-999999999 computes no power of ten)
		} else {
			q, r := new(big.Int).QuoRem(unscaled, new(big.Int).Exp(bigTen, big.NewInt(int64(shift)), nil), new(big.Int))
			if r.Sign() != 0 {
				q.Add(q, big.NewInt(1))
			}
			unscaled = q
		}
		exp10 = -9
	}
	format := suffix.format
	if format == binarySI {
		if cmpScaled(unscaled, exp10, maxBinaryQuantity) > 0 {
			unscaled, exp10 = new(big.Int).Set(maxBinaryQuantity), 0
		}
		if unscaled.Sign() != 0 && cmpScaled(unscaled, exp10, big.NewInt(1)) < 0 {
			format = decimalSI
		}
	}
	if unscaled.Sign() == 0 {
		return "0", true
	}
	if format == binarySI {
		// Small or fractional binary quantities are written in decimal.
		if cmpScaled(unscaled, exp10, big.NewInt(1024)) < 0 {
			format = decimalSI
		} else if v, whole := integerValue(unscaled, exp10); !whole {
			format = decimalSI
		} else {
			n := 0
			for r := new(big.Int); n < len(binaryNames)-1; n++ {
				q, _ := new(big.Int).QuoRem(v, big1024, r)
				if r.Sign() != 0 {
					break
				}
				v = q
			}
			return sign(negative) + v.String() + binaryNames[n], true
		}
	}
	// Decimal: no trailing zeros, then an exponent that is a multiple of 3.
	for r := new(big.Int); ; {
		q, _ := new(big.Int).QuoRem(unscaled, bigTen, r)
		if r.Sign() != 0 {
			break
		}
		unscaled, exp10 = q, exp10+1
	}
	for exp10%3 != 0 {
		unscaled.Mul(unscaled, bigTen)
		exp10--
	}
	text := sign(negative) + unscaled.String()
	switch {
	case format == decimalExponent && exp10 != 0:
		text += "e" + strconv.Itoa(exp10)
	case format != decimalExponent:
		text += decimalNames[exp10] // kube writes no suffix beyond E
	}
	return text, true
}

// keepsText reports the quantities kube keeps as written: whole numbers in
// small units that are already in their shortest form.
func keepsText(whole, fraction string, suffix quantitySuffix) bool {
	digits := whole + fraction
	value, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return false
	}
	switch suffix.format {
	case binarySI:
		precision := 15 - len(whole) - int(float32(suffix.exponent)*3/10) - 1
		if fraction != "" || suffix.exponent < 0 || precision < 0 || value > (1<<63-1)>>suffix.exponent {
			return false
		}
		return suffix.exponent%10 == 0 && value&7 != 0
	default:
		scale := suffix.exponent - len(fraction)
		if 18-len(digits) < 0 || scale < -9 {
			return false
		}
		return scale%3 == 0 && !strings.HasSuffix(digits, "000") && digits[0] != '0'
	}
}

func sign(negative bool) string {
	if negative {
		return "-"
	}
	return ""
}

// cmpScaled compares unscaled × 10^exp10 with n.
func cmpScaled(unscaled *big.Int, exp10 int, n *big.Int) int {
	if exp10 >= 0 {
		return new(big.Int).Mul(unscaled, new(big.Int).Exp(bigTen, big.NewInt(int64(exp10)), nil)).Cmp(n)
	}
	return unscaled.Cmp(new(big.Int).Mul(n, new(big.Int).Exp(bigTen, big.NewInt(int64(-exp10)), nil)))
}

// integerValue is unscaled × 10^exp10 when it is a whole number.
func integerValue(unscaled *big.Int, exp10 int) (*big.Int, bool) {
	if exp10 >= 0 {
		return new(big.Int).Mul(unscaled, new(big.Int).Exp(bigTen, big.NewInt(int64(exp10)), nil)), true
	}
	q, r := new(big.Int).QuoRem(unscaled, new(big.Int).Exp(bigTen, big.NewInt(int64(-exp10)), nil), new(big.Int))
	return q, r.Sign() == 0
}

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

// canonicalQuantityValue is what kube stores for a quantity field's value
// v; v itself when it is not a quantity.
func canonicalQuantityValue(v any) any {
	text, ok := quantityText(v)
	if !ok {
		return v
	}
	if c, ok := canonicalQuantity(text); ok {
		return c
	}
	return v
}
