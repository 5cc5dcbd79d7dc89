package cel

import (
	"context"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// Tracked runs a checked expression with kube's cost tracking (each
// evaluation stopped at PerCallLimit, with cel-go's "operation cancelled:
// actual cost limit exceeded", and its actual cost returned), like a
// program made with ProgramOptions, but planned once: cel-go plans a
// cost-tracked program again for every evaluation (so that each has its
// own tracker), which costs more than most evaluations. Here each planned
// instance observes through an indirection that every evaluation points
// at a fresh tracker, with the decorators in the order cel-go applies
// them (interrupts, constant folding, regex compilation, then the cost
// observer), so costs are cel-go's to the unit (TestTrackedCostsAreCelGos).
// Instances are pooled: a Tracked is safe for concurrent use.
type Tracked struct {
	env  *cel.Env
	ast  *cel.Ast
	pool sync.Pool // *trackedInstance
}

type trackedInstance struct {
	prog    cel.Program
	observe interpreter.EvalObserver
	// planned are the observations made while the program was planned
	// (constant folding and regex compilation evaluate constants): cel-go
	// makes them into each evaluation's tracker, so each is replayed.
	planned []observation
}

type observation struct {
	id   int64
	step any
	val  ref.Val
}

// NewTracked plans ast (checked in env) once; its error is the planning's,
// as env.Program reports it.
func NewTracked(env *cel.Env, ast *cel.Ast) (*Tracked, error) {
	t := &Tracked{env: env, ast: ast}
	inst, err := t.instance()
	if err != nil {
		return nil, err
	}
	t.pool.Put(inst)
	return t, nil
}

func (t *Tracked) instance() (*trackedInstance, error) {
	inst := &trackedInstance{}
	observer := func(id int64, step any, val ref.Val) {
		if inst.observe == nil {
			inst.planned = append(inst.planned, observation{id, step, val})
			return
		}
		inst.observe(id, step, val)
	}
	prog, err := t.env.Program(t.ast,
		cel.CustomDecorator(interpreter.InterruptableEval()),
		cel.CustomDecorator(interpreter.Optimize()),
		cel.CustomDecorator(interpreter.CompileRegexConstants(append([]*interpreter.RegexOptimization{interpreter.MatchesRegexOptimization}, regexOptimizations()...)...)),
		cel.CustomDecorator(interpreter.Observe(observer)),
		cel.InterruptCheckFrequency(CheckFrequency))
	if err != nil {
		return nil, err
	}
	inst.prog = prog
	return inst, nil
}

// ContextEval evaluates the expression on vars (an activation or a map)
// and returns its value, its actual cost and its error; ctx's
// cancellation interrupts comprehensions.
func (t *Tracked) ContextEval(ctx context.Context, vars any) (ref.Val, uint64, error) {
	inst, _ := t.pool.Get().(*trackedInstance)
	if inst == nil {
		var err error
		if inst, err = t.instance(); err != nil {
			return nil, 0, err
		}
	}
	tracker, err := interpreter.NewCostTracker(&costEstimator{}, interpreter.CostTrackerLimit(PerCallLimit), interpreter.PresenceTestHasCost(false))
	if err != nil {
		return nil, 0, err
	}
	inst.observe = interpreter.CostObserver(tracker)
	for _, o := range inst.planned {
		inst.observe(o.id, o.step, o.val)
	}
	val, _, err := inst.prog.ContextEval(ctx, vars)
	inst.observe = nil
	t.pool.Put(inst)
	return val, tracker.ActualCost(), err
}
