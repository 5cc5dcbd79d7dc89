package cel

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/kapi-dev/kapi/quantity"
)

// quantityType is kube's kubernetes.Quantity.
var quantityType = cel.ObjectType("kubernetes.Quantity")

// quantityValue is a quantity as a CEL value.
type quantityValue struct{ q quantity.Quantity }

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
	return types.Bool(v.q.Cmp(o.q) == 0)
}

func (v quantityValue) Type() ref.Type { return quantityType }
func (v quantityValue) Value() any     { return v.q }

// quantityLib is kube's quantity library.
//
//	quantity('1Gi').isGreaterThan(quantity('500Mi'))  isQuantity('1.5k')  quantity('2').asInteger() == 2
func quantityLib() []cel.EnvOption {
	qt := quantityType
	unary := func(id string, out *cel.Type, fn func(quantity.Quantity) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{qt}, out, cel.UnaryBinding(func(v ref.Val) ref.Val {
			q, ok := v.(quantityValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(v)
			}
			return fn(q.q)
		}))
	}
	binary := func(id string, other, out *cel.Type, fn func(quantity.Quantity, ref.Val) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{qt, other}, out, cel.BinaryBinding(func(a, b ref.Val) ref.Val {
			q, ok := a.(quantityValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return fn(q.q, b)
		}))
	}
	withQuantity := func(fn func(a, b quantity.Quantity) ref.Val) func(quantity.Quantity, ref.Val) ref.Val {
		return func(a quantity.Quantity, b ref.Val) ref.Val {
			o, ok := b.(quantityValue)
			if !ok {
				return types.MaybeNoSuchOverloadErr(b)
			}
			return fn(a, o.q)
		}
	}
	withInt := func(neg bool) func(quantity.Quantity, ref.Val) ref.Val {
		return func(a quantity.Quantity, b ref.Val) ref.Val {
			i, ok := b.Value().(int64)
			if !ok {
				return types.MaybeNoSuchOverloadErr(b)
			}
			if neg {
				return quantityValue{a.Sub(quantity.Int64(i))}
			}
			return quantityValue{a.Add(quantity.Int64(i))}
		}
	}
	return []cel.EnvOption{
		cel.Function("quantity", cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, qt,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, ok := v.Value().(string)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				q, err := quantity.Parse(s)
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
				_, err := quantity.Parse(s)
				return types.Bool(err == nil)
			}))),
		cel.Function("sign", cel.Overload("quantity_sign", []*cel.Type{qt}, cel.IntType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				q, ok := v.(quantityValue)
				if !ok {
					return types.MaybeNoSuchOverloadErr(v)
				}
				return types.Int(q.q.Sign())
			}))),
		cel.Function("isGreaterThan", binary("quantity_is_greater_than", qt, cel.BoolType,
			withQuantity(func(a, b quantity.Quantity) ref.Val { return types.Bool(a.Cmp(b) == 1) }))),
		cel.Function("isLessThan", binary("quantity_is_less_than", qt, cel.BoolType,
			withQuantity(func(a, b quantity.Quantity) ref.Val { return types.Bool(a.Cmp(b) == -1) }))),
		cel.Function("compareTo", binary("quantity_compare_to", qt, cel.IntType,
			withQuantity(func(a, b quantity.Quantity) ref.Val { return types.Int(a.Cmp(b)) }))),
		cel.Function("asApproximateFloat", unary("quantity_get_float", cel.DoubleType,
			func(q quantity.Quantity) ref.Val { return types.Double(q.AsApproximateFloat64()) })),
		cel.Function("asInteger", unary("quantity_get_int", cel.IntType, func(q quantity.Quantity) ref.Val {
			i, ok := q.AsInt64()
			if !ok {
				return types.WrapErr(errors.New("cannot convert value to integer"))
			}
			return types.Int(i)
		})),
		cel.Function("isInteger", unary("quantity_is_integer", cel.BoolType, func(q quantity.Quantity) ref.Val {
			_, ok := q.AsInt64()
			return types.Bool(ok)
		})),
		cel.Function("add",
			binary("quantity_add", qt, qt, withQuantity(func(a, b quantity.Quantity) ref.Val { return quantityValue{a.Add(b)} })),
			binary("quantity_add_int", cel.IntType, qt, withInt(false))),
		cel.Function("sub",
			binary("quantity_sub", qt, qt, withQuantity(func(a, b quantity.Quantity) ref.Val { return quantityValue{a.Sub(b)} })),
			binary("quantity_sub_int", cel.IntType, qt, withInt(true))),
	}
}
