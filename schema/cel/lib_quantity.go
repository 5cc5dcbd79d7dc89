package cel

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// quantityType is kube's kubernetes.Quantity.
var quantityType = cel.ObjectType("kubernetes.Quantity")

// quantity is a resource quantity ("500m", "1Gi", "1e3") with the two
// representations kube's resource.Quantity keeps, because what a rule
// sees depends on them: a small value is an int64 times a power of ten
// (isInteger and asInteger work when it is whole), anything else an
// arbitrary-precision decimal, which kube never reports as an integer.
type quantity struct {
	// value × 10^scale, when dec is nil.
	value int64
	scale int32
	// unscaled × 10^-decScale otherwise.
	dec      *big.Int
	decScale int32
}

var (
	errQuantityFormat  = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	errQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	errQuantitySuffix  = errors.New("unable to parse quantity's suffix")
)

// splitQuantity reads sign, integer digits (leading zeros dropped),
// fraction digits and suffix, as kube's parser does.
func splitQuantity(s string) (positive bool, value, num, denom, suffix string, err error) {
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
			return positive, value, num, denom, "", errQuantityFormat
		}
	}
	return positive, value, num, denom, s[suffixStart:], nil
}

// suffixes maps a suffix to its base and exponent; binary is base 2.
func interpretSuffix(suffix string) (base int, exp int32, binary, ok bool) {
	switch suffix {
	case "":
		return 10, 0, false, true
	case "n":
		return 10, -9, false, true
	case "u":
		return 10, -6, false, true
	case "m":
		return 10, -3, false, true
	case "k":
		return 10, 3, false, true
	case "M":
		return 10, 6, false, true
	case "G":
		return 10, 9, false, true
	case "T":
		return 10, 12, false, true
	case "P":
		return 10, 15, false, true
	case "E":
		return 10, 18, false, true
	case "Ki":
		return 2, 10, true, true
	case "Mi":
		return 2, 20, true, true
	case "Gi":
		return 2, 30, true, true
	case "Ti":
		return 2, 40, true, true
	case "Pi":
		return 2, 50, true, true
	case "Ei":
		return 2, 60, true, true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		n, err := strconv.ParseInt(suffix[1:], 10, 64)
		if err != nil {
			return 0, 0, false, false
		}
		return 10, int32(n), false, true
	}
	return 0, 0, false, false
}

// parseQuantity reads a quantity as kube's ParseQuantity does.
func parseQuantity(s string) (quantity, error) {
	if s == "" {
		return quantity{}, errQuantityFormat
	}
	if s == "0" {
		return quantity{}, nil
	}
	positive, value, num, denom, suffix, err := splitQuantity(s)
	if err != nil {
		return quantity{}, err
	}
	base, exp, binary, ok := interpretSuffix(suffix)
	if !ok {
		return quantity{}, errQuantitySuffix
	}
	// The int64 representation, when the digits are few enough.
	precision, scale, mantissa := int32(-1), int32(0), int64(1)
	if !binary {
		scale = exp
		precision = 18 - int32(len(num)+len(denom))
	} else if exp >= 0 && denom == "" {
		mantissa <<= uint(exp)
		precision = 15 - int32(len(num)) - int32(float32(exp)*3/10) - 1
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= -9 {
			v, err := strconv.ParseInt(num+denom, 10, 64)
			if err != nil {
				return quantity{}, errQuantityNumeric
			}
			if r, ok := mulInt64(v, mantissa); ok {
				if !positive {
					r = -r
				}
				return quantity{value: r, scale: scale}, nil
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
	if digits == "" {
		digits = "0"
	}
	unscaled, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return quantity{}, errQuantityNumeric
	}
	decScale := int32(fracLen)
	if base == 10 {
		decScale -= exp
	} else {
		unscaled.Lsh(unscaled, uint(exp))
	}
	// Non-zero values round up (away from zero) to a whole nano.
	if unscaled.Sign() != 0 {
		unscaled, decScale = roundUpToScale(unscaled, decScale, 9)
	}
	if binary {
		maxInt := big.NewInt(math.MaxInt64)
		if decCmp(unscaled, decScale, maxInt, 0) > 0 {
			unscaled, decScale = maxInt, 0
		}
	}
	if !positive {
		unscaled.Neg(unscaled)
	}
	return quantity{dec: unscaled, decScale: decScale}, nil
}

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

// maxRescale bounds the powers of ten kapi multiplies by: kube rescales
// without bound, so that a quantity such as "1111111111111111111e999999999"
// costs it memory and time to read; kapi keeps such values unscaled.
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
func (q quantity) parts() (*big.Int, int64) {
	if q.dec != nil {
		return q.dec, -int64(q.decScale)
	}
	return big.NewInt(q.value), int64(q.scale)
}

func decCmp(a *big.Int, as int32, b *big.Int, bs int32) int {
	return quantity{dec: a, decScale: as}.cmp(quantity{dec: b, decScale: bs})
}

// cmp compares exactly, without building powers of ten larger than the
// digits the two values have.
func (q quantity) cmp(o quantity) int {
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

func (q quantity) sign() int {
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

// asInt64 is kube's AsInt64: only the int64 representation, whole.
func (q quantity) asInt64() (int64, bool) {
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

func (q quantity) approximateFloat() float64 {
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

// toDec is q in the decimal representation.
func (q quantity) toDec() (*big.Int, int32) {
	if q.dec != nil {
		return new(big.Int).Set(q.dec), q.decScale
	}
	return big.NewInt(q.value), -q.scale
}

// add is kube's Quantity.Add (sub with neg): int64 arithmetic at the
// smaller scale while it fits, the decimal representation once it does
// not or either side is decimal.
func (q quantity) add(o quantity, neg bool) quantity {
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
			return quantity{dec: b, decScale: bs}
		}
		if b.Sign() == 0 {
			return quantity{dec: a, decScale: as}
		}
		qa, qb := quantity{dec: a, decScale: as}, quantity{dec: b, decScale: bs}
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
	return quantity{dec: a.Add(a, b), decScale: as}
}

func addScaled(a int64, as int32, b int64, bs int32) (quantity, bool) {
	switch {
	case b == 0:
		return quantity{value: a, scale: as}, true
	case a == 0:
		return quantity{value: b, scale: bs}, true
	}
	for as > bs {
		n, ok := mulInt64(a, 10)
		if !ok {
			return quantity{}, false
		}
		a, as = n, as-1
	}
	for bs > as {
		n, ok := mulInt64(b, 10)
		if !ok {
			return quantity{}, false
		}
		b, bs = n, bs-1
	}
	c := a + b
	if (c > a) != (b > 0) {
		return quantity{}, false
	}
	return quantity{value: c, scale: as}, true
}

// quantityValue is a quantity as a CEL value.
type quantityValue struct{ q quantity }

func (v quantityValue) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", t)
}

func (v quantityValue) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case quantityType:
		return v
	case types.TypeType:
		return quantityType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", quantityType, t)
}

func (v quantityValue) Equal(other ref.Val) ref.Val {
	o, ok := other.(quantityValue)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.q.cmp(o.q) == 0)
}

func (v quantityValue) Type() ref.Type { return quantityType }
func (v quantityValue) Value() any     { return v.q }

// quantityLib is kube's quantity library.
//
//	quantity('1Gi').isGreaterThan(quantity('500Mi'))  isQuantity('1.5k')  quantity('2').asInteger() == 2
func quantityLib() []cel.EnvOption {
	qt := quantityType
	unary := func(id string, out *cel.Type, fn func(quantity) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{qt}, out, cel.UnaryBinding(func(v ref.Val) ref.Val {
			q, ok := v.(quantityValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return fn(q.q)
		}))
	}
	binary := func(id string, other, out *cel.Type, fn func(quantity, ref.Val) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{qt, other}, out, cel.BinaryBinding(func(a, b ref.Val) ref.Val {
			q, ok := a.(quantityValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return fn(q.q, b)
		}))
	}
	withQuantity := func(fn func(a, b quantity) ref.Val) func(quantity, ref.Val) ref.Val {
		return func(a quantity, b ref.Val) ref.Val {
			o, ok := b.(quantityValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(b)
			}
			return fn(a, o.q)
		}
	}
	withInt := func(neg bool) func(quantity, ref.Val) ref.Val {
		return func(a quantity, b ref.Val) ref.Val {
			i, ok := b.Value().(int64)
			if !ok {
				return types.MaybeNoSuchOverloadErr(b)
			}
			return quantityValue{a.add(quantity{value: i}, neg)}
		}
	}
	return []cel.EnvOption{
		cel.Function("quantity", cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, qt,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				q, err := parseQuantity(s)
				if err != nil {
					return types.WrapErr(err)
				}
				return quantityValue{q}
			}))),
		cel.Function("isQuantity", cel.Overload("is_quantity_string", []*cel.Type{cel.StringType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				_, err := parseQuantity(s)
				return types.Bool(err == nil)
			}))),
		cel.Function("sign", cel.Overload("quantity_sign", []*cel.Type{qt}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				q, ok := v.(quantityValue)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				return types.Int(q.q.sign())
			}))),
		cel.Function("isGreaterThan", binary("quantity_is_greater_than", qt, cel.BoolType,
			withQuantity(func(a, b quantity) ref.Val { return types.Bool(a.cmp(b) == 1) }))),
		cel.Function("isLessThan", binary("quantity_is_less_than", qt, cel.BoolType,
			withQuantity(func(a, b quantity) ref.Val { return types.Bool(a.cmp(b) == -1) }))),
		cel.Function("compareTo", binary("quantity_compare_to", qt, cel.IntType,
			withQuantity(func(a, b quantity) ref.Val { return types.Int(a.cmp(b)) }))),
		cel.Function("asApproximateFloat", unary("quantity_get_float", cel.DoubleType,
			func(q quantity) ref.Val { return types.Double(q.approximateFloat()) })),
		cel.Function("asInteger", unary("quantity_get_int", cel.IntType, func(q quantity) ref.Val {
			i, ok := q.asInt64()
			if !ok {
				return types.WrapErr(errors.New("cannot convert value to integer"))
			}
			return types.Int(i)
		})),
		cel.Function("isInteger", unary("quantity_is_integer", cel.BoolType, func(q quantity) ref.Val {
			_, ok := q.asInt64()
			return types.Bool(ok)
		})),
		cel.Function("add",
			binary("quantity_add", qt, qt, withQuantity(func(a, b quantity) ref.Val { return quantityValue{a.add(b, false)} })),
			binary("quantity_add_int", cel.IntType, qt, withInt(false))),
		cel.Function("sub",
			binary("quantity_sub", qt, qt, withQuantity(func(a, b quantity) ref.Val { return quantityValue{a.add(b, true)} })),
			binary("quantity_sub_int", cel.IntType, qt, withInt(true))),
	}
}

func (q quantity) cmpAbs(o quantity) int {
	a, ae := q.parts()
	b, be := o.parts()
	return quantity{dec: new(big.Int).Abs(a), decScale: int32(-ae)}.cmp(quantity{dec: new(big.Int).Abs(b), decScale: int32(-be)})
}
