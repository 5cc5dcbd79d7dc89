// Package quantity reads, compares, adds and writes Kubernetes resource
// quantities ("500m", "1Gi", "1e3") as k8s.io/apimachinery's
// resource.Quantity does: the same two representations (a small value is an
// int64 times a power of ten, anything else an arbitrary-precision decimal,
// rounded up to a billionth), the same canonical text, the same Go value
// printed in kube's messages. The API server canonicalises and validates
// the quantities of the built-in kinds with it, and CEL rules' quantity
// library computes with it.
//
// Where kube would compute without bound (a power of ten of a billion
// digits for "1e999999999"), a Quantity keeps the value unscaled: such
// quantities still compare and print, at a cost bounded by their text.
package quantity

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Format is how a quantity's text writes its scale: kube's Format.
type Format int

const (
	DecimalSI       Format = iota // "500m", "1k"
	BinarySI                      // "1Gi"
	DecimalExponent               // "1e3"
)

func (f Format) String() string {
	return [...]string{"DecimalSI", "BinarySI", "DecimalExponent"}[f]
}

// Quantity is a parsed quantity. The zero value is 0.
type Quantity struct {
	// value × 10^scale, when dec is nil.
	value int64
	scale int32
	// dec × 10^-decScale otherwise.
	dec      *big.Int
	decScale int32
	format   Format
	text     string // the text as written, when kube keeps it (already canonical)
}

// The errors of Parse, with kube's messages.
var (
	ErrFormat  = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrNumeric = errors.New("unable to parse numeric part of quantity")
	ErrSuffix  = errors.New("unable to parse quantity's suffix")
)

// split reads sign, integer digits (leading zeros dropped), fraction
// digits and suffix, and the number's text without its suffix.
func split(s string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(s)
	if pos < end {
		switch s[0] {
		case '-':
			positive = false
			pos++
		case '+':
			pos++
		}
	}
	for pos < end && s[pos] == '0' {
		pos++
	}
	if pos >= end {
		return positive, "0", "0", "", "", nil
	}
	start := pos
	for pos < end && s[pos] >= '0' && s[pos] <= '9' {
		pos++
	}
	num = s[start:pos]
	if pos >= end {
		return positive, s, num, "", "", nil
	}
	if num == "" {
		num = "0"
	}
	if s[pos] == '.' {
		pos++
		start = pos
		for pos < end && s[pos] >= '0' && s[pos] <= '9' {
			pos++
		}
		denom = s[start:pos]
		if pos >= end {
			return positive, s, num, denom, "", nil
		}
	}
	value = s[:pos]
	suffixStart := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", s[pos]) >= 0 {
		pos++
	}
	if pos >= end {
		return positive, value, num, denom, s[suffixStart:], nil
	}
	if s[pos] == '-' || s[pos] == '+' {
		pos++
	}
	for ; pos < end; pos++ {
		if s[pos] < '0' || s[pos] > '9' {
			return positive, value, num, denom, "", ErrFormat
		}
	}
	return positive, value, num, denom, s[suffixStart:], nil
}

var (
	decimalSuffixes = map[string]int32{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binarySuffixes  = map[string]int32{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
	decimalNames    = map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
	binaryNames     = []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
)

// interpretSuffix is a suffix's exponent (of 2 for BinarySI, of 10
// otherwise). As kube, an exponent beyond an int32 wraps.
func interpretSuffix(suffix string) (exp int32, format Format, ok bool) {
	if e, ok := decimalSuffixes[suffix]; ok {
		return e, DecimalSI, true
	}
	if e, ok := binarySuffixes[suffix]; ok {
		return e, BinarySI, true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		n, err := strconv.ParseInt(suffix[1:], 10, 64)
		return int32(n), DecimalExponent, err == nil
	}
	return 0, 0, false
}

// Parse reads a quantity as kube's ParseQuantity does (kube's JSON decoding
// trims spaces first; Parse does not).
func Parse(s string) (Quantity, error) {
	if s == "" {
		return Quantity{}, ErrFormat
	}
	if s == "0" {
		return Quantity{text: s}, nil
	}
	positive, value, num, denom, suffix, err := split(s)
	if err != nil {
		return Quantity{}, err
	}
	exp, format, ok := interpretSuffix(suffix)
	if !ok {
		return Quantity{}, ErrSuffix
	}
	// The int64 representation, when the digits are few enough.
	precision, scale, mantissa := int32(-1), int32(0), int64(1)
	if format != BinarySI {
		scale = exp
		precision = 18 - int32(len(num)+len(denom))
	} else if denom == "" {
		mantissa <<= uint(exp)
		precision = 15 - int32(len(num)) - int32(float32(exp)*3/10) - 1
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= -9 {
			shifted := num + denom
			v, err := strconv.ParseInt(shifted, 10, 64)
			if err != nil {
				return Quantity{}, ErrNumeric
			}
			if r, ok := mulInt64(v, mantissa); ok {
				if !positive {
					r = -r
				}
				q := Quantity{value: r, scale: scale, format: format}
				// Text already in canonical form is kept as written.
				if format == BinarySI && exp%10 == 0 && v&7 != 0 ||
					format != BinarySI && scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
					q.text = s
				}
				return q, nil
			}
		}
	}
	// The decimal representation.
	digits := strings.TrimLeft(value, "+-")
	fracLen := 0
	if i := strings.IndexByte(digits, '.'); i >= 0 {
		fracLen = len(digits) - i - 1
		digits = digits[:i] + digits[i+1:]
	}
	unscaled, ok := new(big.Int).SetString(digits, 10)
	if !ok { // no digits ("Pi"): kube's decimal reads no number
		return Quantity{}, ErrNumeric
	}
	decScale := int32(fracLen)
	if format == BinarySI {
		unscaled.Lsh(unscaled, uint(exp))
	} else {
		decScale -= exp
	}
	// Non-zero values round up (away from zero) to a whole nano: who asks
	// for a little of a resource gets some.
	if unscaled.Sign() != 0 {
		unscaled, decScale = roundUpToScale(unscaled, decScale, 9)
	}
	if format == BinarySI {
		maxInt := big.NewInt(math.MaxInt64)
		if decCmp(unscaled, decScale, maxInt, 0) > 0 {
			unscaled, decScale = maxInt, 0 // the largest binary quantity kube holds
		}
		if unscaled.Sign() != 0 && decCmp(unscaled, decScale, big.NewInt(1), 0) < 0 {
			format = DecimalSI
		}
	}
	if !positive {
		unscaled.Neg(unscaled)
	}
	return Quantity{dec: unscaled, decScale: decScale, format: format}, nil
}

// Int64 is the quantity v (kube's NewQuantity).
func Int64(v int64) Quantity { return Quantity{value: v} }

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a {
		return 0, false
	}
	return c, true
}

var bigTen = big.NewInt(10)

func pow10(n int32) *big.Int { return new(big.Int).Exp(bigTen, big.NewInt(int64(n)), nil) }

// maxRescale bounds the powers of ten a Quantity multiplies by: kube
// rescales without bound, so that a quantity such as
// "1111111111111111111e999999999" costs it memory and time to read.
const maxRescale = 1000

// roundUpToScale rescales a non-negative unscaled×10^-scale to the given
// scale, rounding away from zero when digits are dropped.
func roundUpToScale(unscaled *big.Int, scale, to int32) (*big.Int, int32) {
	switch {
	case scale < to:
		if int64(to)-int64(scale) > maxRescale {
			return unscaled, scale
		}
		return new(big.Int).Mul(unscaled, pow10(to-scale)), to
	case scale > to:
		if int64(scale)-int64(to) > int64(len(unscaled.String())) {
			// Every digit is dropped: a non-zero value rounds up to one
			// unit of the scale (without building that power of ten).
			return big.NewInt(1), to
		}
		q, r := new(big.Int).QuoRem(unscaled, pow10(scale-to), new(big.Int))
		if r.Sign() != 0 {
			q.Add(q, big.NewInt(1))
		}
		return q, to
	}
	return unscaled, scale
}

// parts is the value as unscaled × 10^exp.
func (q Quantity) parts() (*big.Int, int64) {
	if q.dec != nil {
		return q.dec, -int64(q.decScale)
	}
	return big.NewInt(q.value), int64(q.scale)
}

func decCmp(a *big.Int, as int32, b *big.Int, bs int32) int {
	return Quantity{dec: a, decScale: as}.Cmp(Quantity{dec: b, decScale: bs})
}

// Cmp is -1, 0 or 1 as q is less than, equal to or greater than o,
// exactly, without building powers of ten larger than the digits the two
// values have.
func (q Quantity) Cmp(o Quantity) int {
	a, ae := q.parts()
	b, be := o.parts()
	if sa, sb := a.Sign(), b.Sign(); sa != sb || sa == 0 {
		switch {
		case sa < sb:
			return -1
		case sa > sb:
			return 1
		}
		return 0
	}
	sign := a.Sign()
	// The position of the most significant digit decides unless equal.
	ma := int64(len(new(big.Int).Abs(a).String())) + ae
	mb := int64(len(new(big.Int).Abs(b).String())) + be
	if ma != mb {
		if ma < mb {
			return -sign
		}
		return sign
	}
	// Same magnitude: the exponents differ by at most the digits held.
	if ae > be {
		a = new(big.Int).Mul(a, pow10(int32(ae-be)))
	} else if be > ae {
		b = new(big.Int).Mul(b, pow10(int32(be-ae)))
	}
	return a.Cmp(b)
}

// Sign is -1, 0 or 1.
func (q Quantity) Sign() int {
	if q.dec != nil {
		return q.dec.Sign()
	}
	switch {
	case q.value > 0:
		return 1
	case q.value < 0:
		return -1
	}
	return 0
}

// AsInt64 is kube's AsInt64: only the int64 representation, whole.
func (q Quantity) AsInt64() (int64, bool) {
	if q.dec != nil {
		return 0, false
	}
	if q.scale == 0 {
		return q.value, true
	}
	if q.scale < 0 {
		return 0, false
	}
	if q.value == 0 {
		return 0, true
	}
	v := q.value
	for i := int32(0); i < q.scale; i++ {
		n, ok := mulInt64(v, 10)
		if !ok {
			return 0, false
		}
		v = n
	}
	return v, true
}

// AsApproximateFloat64 is kube's AsApproximateFloat64.
func (q Quantity) AsApproximateFloat64() float64 {
	var base float64
	var exp int
	if q.dec != nil {
		base, _ = new(big.Float).SetInt(q.dec).Float64()
		exp = int(-q.decScale)
	} else {
		base, exp = float64(q.value), int(q.scale)
	}
	if exp == 0 {
		return base
	}
	return base * math.Pow10(exp)
}

// ceilScaled is the quantity in units of 10^exp, rounded up (a value
// more than maxRescale digits above the unit is as many short: large
// enough for Value's cap and whole in thousandths).
func (q Quantity) ceilScaled(exp int64) *big.Int {
	a, ae := q.parts()
	if d := ae - exp; d >= 0 {
		return new(big.Int).Mul(a, pow10(int32(min(d, maxRescale))))
	} else if -d > int64(len(a.String())) {
		return big.NewInt(int64(max(a.Sign(), 0))) // every digit is dropped: 1 if positive, else 0
	}
	n, r := new(big.Int).QuoRem(a, pow10(int32(exp-ae)), new(big.Int))
	if r.Sign() > 0 {
		n.Add(n, big.NewInt(1))
	}
	return n
}

// Value is kube's Value(): rounded up, capped to an int64.
func (q Quantity) Value() int64 {
	n := q.ceilScaled(0)
	if !n.IsInt64() {
		if n.Sign() < 0 {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	return n.Int64()
}

// Milli is the quantity in thousandths, rounded up: kube's MilliValue,
// without its int64's bounds.
func (q Quantity) Milli() *big.Int { return q.ceilScaled(-3) }

// toDec is q in the decimal representation.
func (q Quantity) toDec() (*big.Int, int32) {
	if q.dec != nil {
		return new(big.Int).Set(q.dec), q.decScale
	}
	return big.NewInt(q.value), -q.scale
}

// Add is kube's Quantity.Add: int64 arithmetic at the smaller scale while
// it fits, the decimal representation once it does not or either side is
// decimal.
func (q Quantity) Add(o Quantity) Quantity { return q.add(o, false) }

// Sub is kube's Quantity.Sub.
func (q Quantity) Sub(o Quantity) Quantity { return q.add(o, true) }

func (q Quantity) add(o Quantity, neg bool) Quantity {
	if q.dec == nil && o.dec == nil {
		ov := o.value
		if neg {
			if ov == math.MinInt64 {
				goto decimal
			}
			ov = -ov
		}
		if r, ok := addScaled(q.value, q.scale, ov, o.scale); ok {
			return r
		}
	}
decimal:
	a, as := q.toDec()
	b, bs := o.toDec()
	if neg {
		b.Neg(b)
	}
	if d := int64(as) - int64(bs); d > maxRescale || d < -maxRescale {
		// Aligning would build a power of ten of that many digits (kube
		// does, at a cost without bound): the sum is the larger term's
		// order of magnitude unless one term is zero.
		if a.Sign() == 0 {
			return Quantity{dec: b, decScale: bs}
		}
		if b.Sign() == 0 {
			return Quantity{dec: a, decScale: as}
		}
		qa, qb := Quantity{dec: a, decScale: as}, Quantity{dec: b, decScale: bs}
		if qa.cmpAbs(qb) >= 0 {
			return qa
		}
		return qb
	}
	// Align scales (the larger keeps its digits).
	switch {
	case as < bs:
		a.Mul(a, pow10(bs-as))
		as = bs
	case bs < as:
		b.Mul(b, pow10(as-bs))
	}
	return Quantity{dec: a.Add(a, b), decScale: as}
}

func addScaled(a int64, as int32, b int64, bs int32) (Quantity, bool) {
	switch {
	case b == 0:
		return Quantity{value: a, scale: as}, true
	case a == 0:
		return Quantity{value: b, scale: bs}, true
	}
	for as > bs {
		n, ok := mulInt64(a, 10)
		if !ok {
			return Quantity{}, false
		}
		a, as = n, as-1
	}
	for bs > as {
		n, ok := mulInt64(b, 10)
		if !ok {
			return Quantity{}, false
		}
		b, bs = n, bs-1
	}
	c := a + b
	if (c > a) != (b > 0) {
		return Quantity{}, false
	}
	return Quantity{value: c, scale: as}, true
}

func (q Quantity) cmpAbs(o Quantity) int {
	a, ae := q.parts()
	b, be := o.parts()
	return Quantity{dec: new(big.Int).Abs(a), decScale: int32(-ae)}.Cmp(Quantity{dec: new(big.Int).Abs(b), decScale: int32(-be)})
}

// String is the quantity's canonical text, what kube stores for it: the
// text as written when it is already canonical, else the value written
// with the largest suffix of its format that keeps the number whole
// ("0.5" → "500m", "1000" → "1k", "1024Mi" → "1Gi", "1.5Gi" → "1536Mi").
// A small or fractional binary quantity is written in decimal; kube
// writes no decimal suffix beyond E.
func (q Quantity) String() string {
	if q.text != "" {
		return q.text
	}
	if s, ok := q.int64String(); ok {
		return s
	}
	unscaled, exp := q.parts()
	if unscaled.Sign() == 0 {
		return "0"
	}
	sign := ""
	if unscaled.Sign() < 0 {
		sign = "-"
	}
	unscaled = new(big.Int).Abs(unscaled)
	format := q.format
	if format == BinarySI {
		if v, whole := integerValue(unscaled, exp); whole && v.Cmp(big.NewInt(1024)) >= 0 {
			n := 0
			for r, k := new(big.Int), big.NewInt(1024); n < len(binaryNames)-1; n++ {
				q, _ := new(big.Int).QuoRem(v, k, r)
				if r.Sign() != 0 {
					break
				}
				v = q
			}
			return sign + v.String() + binaryNames[n]
		}
		format = DecimalSI
	}
	// Decimal: no trailing zeros, then an exponent that is a multiple of 3.
	for r := new(big.Int); ; {
		q, _ := new(big.Int).QuoRem(unscaled, bigTen, r)
		if r.Sign() != 0 {
			break
		}
		unscaled, exp = q, exp+1
	}
	for exp%3 != 0 {
		unscaled.Mul(unscaled, bigTen)
		exp--
	}
	text := sign + unscaled.String()
	switch {
	case format == DecimalExponent && exp != 0:
		text += "e" + strconv.FormatInt(exp, 10)
	case format != DecimalExponent:
		text += decimalNames[int(exp)]
	}
	return text
}

// int64String is String for the int64 representation while its
// arithmetic fits an int64 (false otherwise).
func (q Quantity) int64String() (string, bool) {
	v, exp := q.value, int64(q.scale)
	if q.dec != nil || v == math.MinInt64 {
		return "", false
	}
	if v == 0 {
		return "0", true
	}
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	if q.format == BinarySI && exp == 0 && v >= 1024 {
		n := 0
		for ; n < len(binaryNames)-1 && v%1024 == 0; n++ {
			v /= 1024
		}
		return sign + strconv.FormatInt(v, 10) + binaryNames[n], true
	}
	for v%10 == 0 {
		v, exp = v/10, exp+1
	}
	for ; exp%3 != 0; exp-- {
		if v > math.MaxInt64/10 {
			return "", false
		}
		v *= 10
	}
	text := sign + strconv.FormatInt(v, 10)
	switch {
	case q.format == DecimalExponent && exp != 0:
		text += "e" + strconv.FormatInt(exp, 10)
	case q.format != DecimalExponent:
		text += decimalNames[int(exp)]
	}
	return text, true
}

// integerValue is unscaled × 10^exp when it is a whole number.
func integerValue(unscaled *big.Int, exp int64) (*big.Int, bool) {
	if exp >= 0 {
		return new(big.Int).Mul(unscaled, pow10(int32(exp))), true
	}
	q, r := new(big.Int).QuoRem(unscaled, pow10(int32(-exp)), new(big.Int))
	return q, r.Sign() == 0
}

// Canonical is q as kube holds it once its String() has been called,
// which keeps the canonical text.
func (q Quantity) Canonical() Quantity {
	q.text = q.String()
	return q
}

// GoString is the quantity as Go's %#v prints kube's resource.Quantity in
// its messages (a decimal's address is kube's process's: any stands).
func (q Quantity) GoString() string {
	dec := "(*inf.Dec)(nil)"
	if q.dec != nil {
		dec = "(*inf.Dec)(0xc000010000)"
	}
	return fmt.Sprintf("resource.Quantity{i:resource.int64Amount{value:%d, scale:%d}, d:resource.infDecAmount{Dec:%s}, s:%q, Format:%q}",
		q.value, q.scale, dec, q.text, q.format)
}
