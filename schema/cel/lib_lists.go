package cel

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// listsLib is kube's list library: isSorted, sum, min, max, indexOf and
// lastIndexOf on lists.
//
//	[1, 2, 3].isSorted()  [1, 2].sum() == 3  ['b', 'a'].min() == 'a'  [1, 2].indexOf(2) == 1
func listsLib() []cel.EnvOption {
	comparable := []*cel.Type{cel.IntType, cel.UintType, cel.DoubleType, cel.BoolType, cel.DurationType,
		cel.TimestampType, cel.StringType, cel.BytesType}
	summable := map[*cel.Type]ref.Val{cel.IntType: types.Int(0), cel.UintType: types.Uint(0),
		cel.DoubleType: types.Double(0), cel.DurationType: types.Duration{}}
	var isSorted, sum, mins, maxs []cel.FunctionOpt
	for _, t := range comparable {
		n := t.String()
		isSorted = append(isSorted, cel.MemberOverload("list_"+n+"_is_sorted_bool",
			[]*cel.Type{cel.ListType(t)}, cel.BoolType, cel.UnaryBinding(listIsSorted)))
		mins = append(mins, cel.MemberOverload("list_"+n+"_min_"+n,
			[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(listExtreme("min", types.IntOne))))
		maxs = append(maxs, cel.MemberOverload("list_"+n+"_max_"+n,
			[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(listExtreme("max", types.IntNegOne))))
	}
	for _, t := range []*cel.Type{cel.IntType, cel.UintType, cel.DoubleType, cel.DurationType} {
		n, zero := t.String(), summable[t]
		sum = append(sum, cel.MemberOverload("list_"+n+"_sum_"+n,
			[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(func(l ref.Val) ref.Val { return listSum(zero, l) })))
	}
	a := cel.TypeParamType("A")
	return []cel.EnvOption{
		cel.Function("isSorted", isSorted...),
		cel.Function("sum", sum...),
		cel.Function("min", mins...),
		cel.Function("max", maxs...),
		cel.Function("indexOf", cel.MemberOverload("list_a_index_of_int", []*cel.Type{cel.ListType(a), a}, cel.IntType,
			cel.BinaryBinding(func(l, v ref.Val) ref.Val { return listIndex(l, v, false) }))),
		cel.Function("lastIndexOf", cel.MemberOverload("list_a_last_index_of_int", []*cel.Type{cel.ListType(a), a}, cel.IntType,
			cel.BinaryBinding(func(l, v ref.Val) ref.Val { return listIndex(l, v, true) }))),
	}
}

func listIsSorted(v ref.Val) ref.Val {
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

func listSum(zero, v ref.Val) ref.Val {
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	acc := zero
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		if _, ok := next.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		adder, ok := acc.(traits.Adder)
		if !ok {
			return types.MaybeNoSuchOverloadErr(acc)
		}
		acc = adder.Add(next)
		if types.IsError(acc) {
			return acc
		}
	}
	return acc
}

// listExtreme is min (prefer = 1: replace while the kept value compares
// greater) or max (prefer = -1).
func listExtreme(name string, prefer ref.Val) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		it, ok := v.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		var best traits.Comparer
		for i := it.Iterator(); i.HasNext() == types.True; {
			next := i.Next()
			c, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if best == nil || best.Compare(next) == prefer {
				best = c
			}
		}
		if best == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return best.(ref.Val)
	}
}

func listIndex(list, item ref.Val, last bool) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(list)
	}
	n := l.Size().(types.Int)
	for k := types.Int(0); k < n; k++ {
		i := k
		if last {
			i = n - 1 - k
		}
		if l.Get(i).Equal(item) == types.True {
			return i
		}
	}
	return types.Int(-1)
}
