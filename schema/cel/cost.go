package cel

import (
	"math"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// costEstimator gives the cost of kube's library functions (and of the
// string extensions cel-go leaves unpriced), both estimated from a rule's
// types before it runs and measured from its values while it runs, with
// the formulas kube-apiserver uses, so that a rule over budget is refused
// with kube's factor and a rule stopped at run time is stopped at the same
// point. sizes estimates the size of data reached from the rule's
// variables (the schema's maxLength, maxItems, maxProperties, or what
// fits in a request).
type costEstimator struct {
	sizes checker.CostEstimator
}

var (
	_ checker.CostEstimator = (*costEstimator)(nil)
	_ interface {
		CallCost(string, string, []ref.Val, ref.Val) *uint64
	} = (*costEstimator)(nil)
)

func ceilCost(size uint64, factor float64) uint64 { return uint64(math.Ceil(float64(size) * factor)) }

func one() *uint64 { c := uint64(1); return &c }

// CallCost is the cost of one call with its actual arguments.
func (c *costEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	cost := func(v uint64) *uint64 { return &v }
	switch function {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
		var n uint64
		if len(args) > 0 {
			n = traversalCost(args[0])
		}
		return &n
	case "url", "lowerAscii", "upperAscii", "substring", "trim":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), common.StringTraversalCostFactor))
		}
	case "replace", "split":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), 2*common.StringTraversalCostFactor))
		}
	case "join":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(result), 2*common.StringTraversalCostFactor))
		}
	case "find", "findAll":
		if len(args) >= 2 {
			str := uint64(math.Ceil((1.0 + float64(actualSize(args[0]))) * common.StringTraversalCostFactor))
			re := ceilCost(actualSize(args[1]), common.RegexStringLengthCostFactor)
			return cost(str * re)
		}
	case "cidr", "isIP", "isCIDR":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), common.StringTraversalCostFactor))
		}
	case "ip":
		if len(args) >= 1 {
			if overloadID == "cidr_ip" {
				return one()
			}
			return cost(ceilCost(actualSize(args[0]), common.StringTraversalCostFactor))
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), 2*common.StringTraversalCostFactor))
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
		"isLinkLocalUnicast", "isGlobalUnicast":
		return one()
	case "containsIP":
		if len(args) >= 2 {
			cidr, other := actualSize(args[0]), actualSize(args[1])
			n := ceilCost(cidr+cidr, common.StringTraversalCostFactor)
			if overloadID == "cidr_contains_ip_string" {
				n += ceilCost(other, common.StringTraversalCostFactor)
			}
			return &n
		}
	case "containsCIDR":
		if len(args) >= 2 {
			cidr, other := actualSize(args[0]), actualSize(args[1])
			n := ceilCost(cidr+cidr, common.StringTraversalCostFactor)
			n += ceilCost(cidr, common.StringTraversalCostFactor) + 1
			if overloadID == "cidr_contains_cidr_string" {
				n += ceilCost(other, common.StringTraversalCostFactor)
			}
			return &n
		}
	case "quantity", "isQuantity":
		if len(args) >= 1 {
			return cost(ceilCost(actualSize(args[0]), common.StringTraversalCostFactor))
		}
	case "validate":
		if len(args) >= 2 {
			if f, ok := args[0].(*namedFormat); ok {
				str := uint64(math.Ceil((1.0 + float64(actualSize(args[1]))) * common.StringTraversalCostFactor))
				re := ceilCost(uint64(f.maxRegexSize), common.RegexStringLengthCostFactor)
				return cost(str * re)
			}
		}
	case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
		"compareTo", "add", "sub", "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return one()
	case "_==_":
		if len(args) == 2 {
			switch args[0].(type) {
			case quantityValue, ipValue, cidrValue, *namedFormat, urlValue:
				return one()
			}
		}
	}
	return nil
}

// EstimateCallCost is the cost of a call estimated from its types.
func (c *costEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	fixed := func(n uint64) *checker.CallEstimate {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: n, Max: n}}
	}
	switch function {
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
		if target != nil {
			elCost := checker.CostEstimate{Min: 1, Max: 1}
			if el := c.listElementNode(*target); el != nil {
				if k := el.Type().Kind(); k == types.StringKind || k == types.BytesKind {
					elCost = elCost.Add(c.sizeEstimate(el).MultiplyByCostFactor(common.StringTraversalCostFactor))
				}
				return &checker.CallEstimate{CostEstimate: c.sizeEstimate(*target).MultiplyByCost(elCost)}
			}
			// indexOf and lastIndexOf of a string
			return &checker.CallEstimate{CostEstimate: c.sizeEstimate(*target).MultiplyByCostFactor(common.StringTraversalCostFactor)}
		}
	case "url":
		if len(args) == 1 {
			sz := c.sizeEstimate(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor), ResultSize: &sz}
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := c.sizeEstimate(*target)
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor), ResultSize: &sz}
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return c.replaceEstimate(*target, args)
		}
	case "split":
		if target != nil {
			sz := c.sizeEstimate(*target)
			limit := sz.Max
			if len(args) > 1 {
				if v := args[1].Expr().AsLiteral(); v != nil {
					if i, ok := v.Value().(int64); ok {
						limit = uint64(i)
					}
				}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * common.StringTraversalCostFactor),
				ResultSize: &checker.SizeEstimate{Min: 0, Max: limit}}
		}
	case "join":
		if target != nil {
			var sz checker.SizeEstimate
			listSize := c.sizeEstimate(*target)
			if el := c.listElementNode(*target); el != nil {
				sz = listSize.Multiply(c.sizeEstimate(el))
			}
			if len(args) > 0 {
				sep := c.sizeEstimate(args[0])
				var minSep, maxSep uint64
				if listSize.Min > 0 {
					minSep = listSize.Min - 1
				}
				if listSize.Max > 0 {
					maxSep = listSize.Max - 1
				}
				sz = sz.Add(sep.Multiply(checker.SizeEstimate{Min: minSep, Max: maxSep}))
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor), ResultSize: &sz}
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := c.sizeEstimate(*target)
			str := sz.Add(checker.SizeEstimate{Min: 1, Max: 1}).MultiplyByCostFactor(common.StringTraversalCostFactor)
			re := c.sizeEstimate(args[0]).MultiplyByCostFactor(common.RegexStringLengthCostFactor)
			return &checker.CallEstimate{CostEstimate: str.Multiply(re), ResultSize: &checker.SizeEstimate{Min: 0, Max: sz.Max}}
		}
	case "cidr", "isIP", "isCIDR":
		if target != nil {
			return &checker.CallEstimate{CostEstimate: c.sizeEstimate(args[0]).MultiplyByCostFactor(common.StringTraversalCostFactor)}
		}
	case "ip":
		if target != nil && len(args) >= 1 {
			if overloadID == "cidr_ip" {
				return fixed(1)
			}
			return &checker.CallEstimate{CostEstimate: c.sizeEstimate(args[0]).MultiplyByCostFactor(common.StringTraversalCostFactor)}
		} else if target != nil {
			return fixed(1)
		}
	case "ip.isCanonical":
		if target != nil && len(args) >= 1 {
			return &checker.CallEstimate{CostEstimate: c.sizeEstimate(args[0]).MultiplyByCostFactor(2 * common.StringTraversalCostFactor)}
		}
	case "masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
		"isLinkLocalUnicast", "isGlobalUnicast":
		return fixed(1)
	case "containsIP":
		if target != nil && len(args) >= 1 {
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			est := sz.Add(sz).MultiplyByCostFactor(common.StringTraversalCostFactor)
			if overloadID == "cidr_contains_ip_string" {
				est = est.Add(checker.CostEstimate(c.sizeEstimate(args[0])).MultiplyByCostFactor(common.StringTraversalCostFactor))
			}
			return &checker.CallEstimate{CostEstimate: est}
		}
	case "containsCIDR":
		if target != nil && len(args) >= 1 {
			sz := checker.SizeEstimate{Min: 4, Max: 16}
			est := sz.Add(sz).MultiplyByCostFactor(common.StringTraversalCostFactor)
			est = est.Add(sz.MultiplyByCostFactor(common.StringTraversalCostFactor))
			est = est.Add(checker.CostEstimate{Min: 1, Max: 1})
			if overloadID == "cidr_contains_cidr_string" {
				est = est.Add(checker.CostEstimate(c.sizeEstimate(args[0])).MultiplyByCostFactor(common.StringTraversalCostFactor))
			}
			return &checker.CallEstimate{CostEstimate: est}
		}
	case "quantity", "isQuantity":
		if target != nil {
			return &checker.CallEstimate{CostEstimate: c.sizeEstimate(args[0]).MultiplyByCostFactor(common.StringTraversalCostFactor)}
		}
	case "validate":
		if target != nil {
			sz := c.sizeEstimate(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor).
				MultiplyByCostFactor(128 * common.RegexStringLengthCostFactor)}
		}
	case "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
		"compareTo", "add", "sub", "getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return fixed(1)
	case "_==_":
		if len(args) == 2 {
			lhs, rhs := args[0], args[1]
			if lhs.Type().Equal(rhs.Type()) == types.True {
				t := lhs.Type()
				if t.Kind() == types.OpaqueKind && (t.TypeName() == ipType.TypeName() || t.TypeName() == cidrType.TypeName()) {
					return fixed(1)
				}
				if t.Kind() == types.StructKind {
					switch t.TypeName() {
					case quantityType.TypeName():
						return fixed(1)
					case formatType.TypeName():
						return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: 64}.
							MultiplyByCostFactor(common.StringTraversalCostFactor)}
					case urlType.TypeName():
						size := checker.SizeEstimate{Min: 1, Max: 1}
						// kube sizes both sides from the right-hand one.
						if rs := rhs.ComputedSize(); rs != nil {
							size = rs.Union(*rs)
						}
						return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: size.Max}.
							MultiplyByCostFactor(common.StringTraversalCostFactor)}
					}
				}
			}
		}
	}
	return nil
}

func (c *costEstimator) replaceEstimate(target checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	sz := c.sizeEstimate(target)
	old, repl := c.sizeEstimate(args[0]), c.sizeEstimate(args[1])
	var count, kept checker.SizeEstimate
	switch {
	case old.Min == 0:
		count.Max = sz.Max
		if sz.Max < math.MaxUint64 {
			count.Max = sz.Max + 1
		}
		kept.Max = sz.Max
	case repl.Max <= old.Min:
		kept.Max = sz.Max
	default:
		count.Max = uint64(math.Ceil(float64(sz.Max) / float64(old.Min)))
	}
	switch {
	case old.Max == 0:
		count.Min = sz.Min
		if sz.Min < math.MaxUint64 {
			count.Min = sz.Min + 1
		}
		kept.Min = sz.Min
	case old.Max <= repl.Min:
		kept.Min = sz.Min
	default:
		count.Min = uint64(math.Ceil(float64(sz.Min) / float64(old.Max)))
	}
	size := count.Multiply(repl).Add(kept)
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * common.StringTraversalCostFactor), ResultSize: &size}
}

// EstimateSize defers to the schema's size estimates.
func (c *costEstimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if c.sizes != nil {
		return c.sizes.EstimateSize(n)
	}
	return nil
}

func (c *costEstimator) sizeEstimate(n checker.AstNode) checker.SizeEstimate {
	if sz := n.ComputedSize(); sz != nil {
		return *sz
	}
	if sz := c.EstimateSize(n); sz != nil {
		return *sz
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
}

func (c *costEstimator) listElementNode(list checker.AstNode) checker.AstNode {
	params := list.Type().Parameters()
	if len(params) == 0 {
		return nil
	}
	var path []string
	if p := list.Path(); p != nil {
		path = append(append(make([]string, 0, len(p)+1), p...), "@items")
	}
	return &itemsNode{path: path, t: params[0]}
}

// itemsNode stands for the items of a list in size estimates.
type itemsNode struct {
	path []string
	t    *types.Type
}

func (i *itemsNode) Path() []string                      { return i.path }
func (i *itemsNode) Type() *types.Type                   { return i.t }
func (i *itemsNode) Expr() ast.Expr                      { return nil }
func (i *itemsNode) ComputedSize() *checker.SizeEstimate { return nil }

func actualSize(v ref.Val) uint64 {
	if sz, ok := v.(traits.Sizer); ok {
		if n, ok := sz.Size().(types.Int); ok {
			return uint64(n)
		}
	}
	return 1
}

// traversalCost is what reading a whole value costs.
func traversalCost(v ref.Val) uint64 {
	switch t := v.(type) {
	case types.String:
		return uint64(float64(len(string(t))) * common.StringTraversalCostFactor)
	case types.Bytes:
		return uint64(float64(len([]byte(t))) * common.StringTraversalCostFactor)
	case traits.Lister:
		var n uint64
		for it := t.Iterator(); it.HasNext() == types.True; {
			n += traversalCost(it.Next())
		}
		return n
	case traits.Mapper:
		var n uint64
		for it := t.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			n += traversalCost(k) + traversalCost(t.Get(k))
		}
		return n
	}
	return 1
}

// schemaSizes estimates the size of data a rule reaches from self (and
// oldSelf), from the rule's type: the path's last node's maxElements.
type schemaSizes struct{ root *declType }

func (s *schemaSizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	path := n.Path()
	if len(path) == 0 {
		return nil
	}
	t := s.root
	for _, name := range path[1:] {
		switch name {
		case "@items", "@values":
			if t.elem == nil {
				return nil
			}
			t = t.elem
		case "@keys":
			if !t.isMap {
				return nil
			}
			t = stringKey
		default:
			f, ok := t.fields[name]
			if !ok || f == nil {
				return nil
			}
			t = f
		}
	}
	return &checker.SizeEstimate{Min: 0, Max: uint64(t.maxElements)}
}

func (s *schemaSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// stringKey is a map key's type for size estimates: kube's string type
// carries no bound (maxElements 0).
var stringKey = simpleType("string", types.StringType, minStringSize)
