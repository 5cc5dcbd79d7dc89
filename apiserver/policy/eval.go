package policy

import (
	"context"
	"fmt"
	"math"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// runtimeCostBudget is kube's budget for one evaluation of a policy's
// expressions against one request (and one parameter).
const runtimeCostBudget = 10000000

// errOutOfBudget and the like mark how an evaluation failed.
type evalError struct {
	msg string
	// budget is set when the budget ran out (no further expression ran).
	budget bool
}

func (e *evalError) Error() string { return e.msg }

// activation resolves the variables of admission expressions.
type activation struct {
	object, oldObject, params, request, namespace any
	hasParams                                     bool
	variables                                     *lazyVariables
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case varObject:
		return a.object, true
	case varOldObject:
		return a.oldObject, true
	case varParams:
		return a.params, true
	case varRequest:
		return a.request, true
	case varNamespace:
		return a.namespace, true
	case varVariables:
		if a.variables == nil {
			return nil, false
		}
		return a.variables, true
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// jsonValue is a JSON-shaped value as CEL sees it (nil: null).
func jsonValue(v map[string]any) any {
	if v == nil {
		return types.NullValue
	}
	return types.DefaultTypeAdapter.NativeToValue(v)
}

// newActivation builds the variables of one evaluation.
func newActivation(a *Attributes, m Match, object, oldObject, params, namespace map[string]any, hasParams, request bool) *activation {
	act := &activation{object: jsonValue(object), oldObject: jsonValue(oldObject), params: jsonValue(params),
		namespace: namespaceValue(namespace), hasParams: hasParams}
	if request {
		act.request = types.DefaultTypeAdapter.NativeToValue(requestValue(a, m))
	}
	return act
}

// requestValue is the request variable: the AdmissionRequest's JSON.
func requestValue(a *Attributes, m Match) map[string]any {
	groups := make([]any, len(a.User.Groups))
	for i, g := range a.User.Groups {
		groups[i] = g
	}
	extra := map[string]any{}
	for k, vs := range a.User.Extra {
		l := make([]any, len(vs))
		for i, v := range vs {
			l[i] = v
		}
		extra[k] = l
	}
	user := map[string]any{"username": a.User.Username, "uid": a.User.UID, "groups": groups, "extra": extra}
	if a.User.Username == "" {
		delete(user, "username")
	}
	if a.User.UID == "" {
		delete(user, "uid")
	}
	if len(groups) == 0 {
		delete(user, "groups")
	}
	if len(extra) == 0 {
		delete(user, "extra")
	}
	r := map[string]any{
		"kind":               map[string]any{"group": m.Kind.Group, "version": m.Kind.Version, "kind": m.Kind.Kind},
		"resource":           map[string]any{"group": m.Resource.Group, "version": m.Resource.Version, "resource": m.Resource.Resource},
		"requestKind":        map[string]any{"group": a.Kind.Group, "version": a.Kind.Version, "kind": a.Kind.Kind},
		"requestResource":    map[string]any{"group": a.Resource.Group, "version": a.Resource.Version, "resource": a.Resource.Resource},
		"operation":          a.Operation,
		"userInfo":           user,
		"dryRun":             a.DryRun,
		"name":               a.Name,
		"namespace":          a.Namespace,
		"subResource":        a.Subresource,
		"requestSubResource": a.Subresource,
	}
	for _, k := range []string{"name", "namespace", "subResource", "requestSubResource"} {
		if r[k] == "" {
			delete(r, k)
		}
	}
	if a.Options != nil {
		r["options"] = a.Options
	}
	return r
}

// namespaceValue is namespaceObject: the namespace's metadata fields kube
// keeps, spec and status.
func namespaceValue(ns map[string]any) any {
	if ns == nil {
		return types.NullValue
	}
	md, _ := ns["metadata"].(map[string]any)
	kept := map[string]any{}
	for _, k := range []string{"name", "generateName", "namespace", "uid", "resourceVersion", "generation",
		"creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers"} {
		if v, ok := md[k]; ok {
			kept[k] = v
		}
	}
	out := map[string]any{"metadata": kept}
	if v, ok := ns["spec"]; ok {
		out["spec"] = v
	}
	if v, ok := ns["status"]; ok {
		out["status"] = v
	}
	return types.DefaultTypeAdapter.NativeToValue(out)
}

// evaluation runs the expressions of one policy against one request,
// spending one budget.
type evaluation struct {
	ctx    context.Context
	act    *activation
	budget int64
	// exact runs every expression with cost tracking; otherwise an
	// expression whose estimated worst cost fits what is left of the
	// budget runs untracked (planned once) and is charged its estimate,
	// and charged records that: a tracked expression that then finds the
	// budget spent asks for the whole evaluation again, exactly
	// (errRetryExact), so that answers are kube's.
	exact   bool
	charged bool
}

// errRetryExact asks for an evaluation again with exact costs.
var errRetryExact = &evalError{msg: "retry with exact costs"}

// result is one expression's outcome.
type result struct {
	val ref.Val
	// err is the expression's own failure, reported per expression
	// (compile errors, evaluation errors).
	err string
}

// run evaluates one compiled expression, kube's Evaluate: a compile error
// is the expression's ("compilation error: ..."); running out of budget
// stops the evaluation (an *evalError with budget set).
func (e *evaluation) run(c compiled) (result, error) {
	if c.err != "" {
		return result{err: "compilation error: " + c.err}, nil
	}
	if c.program == nil {
		return result{err: "unexpected internal error compiling expression"}, nil
	}
	outOfBudget := func() (result, error) {
		if e.charged {
			return result{}, errRetryExact
		}
		return result{}, &evalError{msg: "validation failed due to running out of cost budget, no further validation rules will be run", budget: true}
	}
	if !e.exact && c.fast != nil && c.estimate <= uint64(max(e.budget, 0)) {
		if v := e.act.variables; v != nil {
			v.exact = false
		}
		val, _, err := c.fast.ContextEval(e.ctx, e.act)
		e.budget -= int64(c.estimate)
		e.charged = true
		if e.act.variables != nil {
			cost, charged := e.act.variables.takeCost()
			e.charged = e.charged || charged
			if cost > e.budget {
				return outOfBudget()
			}
			e.budget -= cost
		}
		if err != nil {
			return result{err: fmt.Sprintf("expression '%v' resulted in error: %v", c.expr, err)}, nil
		}
		return result{val: val}, nil
	}
	if v := e.act.variables; v != nil {
		v.exact = e.exact
	}
	val, details, err := c.program.ContextEval(e.ctx, e.act)
	if e.act.variables != nil {
		cost, charged := e.act.variables.takeCost()
		e.charged = e.charged || charged
		if cost > e.budget {
			return outOfBudget()
		}
		e.budget -= cost
	}
	if details == nil || details.ActualCost() == nil {
		return result{}, &evalError{msg: fmt.Sprintf("runtime cost could not be calculated for expression: %v, no further expression will be run", c.expr), budget: true}
	}
	cost := *details.ActualCost()
	if cost > math.MaxInt64 || int64(cost) > e.budget {
		return outOfBudget()
	}
	e.budget -= int64(cost)
	if err != nil {
		return result{err: fmt.Sprintf("expression '%v' resulted in error: %v", c.expr, err)}, nil
	}
	return result{val: val}, nil
}

// lazyVariables is the variables object: each variable evaluated on first
// use (once per evaluation), its cost charged to the expression that used
// it first.
type lazyVariables struct {
	// exact evaluates with cost tracking (set by the expression that
	// reads the variables); charged records that a variable ran untracked
	// and was charged its estimate.
	exact   bool
	charged bool
	ctx     context.Context
	act     *activation
	vars    []compiled
	names   map[string]int
	values  []ref.Val
	cost    int64
}

func (v *lazyVariables) takeCost() (int64, bool) {
	c, charged := v.cost, v.charged
	v.cost, v.charged = 0, false
	return c, charged
}

func (v *lazyVariables) get(name string) (ref.Val, bool) {
	i, ok := v.names[name]
	if !ok {
		return nil, false
	}
	if v.values[i] != nil {
		return v.values[i], true
	}
	c := v.vars[i]
	var out ref.Val
	switch {
	case c.err != "":
		out = types.NewErr("composited variable %q fails to compile: %v", name, c.err)
	case !v.exact && c.fast != nil:
		val, _, err := c.fast.ContextEval(v.ctx, v.act)
		v.cost += int64(min(c.estimate, math.MaxInt64))
		v.charged = true
		if err != nil {
			out = types.NewErr("composited variable %q fails to evaluate: %v", name, err)
		} else {
			out = val
		}
	default:
		val, details, err := c.program.ContextEval(v.ctx, v.act)
		switch {
		case details == nil:
			out = types.NewErr("unable to get evaluation details of variable %q", name)
		case details.ActualCost() == nil:
			out = types.NewErr("unable to calculate cost of variable %q", name)
		default:
			cost := *details.ActualCost()
			if cost > math.MaxInt64 {
				cost = math.MaxInt64
			}
			v.cost += int64(cost)
			if err != nil {
				out = types.NewErr("composited variable %q fails to evaluate: %v", name, err)
			} else {
				out = val
			}
		}
	}
	v.values[i] = out
	return out, true
}

var _ traits.Mapper = (*lazyVariables)(nil)

func (v *lazyVariables) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from map to '%v'", t)
}
func (v *lazyVariables) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return v
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from '%s' to '%s'", types.MapType, t)
}
func (v *lazyVariables) Equal(other ref.Val) ref.Val { return types.Bool(v == other) }
func (v *lazyVariables) Type() ref.Type              { return types.MapType }
func (v *lazyVariables) Value() any                  { return v }
func (v *lazyVariables) Contains(key ref.Val) ref.Val {
	s, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key)
	}
	_, found := v.names[string(s)]
	return types.Bool(found)
}
func (v *lazyVariables) Get(key ref.Val) ref.Val {
	if val, found := v.Find(key); found {
		return val
	}
	return types.ValOrErr(key, "no such key: %v", key)
}
func (v *lazyVariables) Find(key ref.Val) (ref.Val, bool) {
	s, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	return v.get(string(s))
}
func (v *lazyVariables) Iterator() traits.Iterator {
	keys := make([]ref.Val, len(v.vars))
	for n, i := range v.names {
		keys[i] = types.String(n)
	}
	return types.NewStringList(types.DefaultTypeAdapter, nil).(traits.Lister).Add(
		types.NewRefValList(types.DefaultTypeAdapter, keys)).(traits.Lister).Iterator()
}
func (v *lazyVariables) Size() ref.Val { return types.Int(len(v.vars)) }
