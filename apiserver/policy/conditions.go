package policy

import (
	"context"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/kapi-dev/kapi/meta"
)

// runtimeCostBudgetMatchConditions is kube's budget for a webhook's
// matchConditions on one request.
const runtimeCostBudgetMatchConditions = 2500000

// Conditions are a webhook's compiled matchConditions: CEL expressions
// over object, oldObject and request that all must hold for the webhook
// to be called.
type Conditions struct {
	list []namedCompiled
}

// CompileConditions compiles JSON-shaped matchConditions, as a webhook
// configuration holds them.
func CompileConditions(v any) *Conditions {
	conds := meta.AsMaps(v)
	if len(conds) == 0 {
		return nil
	}
	env, err := admissionEnv(false)
	c := &Conditions{}
	for _, m := range conds {
		var cc compiled
		if err != nil {
			cc = compiled{expr: str(m, "expression"), err: err.Error()}
		} else {
			cc = compileExpr(env, str(m, "expression"), cel.BoolType)
		}
		c.list = append(c.list, namedCompiled{name: str(m, "name"), compiled: cc})
	}
	return c
}

// Match evaluates the conditions as kube's matcher does: any false one
// excludes; otherwise errors (in the conditions, or a spent budget) are
// returned for the caller's failurePolicy to decide, several joined as
// kube aggregates them.
func (c *Conditions) Match(ctx context.Context, a *Attributes, object, oldObject map[string]any) (bool, error) {
	if c == nil {
		return true, nil
	}
	act := newActivation(a, Match{Resource: a.Resource, Kind: a.Kind}, object, oldObject, nil, nil, false, true)
	e := &evaluation{ctx: ctx, act: act, budget: runtimeCostBudgetMatchConditions, exact: true}
	var errs []string
	for _, cond := range c.list {
		r, err := e.run(cond.compiled)
		if err != nil {
			return false, err
		}
		if r.err != "" {
			errs = append(errs, r.err)
			continue
		}
		if r.val == types.False {
			return false, nil
		}
	}
	if len(errs) > 0 {
		return false, aggregate(errs)
	}
	return true, nil
}

// aggregate is kube's aggregate of errors: one message, or several in
// brackets, each once.
type aggregate []string

func (a aggregate) Error() string {
	var uniq []string
	seen := map[string]bool{}
	for _, e := range a {
		if !seen[e] {
			seen[e] = true
			uniq = append(uniq, e)
		}
	}
	if len(uniq) == 1 {
		return uniq[0]
	}
	return "[" + strings.Join(uniq, ", ") + "]"
}
