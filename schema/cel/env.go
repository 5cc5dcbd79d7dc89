package cel

import (
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
)

// Limits kube-apiserver 1.33 applies to CEL.
const (
	// PerCallLimit is the most one evaluation of one expression may cost.
	PerCallLimit = 1000000
	// RuntimeCostBudget is the most the rules of one object may cost
	// together.
	RuntimeCostBudget = 10000000
	// CheckFrequency is how many comprehension steps run between checks
	// of the request's context.
	CheckFrequency = 100
	// MaxMessageExpressionBytes bounds an evaluated messageExpression.
	MaxMessageExpressionBytes = 5 * 1024
	// StaticEstimatedCostLimit is the largest estimated cost of one rule
	// of a CRD.
	StaticEstimatedCostLimit = 10000000
	// StaticEstimatedCRDCostLimit is the largest estimated cost of all
	// the rules of one CRD version.
	StaticEstimatedCRDCostLimit = 100000000
)

// library is a set of declarations and the program options they need.
type library struct {
	name string
	env  []cel.EnvOption
	prog []cel.ProgramOption
}

func (l *library) LibraryName() string                 { return l.name }
func (l *library) CompileOptions() []cel.EnvOption     { return l.env }
func (l *library) ProgramOptions() []cel.ProgramOption { return l.prog }
func lib(name string, env []cel.EnvOption, prog ...cel.ProgramOption) cel.EnvOption {
	return cel.Lib(&library{name: name, env: env, prog: prog})
}

// baseEnv is the environment kube-apiserver 1.33 compiles new
// expressions in (the libraries of its compatibility version, 1.32): the
// standard definitions with kube's settings, cel-go's string (version 2),
// set, optional-type and two-variable comprehension extensions, and
// kube's lists, regex, URL, quantity, IP, CIDR and format libraries.
// (The semver library arrived in 1.33 for stored expressions only: a new
// rule cannot use it yet.)
var baseEnv = sync.OnceValues(func() (*cel.Env, error) {
	return cel.NewEnv(
		cel.HomogeneousAggregateLiterals(),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		lib("kubernetes.urls", urlsLib()),
		lib("kubernetes.regex", regexLib(), regexPrograms()...),
		lib("kubernetes.lists", listsLib()),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		lib("kubernetes.quantity", quantityLib()),
		cel.ASTValidators(
			cel.ValidateDurationLiterals(),
			cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(),
			cel.ValidateHomogeneousAggregateLiterals(),
		),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		lib("kubernetes.net", netLib()),
		lib("kubernetes.format", formatLib()),
		ext.TwoVarComprehensions(),
	)
})

// programOptions are every program's: cost tracking, kube's per-call
// limit, and the context checked while comprehensions run.
func programOptions(estimator *costEstimator) []cel.ProgramOption {
	return []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
		cel.CostLimit(PerCallLimit),
		cel.CostTracking(estimator),
		cel.InterruptCheckFrequency(CheckFrequency),
	}
}
