package builtin

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	_ "time/tzdata"
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

// quantity is a parsed resource.Quantity: its exact value, and what kube's
// parser keeps of it (shown when kube prints the Go value).
type quantity struct {
	text  string   // canonical text (resource.Quantity's String())
	value *big.Rat // exact value
	goRep string   // the Go value kube prints (%#v of a resource.Quantity)
	// goShown is goRep once the quantity's String() has cached its text,
	// as kube prints a quantity whose text its message also shows.
	goShown string
}

// parseQuantity reads a quantity field's value; ok is false when it is
// not a quantity (the schema reports that).
func parseQuantity(v any) (quantity, bool) {
	raw, ok := quantityText(v)
	if !ok {
		return quantity{}, false
	}
	raw = strings.TrimSpace(raw)
	canonical, ok := canonicalQuantity(raw)
	if !ok {
		return quantity{}, false
	}
	if raw == "0" {
		rep := goQuantityFields(0, 0, "0", "DecimalSI")
		return quantity{text: "0", value: new(big.Rat), goRep: rep, goShown: rep}, true
	}
	negative, whole, fraction, suffixText, _ := splitQuantity(raw)
	suffix, _ := parseSuffix(suffixText)
	num := strings.TrimLeft(whole, "0")
	if num == "" {
		num = "0"
	}
	val, _ := new(big.Rat).SetString(num + "." + fraction + "0")
	// Exponents beyond ±maxQuantityExponent (1e999999999) are computed as
	// that: no request makes kapi compute a power of ten of a billion
	// digits, and such quantities still compare as huge or tiny.
	suffix.exponent = max(-maxQuantityExponent, min(maxQuantityExponent, suffix.exponent))
	if suffix.base == 2 {
		val.Mul(val, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(suffix.exponent))))
	} else if suffix.exponent >= 0 {
		val.Mul(val, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(suffix.exponent)), nil)))
	} else {
		val.Quo(val, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(-suffix.exponent)), nil)))
	}
	if negative {
		val.Neg(val)
	}
	q := quantity{text: canonical, value: val}
	q.goRep = goQuantityOf(raw, negative, num, fraction, suffix, false)
	q.goShown = goQuantityOf(canonical, negative, num, fraction, suffix, true)
	return q, true
}

const maxQuantityExponent = 100

var formatNames = map[quantityFormat]string{decimalSI: "DecimalSI", binarySI: "BinarySI", decimalExponent: "DecimalExponent"}

// goQuantityOf renders what kube's ParseQuantity makes of text, for the
// quantities it holds in an int64 (any quantity a user writes by hand);
// with shown, once its String() has cached text.
func goQuantityOf(text string, negative bool, num, denom string, suffix quantitySuffix, shown bool) string {
	format := formatNames[suffix.format]
	scale := 0
	mantissa := int64(1)
	precision := -1
	if suffix.base == 2 {
		if len(denom) == 0 {
			mantissa = 1 << suffix.exponent
			precision = 15 - len(num) - int(float32(suffix.exponent)*3/10) - 1
		}
	} else {
		scale = suffix.exponent
		precision = 18 - (len(num) + len(denom))
	}
	if precision >= 0 {
		scale -= len(denom)
		if scale >= -9 {
			shifted := num + denom
			if value, err := strconv.ParseInt(shifted, 10, 64); err == nil {
				if r := new(big.Int).Mul(big.NewInt(value), big.NewInt(mantissa)); r.IsInt64() {
					result := r.Int64()
					if negative {
						result = -result
					}
					keep := ""
					if suffix.base == 2 {
						if suffix.exponent%10 == 0 && value&0x07 != 0 {
							keep = text
						}
					} else if scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
						keep = text
					}
					if shown {
						keep = text
					}
					return goQuantityFields(result, scale, keep, format)
				}
			}
		}
	}
	return fmt.Sprintf("resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(%s)}, s:\"\", Format:%q}", text, format)
}

func goQuantityFields(value int64, scale int, s, format string) string {
	return fmt.Sprintf("resource.Quantity{i:resource.int64Amount{value:%d, scale:%d}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:%q, Format:%q}",
		value, scale, s, format)
}

// milli is the quantity in thousandths, rounded up as kube's MilliValue.
func (q quantity) milli() *big.Int {
	m := new(big.Rat).Mul(q.value, big.NewRat(1000, 1))
	n := new(big.Int).Quo(m.Num(), m.Denom())
	if m.Sign() > 0 && !m.IsInt() {
		n.Add(n, big.NewInt(1))
	}
	return n
}

// int64Value is kube's Value(): rounded up, capped to an int64.
func (q quantity) int64Value() int64 {
	n := new(big.Int).Quo(q.value.Num(), q.value.Denom())
	if q.value.Sign() > 0 && !q.value.IsInt() {
		n.Add(n, big.NewInt(1))
	}
	if !n.IsInt64() {
		if n.Sign() < 0 {
			return -1 << 63
		}
		return 1<<63 - 1
	}
	return n.Int64()
}

// goPointer is how a set pointer field prints inside a Go value; the
// address is kube's process's, so any stands.
func goPointer(typ string, set bool) string {
	if !set {
		return "(" + typ + ")(nil)"
	}
	return "(" + typ + ")(0xc000010000)"
}

// quantitySign is -1, 0 or 1 for a quantity field's value (ok false
// when it is not a quantity).
func quantitySign(v any) (int, bool) {
	text, ok := quantityText(v)
	if !ok {
		return 0, false
	}
	negative, whole, fraction, _, ok := splitQuantity(strings.TrimSpace(text))
	if !ok {
		return 0, false
	}
	if strings.Trim(whole+fraction, "0") == "" {
		return 0, true
	}
	if negative {
		return -1, true
	}
	return 1, true
}

// goQuantity prints a resource.Quantity as Go's %#v does in kube's
// messages, as kube's parser leaves it: an int64 amount where its fast
// path holds the number (else an inf.Dec), and the text as written when it
// is already canonical.
func goQuantity(v any) goValue {
	text, _ := quantityText(v)
	text = strings.TrimSpace(text)
	const format = `resource.Quantity{i:resource.int64Amount{value:%d, scale:%d}, d:resource.infDecAmount{Dec:%s}, s:%q, Format:%q}`
	if text == "0" {
		return goValue(fmt.Sprintf(format, 0, 0, "(*inf.Dec)(nil)", "0", "DecimalSI"))
	}
	negative, num, denom, suffix, _ := splitQuantity(text)
	sfx, _ := parseSuffix(suffix)
	formatName := map[quantityFormat]string{decimalSI: "DecimalSI", binarySI: "BinarySI", decimalExponent: "DecimalExponent"}[sfx.format]
	precision, scale, mantissa := 0, 0, int64(1)
	switch sfx.format {
	case binarySI:
		if denom != "" {
			precision = -1
			break
		}
		mantissa <<= sfx.exponent
		precision = 15 - len(num) - int(float32(sfx.exponent)*3/10) - 1
	default:
		scale = sfx.exponent
		precision = 18 - len(num) - len(denom)
	}
	if precision >= 0 {
		scale -= len(denom)
		shifted := num + denom
		if n, err := strconv.ParseInt(shifted, 10, 64); err == nil && scale >= -9 {
			if result, ok := mulInt64(n, mantissa); ok {
				if negative {
					result = -result
				}
				kept := ""
				if sfx.format == binarySI && sfx.exponent%10 == 0 && n&7 != 0 ||
					sfx.format != binarySI && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
					kept = text
				}
				return goValue(fmt.Sprintf(format, result, scale, "(*inf.Dec)(nil)", kept, formatName))
			}
		}
	}
	return goValue(fmt.Sprintf(format, 0, 0, goPointer("*inf.Dec", true), "", formatName))
}

// mulInt64 multiplies without overflowing.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	return c, c/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}
